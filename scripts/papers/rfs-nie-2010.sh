#!/usr/bin/env bash
# Reproduce the experiments of rfs-nie-2010 (Nie, Huang, Cai & Ding,
# "Efficient and robust feature selection via joint ℓ2,1-norms
# minimization", NIPS 2010, §5): Fig. 1, the 5-fold cross-validated
# accuracy of a linear SVM (C = 1) against the number K = 1…80 of features
# selected by ReliefF, F-statistic, t-test, information gain, mRMR and RFS,
# and Table 1 (K = 20 and 80), which scripts/table1.sh reproduces and this
# script calls. docs/papers/rfs-nie-2010.md shows the results.
#
#   scripts/papers/rfs-nie-2010.sh [path/to/sparsefs]
#
# Fig. 1 runs the page's preset rfs-nie-2010-fig1 on each dataset and fold
# seed; the selection is fitted on each training part only. The paper does
# not say whether its selection saw the test folds; with LEAKY=1 (the
# default) Fig. 1 is also run with the leak (leaky_preset in
# scripts/papers/evalpreset.sh: each method selects once on ALL the
# samples, and only the SVM is cross-validated on its features), and
# Table 1 gets its leaky table (scripts/table1.sh with LEAKY=1).
#
# Environment: SPARSEFS_DATA (the shared datasets, scikit-feature's
# benchmark collection as gzip CSV files; default: a shared/data directory
# beside the repository), DATASETS (default: the paper's ALLAML, GLIOMA and
# Prostate_GE, then lung_discrete, nci9 and arcene standing in for its LUNG,
# Carcinomas and Prostate-MS, which the collection lacks), SEEDS (fold
# seeds, default "1 2 3 4 5": the paper's folds are unknown), OUT (the
# reports, default a temporary directory), WORKERS (default 2), FIGURES
# (where the SVG curves go, default docs/papers/figures), TABLE1 (1: also
# run scripts/table1.sh, the default; 0: skip it), LEAKY (1, the default:
# add the leaky comparison; 0: skip it).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-bin/sparsefs}
DATASETS=${DATASETS:-ALLAML GLIOMA Prostate_GE lung_discrete nci9 arcene}
SEEDS=${SEEDS:-1 2 3 4 5}
# shellcheck source=scripts/papers/evalpreset.sh
. scripts/papers/evalpreset.sh

run_preset rfs-nie-2010-fig1 "$OUT/fig1"
if [ "${LEAKY:-1}" = 1 ]; then
	leaky_preset rfs-nie-2010-fig1 "$OUT/fig1-leaky"
fi
/usr/bin/python3 scripts/papers/curves.py -paper rfs-nie-2010 -figures "$FIGURES" "$OUT"/fig1/*.json \
	$([ "${LEAKY:-1}" = 1 ] && ls "$OUT"/fig1-leaky/*-seed*.json)

if [ "${TABLE1:-1}" = 1 ]; then
	echo "rfs-nie-2010: Table 1 (scripts/table1.sh, with the leaky comparison)" >&2
	mkdir -p "$OUT/table1"
	SPARSEFS_DATA=$data OUT="$OUT/table1" WORKERS=$WORKERS LEAKY=${LEAKY:-1} scripts/table1.sh "$BIN"
fi
echo "rfs-nie-2010: reports in $OUT" >&2
