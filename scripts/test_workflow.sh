#!/usr/bin/env bash
# Runs the Snakemake workflow (workflow/Snakefile) locally on the bundled
# demo data, an evaluation split into parts run as separate jobs, and checks
# that its merged report is the report of one `sparsefs eval` of the same
# request, byte for byte but the wall times.
#
#   scripts/test_workflow.sh [bin/sparsefs]
set -euo pipefail
cd "$(dirname "$0")/.."
sparsefs=$(realpath "${1:-bin/sparsefs}")
data=$PWD/assets/demo/breast-cancer-wisconsin.csv
args="-methods fstat,fisher,l1svm -param C=0.5,2 -k 5,10 -holdout 0.7x3 -classifier svm,knn -seed 3"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

snakemake -s "$PWD/workflow/Snakefile" --directory "$work" --cores 2 --quiet \
	--config data="$data" args="$args" parts=4 out="$work/out" sparsefs="$sparsefs" >"$work/snakemake.log" 2>&1 ||
	{ cat "$work/snakemake.log" >&2; exit 1; }
"$sparsefs" eval -data "$data" $args >"$work/one.json"

# the wall times differ between two runs; everything else must not
/usr/bin/python3 - "$work/out/report.json" "$work/one.json" <<'PY'
import json, sys
def untimed(o):
    if isinstance(o, dict):
        return {k: (0 if k in ("seconds", "fit_seconds") else untimed(v)) for k, v in o.items()}
    if isinstance(o, list):
        return [untimed(v) for v in o]
    return o
parts, one = (untimed(json.load(open(p))) for p in sys.argv[1:3])
if parts != one:
    sys.exit("the workflow's report differs from one sparsefs eval")
units = sum(len(r["units"]) for r in one["results"])
print(f"workflow: {units} units in 4 parts, merged: the report of one sparsefs eval")
PY
