#!/usr/bin/env bash
# Reproduce the experiments of exclusive-l21-ming-ding-2019 (D. Ming and
# C. Ding, "Robust flexible feature selection via exclusive L21
# regularization", IJCAI 2019, §6):
#
#   Fig. 1  the objective J(W) of Eq. (14) at every iteration, α = β = 1, on
#           four datasets: `sparsefs select -method exl21` with the paper's
#           ALM (Algorithm 2, solver alm) and with sparsefs's default solver
#           (cd) for reference; the report's "trace" is the objective
#           history. Not an evaluation, so run by `select` directly.
#   Fig. 2  the 5-fold cross-validated accuracy of a linear SVM (C = 1) on
#           the top 10, 20, …, 80 features of F-statistic, ReliefF, mRMR,
#           ℓ2,1 (mtfs), eLASSO and exclusive ℓ2,1 (exl21): `sparsefs eval
#           -preset exclusive-l21-ming-ding-2019` (the page's preset of the
#           same id builds the same request), one dataset and fold seed at a
#           time. The selection is fitted on each training part only.
#
#   scripts/papers/exclusive-l21-ming-ding-2019.sh [path/to/sparsefs]
#
# Environment (defaults are the paper's experiment on the data at hand):
#   SPARSEFS_DATA  the shared datasets (scikit-feature's benchmark collection
#                  as gzip CSV, kept outside the repository; default: a
#                  shared/data directory beside the repository or above it)
#   DATASETS       Fig. 2's datasets, the closest at hand to the paper's
#                  twelve (docs/papers/exclusive-l21-ming-ding-2019.md says
#                  which stands in for which)
#   CONVERGENCE    Fig. 1's datasets (the paper does not name its four)
#   PERCLASS       datasets on which the per-class protocol (below) is run
#                  for the sparse methods (default: the smaller ones; its
#                  cost is c SVMs for each K and fold, and a refit of the
#                  three sparse methods)
#   ALPHA_SETS     datasets of the α sweep (below; default lung_discrete
#                  GLIOMA), ALPHAS its values (default 2,4,8,16)
#   SEEDS          fold seeds of Fig. 2 (default "1": the paper runs one
#                  5-fold partition; more seeds give the spread)
#   ONLY           fig1, fig2, perclass or alpha to run one of them (perclass
#                  compares with the Fig. 2 reports already in OUT, if any)
#   OUT            where the JSON reports go (default: a temporary directory)
#   FIGS           where the SVG figures go (or FIGURES; default docs/papers/figures)
#   WORKERS        units run at once (default 1)
#   PROGRESS       the evaluations' progress on standard error (on, off, auto;
#                  default off)
#
# An evaluation's report already in OUT (eval-*.json, vote-*.json) is kept,
# not run again: a stopped run resumes with the same OUT (a report is
# written as *.part and renamed once complete).
#
# Per-class protocol: the paper selects the top K features of each class
# (largest |W_jk|), trains one SVM a class and takes a majority vote. That
# is the evaluation's classifier svm-vote: `sparsefs eval -preset
# exclusive-l21-ming-ding-2019-vote` evaluates mtfs, eLASSO and exclusive
# ℓ2,1 with one SVM on one ranking (svm) and with the vote (svm-vote), on
# the folds of Fig. 2 (first seed); the summary checks that the one-SVM
# accuracy equals the Fig. 2 report's where that report is in OUT.
#
# α sweep: an investigation, not one of the paper's experiments (the paper
# tunes α and β "to enforce the same level of sparsity" without giving
# them): exclusive ℓ2,1 alone with α = ALPHAS, β = 1, in the same protocol,
# by explicit flags (no preset), to set its accuracy beside its support.
#
# The tables are printed on standard output (Markdown), as the document
# quotes them; progress goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOTOOLCHAIN=go1.27.3 # the toolchain of build.sh
BIN=${1:-bin/sparsefs}
[ -x "$BIN" ] || go build -trimpath -o "$BIN" ./cmd/sparsefs
source scripts/datadir.sh "${SPARSEFS_DATA:-}"
ID=exclusive-l21-ming-ding-2019
DATASETS=${DATASETS:-USPS Yale ORL warpPIE10P Isolet lymphoma lung_discrete GLIOMA TOX_171 nci9 RELATHE PCMAC}
CONVERGENCE=${CONVERGENCE:-GLIOMA TOX_171 Yale Isolet}
PERCLASS=${PERCLASS:-lung_discrete GLIOMA lymphoma nci9 TOX_171 Yale warpPIE10P}
ALPHA_SETS=${ALPHA_SETS:-lung_discrete GLIOMA}
ALPHAS=${ALPHAS:-2,4,8,16}
SEEDS=${SEEDS:-1}
OUT=${OUT:-$(mktemp -d)}
FIGS=${FIGS:-${FIGURES:-docs/papers/figures}}
WORKERS=${WORKERS:-1}
PROGRESS=${PROGRESS:-off}
HELPER=scripts/papers/$ID/summary.py
mkdir -p "$OUT" "$FIGS"
echo "$ID: reports in $OUT" >&2

