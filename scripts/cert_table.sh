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
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/sparsefs}
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh "${2:-}"
limit=${LIMIT:-60}
declare -A args=(
	[rfs]="-method rfs"
	[gsr_r1p1]="-method gsr -param r=1 -param p=1"
	[mtfs]="-method mtfs"
	[dso_p1]="-method dso -param p=1"
	[exl21]="-method exl21"
	[elasso]="-method elasso"
	[l1svm]="-method l1svm"
)
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
echo "| data | m × n | model | gap | iterations | stop | fit s |"
echo "|---|---|---|---|---|---|---|"
for f in "${files[@]}"; do
	name=$(basename "$f"); name=${name%.gz}; name=${name%.csv}
	for m in $methods; do
		# shellcheck disable=SC2086
		if out=$(timeout "$limit" "$bin" select -data "$f" ${args[$m]} 2>/dev/null); then
			printf '%s' "$out" | python3 -c '
import json, sys
name, model = sys.argv[1], sys.argv[2]
r = json.load(sys.stdin)
d = r["dataset"]
c = r.get("certificate")
gap = "%.1e" % c["gap"] if c else "—"
print("| %s | %d × %d | %s | %s | %d | %s | %.3f |" % (name, d["samples"], d["features"], model, gap, r["iterations"], r["stop"], r["seconds"]))
' "$name" "$m"
		else
			echo "| $name | | $m | | | | > $limit s |"
		fi
	done
done
