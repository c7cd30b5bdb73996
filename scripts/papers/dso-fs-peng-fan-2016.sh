#!/usr/bin/env bash
# Reproduce the experiments of dso-fs-peng-fan-2016 (H. Peng, Y. Fan, Direct
# sparsity optimization based feature selection for multi-class
# classification, IJCAI 2016, §5) through `sparsefs eval`:
#
#   Table 1 / Fig. 2  DSO-FS, ℓ1-SVM, RFS, ReliefF and mRMR; the accuracy of a
#                     linear SVM on the top 10, 20, …, 100 features (Table 1:
#                     the top 100), 10 random stratified 60/40 splits;
#                     inside every training part, 3-fold (below 200 training
#                     samples, else 8-fold) cross-validation tunes the SVM's
#                     C over 10⁻⁴…10², DSO-FS's p over {0.1, 0.3, 0.5, 0.7,
#                     0.9, 1}, RFS's γ and ℓ1-SVM's C over 10⁻³…10³.
#   Fig. 1            DSO-FS alone, one curve per p in {0.1, …, 1}, the
#                     SVM's C tuned as above.
#
#   scripts/papers/dso-fs-peng-fan-2016.sh [path/to/sparsefs]
#
# The paper's datasets are not all at hand; the closest shared ones stand in
# for them (docs/papers/dso-fs-peng-fan-2016.md says why):
#   ISOLET → Isolet, SEMEION → USPS, LUNG → lung_discrete,
#   CLL-SUB-111 → lymphoma, UMIST → warpPIE10P, AR → warpAR10P.
#
# Environment (defaults: the paper's protocol):
#   SPARSEFS_DATA  the shared datasets (gzip CSV; default: a shared/data
#                  directory beside the repository or one of its parents)
#   TABLE_DATA     datasets of Table 1 / Fig. 2
#                  (default "lung_discrete lymphoma warpAR10P warpPIE10P Isolet USPS",
#                  the slowest last)
#   FIG1_DATA      datasets of Fig. 1 (default "lung_discrete warpPIE10P Isolet")
#   SEEDS          split seeds, each giving the paper's 10 splits (default "1")
#   SPLITS         run only these of the 10 splits, e.g. 0:2 (default: all);
#                  the reports are then parts (sparsefs eval -units) that the
#                  summary reads as they are
#   PARTS          which experiments: "table1 fig1" (default both)
#   OUT            where the JSON reports go (default a temporary directory);
#                  a report already there is kept, not recomputed
#   WORKERS        units run at once (default 1: the machine is shared)
#   FIGDIR         where the SVG figures go (default docs/papers/figures)
#
# DSO-FS on Isolet and USPS (more training samples than features) runs in
# the least-squares regime, where it is very slow and its ranking is not
# meaningful (docs/exl21-dso.md); expect hours there.
#
# The paper z-scores every dataset once before splitting; here the z-score
# is fitted on each training part (the evaluation cannot leak). The paper
# selects features on the training part only, so there is no selection leak
# to reproduce.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOTOOLCHAIN=go1.27.3 # the toolchain of build.sh
BIN=${1:-bin/sparsefs}
[ -x "$BIN" ] || go build -trimpath -o "$BIN" ./cmd/sparsefs
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh "${SPARSEFS_DATA:-}"
TABLE_DATA=${TABLE_DATA-lung_discrete lymphoma warpAR10P warpPIE10P Isolet USPS}
FIG1_DATA=${FIG1_DATA-lung_discrete warpPIE10P Isolet}
SEEDS=${SEEDS:-1}
PARTS=${PARTS:-table1 fig1}
OUT=${OUT:-$(mktemp -d)}
WORKERS=${WORKERS:-1}
FIGDIR=${FIGDIR:-docs/papers/figures}
mkdir -p "$OUT" "$FIGDIR"

# The request of each experiment is a preset of the page (ui/lab/presets.json):
# dso-fs-peng-fan-2016 (Table 1 / Fig. 2) and dso-fs-peng-fan-2016-fig1.
# With SPLITS, the units to run: those splits of every variant (unit =
# variant × splits + split).
units() { # units PRESET DATASET SEED
	"$BIN" eval -preset "$1" -data "$data/$2.csv.gz" -seed "$3" -describe |
		/usr/bin/python3 -c 'import json, sys
h = json.load(sys.stdin)["header"]
ns = len(h["splits"])
a, _, b = sys.argv[1].partition(":")
a, b = int(a), int(b or a)
print(",".join(f"{v * ns + a}:{v * ns + b}" for v in range(len(h["variants"]))))' "$SPLITS"
}
run() { # run PRESET DATASET SEED REPORT
	if [ -s "$4" ]; then
		echo "dso-fs: $4 exists, kept" >&2
		return
	fi
	echo "dso-fs: $1 on $2, seed $3${SPLITS:+, splits $SPLITS}" >&2
	sel=()
	[ -n "${SPLITS:-}" ] && sel=(-units "$(units "$1" "$2" "$3")")
	nice -n 10 "$BIN" eval -preset "$1" -data "$data/$2.csv.gz" -seed "$3" -workers "$WORKERS" \
		${sel[@]+"${sel[@]}"} -progress off >"$4.tmp"
	mv "$4.tmp" "$4"
}

for seed in $SEEDS; do
	if [[ " $PARTS " == *" table1 "* ]]; then
		for ds in $TABLE_DATA; do
			run dso-fs-peng-fan-2016 "$ds" "$seed" "$OUT/table1-$ds-seed$seed${SPLITS:+-splits${SPLITS/:/-}}.json"
		done
	fi
	if [[ " $PARTS " == *" fig1 "* ]]; then
		for ds in $FIG1_DATA; do
			run dso-fs-peng-fan-2016-fig1 "$ds" "$seed" "$OUT/fig1-$ds-seed$seed${SPLITS:+-splits${SPLITS/:/-}}.json"
		done
	fi
done
shopt -s nullglob
/usr/bin/python3 scripts/papers/dso-fs-peng-fan-2016/summary.py -figdir "$FIGDIR" "$OUT"/table1-*.json "$OUT"/fig1-*.json
echo "dso-fs: reports in $OUT" >&2
