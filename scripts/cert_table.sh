#!/usr/bin/env bash
# The convex models at their paper defaults on the demo data and every
# shared dataset, from the CLI natively: for each fit the certified
# relative duality gap at the stop (the response's certificate.gap; "—"
# where the method reports none), the iterations, the stop reason and the
# fit time (the response's "seconds": reading and preprocessing excluded).
# A fit that takes more than LIMIT seconds (default 60) is stopped and
# shown as "> LIMIT s". One Markdown row per fit, for docs/results.md
# (§ 2.8, "Certificates of the convex models on every dataset").
#
#   scripts/cert_table.sh [bin/sparsefs] [DATA_DIR]
#
# DATA_DIR defaults to $SPARSEFS_DATA, else the first shared/data found
# beside the repository or one of its parents (docs/results.md#datasets).
# The models: rfs (γ = 1), gsr with r = p = 1 (λ = 1), mtfs (λ = 1), dso
# with p = 1, exl21, elasso and l1svm with their defaults; METHODS
# restricts them (by the labels below), DATASETS the datasets (names
# without .csv.gz; "demo" and "digits" are the demo files).
#
# With BROWSER=1 the same fits also run in one Chromium worker
# (e2e/bench/bench_irls.mjs --model: the built site in dist/, ./build.sh,
# and e2e's node modules), one after the other in one page, and each row
# gets the browser's gap, iterations, stop and fit time beside the
# native ones (no time limit there: leave the slow fits out with
# METHODS/DATASETS).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/sparsefs}
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh "${2:-}"
limit=${LIMIT:-60}
# The models: label → bench_irls.mjs --model spec (METHOD[:K=V,...]), from
# which the CLI's flags are made.
declare -A specs=(
	[rfs]="rfs"
	[gsr_r1p1]="gsr:r=1,p=1"
	[mtfs]="mtfs"
	[dso_p1]="dso:p=1"
	[exl21]="exl21"
	[elasso]="elasso"
	[l1svm]="l1svm"
)
# cliArgs prints the CLI flags of a spec.
cliArgs() {
	local method=${1%%:*} params=
	[ "$method" != "$1" ] && params=${1#*:}
	printf -- '-method %s' "$method"
	local IFS=,
	for kv in $params; do printf -- ' -param %s' "$kv"; done
}
methods=${METHODS:-"rfs gsr_r1p1 mtfs dso_p1 exl21 elasso l1svm"}
files=()
if [ -z "${DATASETS:-}" ]; then
	files=(assets/demo/breast-cancer-wisconsin.csv assets/demo/digits.csv.gz "$data"/*.csv.gz)
else
	for n in $DATASETS; do
		case $n in
		demo) files+=(assets/demo/breast-cancer-wisconsin.csv) ;;
		digits) files+=(assets/demo/digits.csv.gz) ;;
		*) files+=("$data/$n.csv.gz") ;;
		esac
	done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One JSON line per native fit.
for f in "${files[@]}"; do
	for m in $methods; do
		# shellcheck disable=SC2086
		if out=$(timeout "$limit" "$bin" select -data "$f" $(cliArgs "${specs[$m]}") 2>/dev/null); then
			printf '%s' "$out" | python3 -c '
import json, os, sys
r = json.load(sys.stdin)
c = r.get("certificate")
print(json.dumps({"data": os.path.basename(sys.argv[1]), "model": sys.argv[2], "spec": sys.argv[3], "samples": r["dataset"]["samples"], "features": r["dataset"]["features"],
                  "gap": c["gap"] if c else None, "iterations": r["iterations"], "stop": r["stop"], "seconds": r["seconds"]}))
' "$f" "$m" "${specs[$m]}" >>"$tmp/native.jsonl"
		else
			printf '{"data": "%s", "model": "%s", "spec": "%s", "timeout": true}\n' "$(basename "$f")" "$m" "${specs[$m]}" >>"$tmp/native.jsonl"
		fi
	done
done
touch "$tmp/browser.jsonl"
if [ "${BROWSER:-}" = 1 ]; then
	models=()
	for m in $methods; do models+=(--model "${specs[$m]}"); done
	node e2e/bench/bench_irls.mjs --repeat 1 "${models[@]}" "${files[@]}" >"$tmp/browser.jsonl"
fi
python3 - "$tmp/native.jsonl" "$tmp/browser.jsonl" "$limit" "${BROWSER:-}" <<'EOF'
import json, sys
native_file, browser_file, limit, browser = sys.argv[1:5]
web = {}
for line in open(browser_file):
    r = json.loads(line)
    web[(r["data"], r["model"])] = r
def cell(gap, iterations, stop, seconds):
    return "%s | %d | %s | %.3f" % ("%.1e" % gap if gap is not None else "—", iterations, stop, seconds)
head = "| data | m × n | model | gap | iterations | stop | fit s |"
rule = "|---|---|---|---|---|---|---|"
if browser == "1":
    head += " browser gap | browser iterations | browser stop | browser fit s |"
    rule += "---|---|---|---|"
print(head)
print(rule)
for line in open(native_file):
    r = json.loads(line)
    name = r["data"].removesuffix(".gz").removesuffix(".csv")
    if r.get("timeout"):
        row = "| %s | | %s | | | | > %s s |" % (name, r["model"], limit)
    else:
        row = "| %s | %d × %d | %s | %s |" % (name, r["samples"], r["features"], r["model"], cell(r["gap"], r["iterations"], r["stop"], r["seconds"]))
    if browser == "1":
        w = web.get((r["data"], r["spec"]))
        if w is None or "error" in w:
            row += " %s | | | |" % (w["error"] if w else "not run")
        else:
            row += " %s |" % cell(w["gap"], w["iterations"], w["stop"], w["seconds"])
    print(row)
EOF
