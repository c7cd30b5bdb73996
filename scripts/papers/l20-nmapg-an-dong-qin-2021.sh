#!/usr/bin/env bash
# Reproduce the experiments of l20-nmapg-an-dong-qin-2021 (N. T. An,
# P. D. Dong & X. Qin, "Robust feature selection via nonconvex
# sparsity-based methods", J. Nonlinear Var. Anal. 5 (2021) 59–77, §6):
# the accuracy of 1-NN and of a linear SVM (C = 1) in 5-fold
# cross-validation against K = 1…50 for ℓ2,0 (nmAPG),
# RFS, TopK, ReliefF, Fisher, information gain and t-test (Figs. 2 and 3,
# §6.3), with the redundancy rate of the selected features (Fig. 1, §6.2)
# from the same reports, and the spread of each method over the fold
# seeds; then the sparsity (§6.4, Fig. 4) and convergence
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
reports=("$OUT"/accuracy/*.json)
if [ "${LEAKY:-1}" = 1 ]; then
	mapfile -t -O ${#reports[@]} reports < <(ls "$OUT"/leaky/*-seed*.json)
fi
/usr/bin/python3 scripts/papers/curves.py -paper l20-nmapg-an-dong-qin-2021 -figures "$FIGURES" "${reports[@]}"

# The spread over the fold seeds: each method's mean over K seed by seed
# (RFS: its best γ at each K within the seed), and ℓ2,0 against TopK for
# K > 20 and against the best other method, seed by seed.
/usr/bin/python3 - "${reports[@]}" <<'EOF'
import statistics as st
import sys
sys.path.insert(0, "scripts/papers")
import curves

acc, _, ks_of, seeds = curves.load(sys.argv[1:])


def per_seed(variants, ks):
    """The mean over ks of the best variant at each K, one value a seed."""
    n = min(len(v) for by_k in variants.values() for k, v in by_k.items() if k in ks)
    return [curves.mean([max(by_k[k][j] for by_k in variants.values()) for k in ks]) for j in range(n)]


def spread(v):
    sd = st.stdev(v) if len(v) > 1 else 0.0
    return f"{curves.mean(v):.1f} ± {sd:.1f} ({min(v):.1f} to {max(v):.1f})"


for leak in ("", "leaky"):
    for cls in ("knn", "svm"):
        rows = [(d, acc[(d, c, l)]) for (d, c, l) in sorted(acc) if c == cls and l == leak]
        if not rows:
            continue
        methods = list(acc.get((rows[0][0], cls, ""), rows[0][1]))
        print(f"\nSpread over the seeds, {cls}, {'with the leak' if leak else 'leak-free'}: the mean accuracy over K (%), "
              "mean ± standard deviation over the seeds (lowest to highest); RFS: its best γ at each K within each seed")
        print("\n| dataset | seeds | " + " | ".join(curves.TITLES.get(m, m) for m in methods)
              + " | ℓ2,0 minus the best other | ℓ2,0 minus TopK, K > 20 |")
        print("|---|---|" + "---|" * (len(methods) + 2))
        for ds, by_method in rows:
            ks = ks_of.get(ds) or sorted({k for v in by_method["l20"].values() for k in v})
            s = {m: per_seed(by_method[m], ks) for m in methods}
            n = min(len(v) for v in s.values())
            best_other = [max(s[m][j] for m in methods if m != "l20") for j in range(n)]
            margin = [s["l20"][j] - best_other[j] for j in range(n)]
            big = [k for k in ks if k > 20]
            topk = [a - b for a, b in zip(per_seed(by_method["l20"], big), per_seed(by_method["topk"], big))]
            print(f"| {ds} | {n} | " + " | ".join(spread(s[m][:n]) for m in methods)
                  + f" | {spread(margin)}, ahead on {sum(x > 0 for x in margin)} | {spread(topk)}, ahead on {sum(x > 0 for x in topk)} |")
EOF

if [ "${EXPERIMENTS:-1}" = 1 ]; then
	echo "l20-nmapg: sparsity (§6.4) and convergence (§6.5), scripts/l20experiments" >&2
	nice -n 10 go run ./scripts/l20experiments -data "$data" -out docs/figures
fi
echo "l20-nmapg: reports in $OUT" >&2
