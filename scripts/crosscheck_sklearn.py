#!/usr/bin/env python3
"""Cross-check the sparsefs CLI against scikit-learn and numpy.

  python3 scripts/crosscheck_sklearn.py bin/sparsefs

For the bundled demo and the shared benchmark datasets, runs
`sparsefs select` with the filters that have an exactly equivalent score in
scikit-learn or its dependency scipy, and compares every feature's score to
1e-9 relative (absolute below 1):
  fstat     sklearn.feature_selection.f_classif
  fisher    SSB/SSW computed here with numpy
  ttest     scipy.stats.ttest_ind(equal_var=False), |t|, the largest
            one-vs-rest value when there are more than two classes
  infogain  sklearn.metrics.mutual_info_score (nats, divided by ln 2) of the
            class and the feature cut into B = 10 equal-frequency bins, the
            bins reproduced here with numpy (bin = floor(r*B/m), r the
            position of the value's first occurrence in sorted order)
and their p-values (to 1e-9 relative, or 1e-300 absolute) and q-values:
  fstat     f_classif's p-values (the F distribution's tail)
  ttest     scipy.stats.ttest_ind(equal_var=False).pvalue, for more than
            two classes the smallest one-vs-rest p-value times the number
            of classes (capped at 1)
  qvalues   the Benjamini-Hochberg step-up adjustment written here with
            numpy (scipy 1.10 has no false_discovery_control)
relieff and mrmr have no equivalent there; they are checked against
independent implementations in core/selection's tests. Needs Debian's
python3-sklearn. Shared datasets that are absent are skipped with a message,
unless SPARSEFS_REQUIRE_DATA is set (as in CI).
"""
import csv
import gzip
import json
import os
import subprocess
import sys
import warnings

import numpy as np
from scipy import stats
from sklearn.feature_selection import f_classif
from sklearn.metrics import mutual_info_score

TOL = 1e-9
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def shared_data():
    # The benchmark datasets (scikit-feature's collection as gzip-compressed
    # CSV files) are kept outside the repository: $SPARSEFS_DATA, or a
    # shared/data directory beside it (docs/results.md#datasets).
    d = os.environ.get("SPARSEFS_DATA")
    if d:
        return d
    p = REPO
    while True:
        cand = os.path.join(p, "shared", "data")
        if os.path.isdir(cand):
            return cand
        parent = os.path.dirname(p)
        if parent == p:
            return None
        p = parent


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
    labels = [r[-1] for r in rows[1:]]
    try:
        classes = sorted(set(labels), key=float)
    except ValueError:
        classes = sorted(set(labels))
    y = np.array([classes.index(v) for v in labels])
    return X, y


