#!/usr/bin/env bash
# Runs each paper's script (scripts/papers/) in its smallest configuration
# — one dataset, one seed or split, the cheapest preset — so that the
# commands docs/papers/ gives keep working; the numbers of the documents
# come from the scripts' full runs. Writes nothing into the repository.
#
#   scripts/test_papers.sh [bin/sparsefs]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-bin/sparsefs}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME ENV... runs scripts/papers/NAME.sh with the environment given,
# its reports and figures in a directory of its own, and fails with the
# script's output when it fails.
run() {
	local name=$1
	shift
	local dir=$work/$name
	mkdir -p "$dir/fig"
	if ! env OUT="$dir" FIGURES="$dir/fig" FIGDIR="$dir/fig" "$@" "scripts/papers/$name.sh" "$bin" >"$dir.log" 2>&1; then
		cat "$dir.log" >&2
		echo "test_papers: scripts/papers/$name.sh failed" >&2
		exit 1
	fi
	echo "test_papers: scripts/papers/$name.sh ran ($(find "$dir" -name '*.json' | wc -l) reports, $(find "$dir/fig" -name '*.svg' | wc -l) figures)"
}

run rfs-nie-2010 DATASETS=ALLAML SEEDS=1 LEAKY=1 TABLE1=0
run dso-fs-peng-fan-2016 TABLE_DATA=lung_discrete FIG1_DATA=lung_discrete SPLITS=0:0 WORKERS=2
run gsr-fs-peng-fan PARTS="fig2 table2" OUTLIERS=0.01 DATASETS=warpPIE10P PRESET=gsr-fs-peng-fan-fixed WORKERS=2
run l20-nmapg-an-dong-qin-2021 DATASETS=leukemia SEEDS=1 PRESET=l20-nmapg-an-dong-qin-2021-k5 EXPERIMENTS=0 LEAKY=0
run exclusive-l21-ming-ding-2019 DATASETS=lung_discrete CONVERGENCE=lung_discrete PERCLASS=lung_discrete ALPHA_SETS=lung_discrete ALPHAS=2
