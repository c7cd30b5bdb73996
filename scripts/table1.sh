#!/usr/bin/env bash
# Reproduce Table 1 of rfs-nie-2010 (Nie, Huang, Cai & Ding, NIPS 2010):
# 5-fold cross-validated accuracy of a linear SVM (C = 1) on the top 20 and
# top 80 features of ReliefF, F-statistic, t-test, information gain, mRMR
# and RFS, on ALLAML, GLIOMA and Prostate_GE (z-scored, as §5.2 says; here
# the z-score and the selection are fitted on each training part only).
#
#   scripts/table1.sh [path/to/sparsefs]
#
# Environment: SPARSEFS_DATA (the shared datasets — scikit-feature's
# benchmark collection as gzip-compressed CSV files, kept outside the
# repository: docs/results.md#datasets; default: a shared/data directory
# found beside the repository), SEEDS (the fold seeds, default "1 2 3 4 5": the paper's folds
# are unknown, so the table gives the mean over several 5-fold partitions and
# their range), OUT (where the JSON reports go, default a temporary
# directory), WORKERS (default: all cores).
#
# Methods not (yet) in the toolkit are left out with a message; their
# columns then show the paper's number only.
#
# LEAKY=1 adds a second table for comparison: each method ranks the
# features once on ALL the samples (sparsefs select), and that fixed subset
# is then cross-validated (sparsefs eval -features) — the leak many papers
# of the time committed, here built from two commands outside the evaluation
# (whose own protocol cannot leak).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=go1.27.3 # the toolchain of build.sh
BIN=${1:-bin/sparsefs}
[ -x "$BIN" ] || go build -trimpath -o "$BIN" ./cmd/sparsefs
DATA=${SPARSEFS_DATA:-}
if [ -z "$DATA" ]; then
	for d in ../shared/data ../../shared/data /work/shared/data; do
		[ -d "$d" ] && DATA=$d && break
	done
fi
[ -n "$DATA" ] || { echo "table1: set SPARSEFS_DATA to the shared datasets" >&2; exit 1; }
SEEDS=${SEEDS:-1 2 3 4 5}
OUT=${OUT:-$(mktemp -d)}
WORKERS=${WORKERS:-$(nproc)}
mkdir -p "$OUT"

want="relieff fstat ttest infogain mrmr rfs"
have=$("$BIN" methods | /usr/bin/python3 -c 'import json,sys; print(" ".join(m["name"] for m in json.load(sys.stdin)["methods"]))')
methods=""
for m in $want; do
	if [[ " $have " == *" $m "* ]]; then
		methods="${methods:+$methods,}$m"
	else
		echo "table1: method $m is not available in $BIN; its column shows the paper's number only" >&2
	fi
done
[ -n "$methods" ] || { echo "table1: none of the methods is available" >&2; exit 1; }
# mRMR's greedy search only needs to reach the largest K: its first 80
# choices are the same whatever its depth k (0 = all n features, far slower).
params=()
[[ ",$methods," == *",mrmr,"* ]] && params+=(-param mrmr.k=80)

for ds in ALLAML GLIOMA Prostate_GE; do
	for seed in $SEEDS; do
		echo "table1: $ds, seed $seed ($methods)" >&2
		"$BIN" eval -data "$DATA/$ds.csv.gz" -methods "$methods" ${params[@]+"${params[@]}"} -k 20,80 \
			-classifier svm -C 1 -cv 5 -seed "$seed" -workers "$WORKERS" >"$OUT/$ds-seed$seed.json"
	done
done
if [ "${LEAKY:-}" = 1 ]; then
	for ds in ALLAML GLIOMA Prostate_GE; do
		for m in ${methods//,/ }; do
			echo "table1: $ds, $m ranked on all samples (leaky comparison)" >&2
			extra=()
			[ "$m" = mrmr ] && extra=(-param k=80)
			"$BIN" select -data "$DATA/$ds.csv.gz" -method "$m" ${extra[@]+"${extra[@]}"} -k 80 >"$OUT/select-$ds-$m.json"
			for k in 20 80; do
				feats=$(/usr/bin/python3 -c 'import json,sys; print(",".join(map(str, json.load(open(sys.argv[1]))["selected"][:int(sys.argv[2])])))' "$OUT/select-$ds-$m.json" "$k")
				for seed in $SEEDS; do
					"$BIN" eval -data "$DATA/$ds.csv.gz" -features "$feats" -k "$k" -classifier svm -C 1 -cv 5 \
						-seed "$seed" -workers "$WORKERS" >"$OUT/leaky-$ds-$m-k$k-seed$seed.json"
				done
			done
		done
	done
fi
/usr/bin/python3 scripts/table1.py "$OUT"/*-seed*.json
echo "table1: reports in $OUT" >&2
