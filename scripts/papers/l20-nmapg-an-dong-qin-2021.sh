#!/usr/bin/env bash
# Reproduce the experiments of l20-nmapg-an-dong-qin-2021 (N. T. An,
# P. D. Dong & X. Qin, "Robust feature selection via nonconvex
# sparsity-based methods", J. Nonlinear Var. Anal. 5 (2021) 59–77, §6):
# the accuracy of 1-NN and of a linear SVM (C = 1) in 5-fold
# cross-validation against K = 1…50 for ℓ2,0 (nmAPG),
# RFS, TopK, ReliefF, Fisher, information gain and t-test (Figs. 2 and 3,
# §6.3), with the redundancy rate of the selected features (Fig. 1, §6.2)
# from the same reports; then the sparsity (§6.4, Fig. 4) and convergence
# (§6.5, Fig. 5) experiments of scripts/l20experiments.
# docs/papers/l20-nmapg-an-dong-qin-2021.md shows the results.
#
#   scripts/papers/l20-nmapg-an-dong-qin-2021.sh [path/to/sparsefs]
#
# The accuracy runs are the page's preset PRESET on each dataset and fold
# seed; the selection is fitted on each training part only.
#
# Environment: SPARSEFS_DATA (the shared datasets, scikit-feature's
# benchmark collection as gzip CSV files; default: a shared/data directory
# beside the repository), DATASETS (default: the seven of the paper's nine
# in the collection; its LUNG and GLI-85 are not), SEEDS (fold seeds,
# default 1…10: the paper's 10 runs), PRESET (default
# l20-nmapg-an-dong-qin-2021, K = 1…50; l20-nmapg-an-dong-qin-2021-k5 runs
# every 5th K), OUT (the reports, default a temporary directory), WORKERS
# (default 2), FIGURES (where the SVG curves go, default
# docs/papers/figures), EXPERIMENTS (1: also run scripts/l20experiments,
# writing docs/figures, the default; 0: skip it), LEAKY (1, the default:
# also run the protocol with the leak, on LEAKY_DATASETS, default DATASETS;
# 0: skip it).
#
# The paper does not say whether its selection saw the test folds. LEAKY=1
# runs the leaky reading beside the leak-free one (leaky_preset in
# scripts/papers/evalpreset.sh): each method selects once on ALL the
# samples, and only the classifiers are cross-validated on its features.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-bin/sparsefs}
DATASETS=${DATASETS:-leukemia lymphoma Yale warpPIE10P COIL20 Isolet USPS}
SEEDS=${SEEDS:-1 2 3 4 5 6 7 8 9 10}
PRESET=${PRESET:-l20-nmapg-an-dong-qin-2021}
# shellcheck source=scripts/papers/evalpreset.sh
. scripts/papers/evalpreset.sh

run_preset "$PRESET" "$OUT/accuracy"
if [ "${LEAKY:-1}" = 1 ]; then
	leaky_preset "$PRESET" "$OUT/leaky"
fi
/usr/bin/python3 scripts/papers/curves.py -paper l20-nmapg-an-dong-qin-2021 -figures "$FIGURES" "$OUT"/accuracy/*.json \
	$([ "${LEAKY:-1}" = 1 ] && ls "$OUT"/leaky/*-seed*.json)

if [ "${EXPERIMENTS:-1}" = 1 ]; then
	echo "l20-nmapg: sparsity (§6.4) and convergence (§6.5), scripts/l20experiments" >&2
	nice -n 10 go run ./scripts/l20experiments -data "$data" -out docs/figures
fi
echo "l20-nmapg: reports in $OUT" >&2