def fisher(X, y):
    mu = X.mean(0)
    ssb = np.zeros(X.shape[1])
    ssw = np.zeros(X.shape[1])
    for k in np.unique(y):
        Xk = X[y == k]
        mk = Xk.mean(0)
        ssb += len(Xk) * (mk - mu) ** 2
        ssw += ((Xk - mk) ** 2).sum(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = ssb / ssw
    out[(ssb == 0) & (ssw == 0)] = 0.0
    return out


def welch(X, y):
    """Largest one-vs-rest Welch |t| per feature (docs/methods.md#ttest);
    scipy gives nan for 0/0, written 0 here as docs/methods.md does."""
    present = np.unique(y)
    splits = present[:1] if len(present) == 2 else present
    out = np.zeros(X.shape[1])
    for k in splits:
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = stats.ttest_ind(X[y == k], X[y != k], axis=0, equal_var=False).statistic
        out = np.maximum(out, np.nan_to_num(np.abs(t), nan=0.0, posinf=np.inf))
    return out


def welch_p(X, y):
    """Welch p-values (docs/methods.md#pvalues): two classes, the test's
    p-value; more, the smallest one-vs-rest p-value times the number of
    comparisons, capped at 1. A feature without spread in either group has
    p = 1 for equal means and 0 otherwise (scipy: nan)."""
    present = np.unique(y)
    splits = present[:1] if len(present) == 2 else present
    best = np.full(X.shape[1], np.inf)
    for k in splits:
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = stats.ttest_ind(X[y == k], X[y != k], axis=0, equal_var=False)
        p = np.where(np.isnan(r.pvalue), np.where(np.nan_to_num(np.abs(r.statistic), nan=0.0) == 0, 1.0, 0.0), r.pvalue)
        best = np.minimum(best, p)
    return np.minimum(1.0, len(splits) * best)


def bh(p):
    """Benjamini-Hochberg q-values: sorted p times m/rank, then the running
    minimum from the largest down, capped at 1."""
    order = np.argsort(p, kind="stable")
    m = len(p)
    adj = p[order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(adj[::-1])[::-1]
    q = np.empty(m)
    q[order] = np.minimum(adj, 1.0)
    return q


def infogain(X, y, bins=10):
    m = X.shape[0]
    out = np.empty(X.shape[1])
    for j in range(X.shape[1]):
        v = X[:, j]
        r = np.searchsorted(np.sort(v), v, side="left")
        out[j] = mutual_info_score(y, r * bins // m) / np.log(2)
    return out


def cli(binary, path, method, field="scores"):
    out = subprocess.run([binary, "select", "-data", path, "-method", method],
                         check=True, capture_output=True, text=True).stdout
    return np.array(json.loads(out)[field], dtype=float)


def compare_p(name, got, want):
    """p-values and q-values: relative to the value, with an absolute floor
    of 1e-300 for p-values that underflow in either computation."""
    rel = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    worst = rel.max() if rel.size else 0.0
    status = "ok" if worst <= TOL else "FAIL"
    print(f"  {name:50s} {len(want):6d} features  worst relative difference {worst:.2e}  {status}")
    return worst <= TOL


def compare(name, got, want):
    """Relative difference, measured against max(|want|, 1): scores are
    dimensionless, and one that is zero in exact arithmetic comes out of
    either computation as a rounding residue (1e-32, say)."""
    finite = np.isfinite(want)
    # +Inf travels as the largest double in JSON.
    if not np.all(got[~finite] == np.finfo(float).max):
        print(f"  {name}: infinite scores differ")
        return False
    rel = np.abs(got[finite] - want[finite]) / np.maximum(np.abs(want[finite]), 1.0)
    worst = rel.max() if rel.size else 0.0
    status = "ok" if worst <= TOL else "FAIL"
    print(f"  {name:50s} {len(want):6d} features  worst relative difference {worst:.2e}  {status}")
    return worst <= TOL


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "bin", "sparsefs")
    files = [os.path.join(REPO, "assets", "demo", "breast-cancer-wisconsin.csv")]
    data = shared_data()
    names = ["GLIOMA.csv.gz", "ALLAML.csv.gz", "lymphoma.csv.gz", "TOX_171.csv.gz", "arcene.csv.gz"]
    if data is None:
        if os.environ.get("SPARSEFS_REQUIRE_DATA"):
            raise SystemExit("shared/data not found and SPARSEFS_REQUIRE_DATA is set")
        print("  shared/data not found: checking the demo dataset only")
    else:
        files += [os.path.join(data, n) for n in names]
    ok = True
    for path in files:
        X, y = load(path)
        base = os.path.basename(path)
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Features [...] are constant."
            f_sk, _ = f_classif(X, y)
        # scikit-learn returns nan for 0/0 and inf for x/0; docs/methods.md
        # writes 0/0 as 0.
        f_sk = np.where(np.isnan(f_sk), 0.0, f_sk)
        ok &= compare(base + " fstat vs f_classif", cli(binary, path, "fstat"), f_sk)
        ok &= compare(base + " fisher vs numpy", cli(binary, path, "fisher"), fisher(X, y))
        ok &= compare(base + " ttest vs scipy ttest_ind", cli(binary, path, "ttest"), welch(X, y))
        ok &= compare(base + " infogain vs mutual_info_score", cli(binary, path, "infogain"), infogain(X, y))
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, p_sk = f_classif(X, y)
        defined = ~np.isnan(p_sk)  # constant features: f_classif gives nan, sparsefs 1
        p_f = cli(binary, path, "fstat", "pvalues")
        ok &= compare_p(base + " fstat p-values vs f_classif", p_f[defined], p_sk[defined])
        ok &= compare_p(base + " fstat q-values vs Benjamini-Hochberg", cli(binary, path, "fstat", "qvalues"), bh(p_f))
        p_t = cli(binary, path, "ttest", "pvalues")
        ok &= compare_p(base + " ttest p-values vs scipy ttest_ind", p_t, welch_p(X, y))
        ok &= compare_p(base + " ttest q-values vs Benjamini-Hochberg", cli(binary, path, "ttest", "qvalues"), bh(p_t))
    if not ok:
        raise SystemExit("cross-check failed")


if __name__ == "__main__":
    main()