if [ "${ONLY:-fig1}" = fig1 ]; then
	for ds in $CONVERGENCE; do
		for solver in alm cd; do
			echo "$ID: Fig. 1, $ds, solver $solver" >&2
			"$BIN" select -data "$data/$ds.csv.gz" -method exl21 -param alpha=1 -param beta=1 \
				-param solver=$solver -progress off >"$OUT/select-$ds-$solver.json"
		done
	done
	echo "## Fig. 1"
	/usr/bin/python3 "$HELPER" fig1 "$FIGS" "$OUT"/select-*.json
fi

# evaluate WHAT PRESET DS SEED REPORT runs the preset on dataset DS with
# fold seed SEED into REPORT, unless REPORT is already there (written as
# REPORT.part, renamed once complete).
evaluate() {
	if [ -s "$5" ]; then
		echo "$ID: $1, $3, seed $4: kept $5" >&2
		return
	fi
	echo "$ID: $1, $3, seed $4" >&2
	"$BIN" eval -preset "$2" -data "$data/$3.csv.gz" -seed "$4" -workers "$WORKERS" \
		-progress "$PROGRESS" >"$5.part"
	mv "$5.part" "$5"
}

if [ "${ONLY:-fig2}" = fig2 ]; then
	for ds in $DATASETS; do
		for seed in $SEEDS; do
			evaluate "Fig. 2" "$ID" "$ds" "$seed" "$OUT/eval-$ds-seed$seed.json"
		done
	done
	echo "## Fig. 2"
	/usr/bin/python3 "$HELPER" fig2 "$FIGS" "$OUT"/eval-*.json
fi

if [ "${ONLY:-perclass}" = perclass ]; then
	seed=${SEEDS%% *}
	reports=()
	for ds in $PERCLASS; do
		evaluate "per-class protocol" "$ID-vote" "$ds" "$seed" "$OUT/vote-$ds-seed$seed.json"
		reports+=("$OUT/vote-$ds-seed$seed.json")
		[ -f "$OUT/eval-$ds-seed$seed.json" ] && reports+=("$OUT/eval-$ds-seed$seed.json")
	done
	echo "## Per-class protocol"
	/usr/bin/python3 "$HELPER" perclass "${reports[@]}"
fi

if [ "${ONLY:-alpha}" = alpha ]; then
	for ds in $ALPHA_SETS; do
		echo "$ID: α sweep, $ds" >&2
		"$BIN" eval -data "$data/$ds.csv.gz" -methods exl21 -param alpha="$ALPHAS" -param beta=1 -k 10:80:10 \
			-classifier svm -C 1 -cv 5 -seed "${SEEDS%% *}" -workers "$WORKERS" -progress off >"$OUT/alpha-$ds.json"
	done
	echo "## α sweep"
	/usr/bin/python3 "$HELPER" alpha "$OUT"/alpha-*.json
fi
