#!/usr/bin/env bash
# Run every filter on every shared dataset from the CLI and print the fit
# time (the "seconds" of the response: preprocessing and reading excluded)
# and the wall time of the whole command, one line per run.
#
#   scripts/filters_all_datasets.sh [bin/sparsefs] [DATA_DIR]
#
# DATA_DIR defaults to $SPARSEFS_DATA, else the first shared/data found
# beside the repository or one of its parents: the benchmark datasets
# (scikit-feature's collection as gzip-compressed CSV files, kept outside
# the repository; docs/results.md#datasets). Extra arguments for a method
# go in $PARAMS_<method>, e.g. PARAMS_mrmr="-param k=100".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/sparsefs}
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh "${2:-}"
methods=${METHODS:-"fisher fstat ttest infogain relieff mrmr"}
printf '%-22s %-9s %10s %10s\n' dataset method fit_s wall_s
for f in "$data"/*.csv.gz; do
	name=$(basename "$f" .csv.gz)
	for m in $methods; do
		var="PARAMS_$m"
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		out=$("$bin" select -data "$f" -method "$m" ${!var:-})
		end=$(date +%s.%N)
		fit=$(printf '%s' "$out" | grep -o '"seconds":[0-9.e+-]*' | cut -d: -f2)
		printf '%-22s %-9s %10.3f %10.3f\n' "$name" "$m" "$fit" "$(echo "$end - $start" | bc)"
	done
done
