#!/usr/bin/env python3
"""The iteration of numpy_rfs.py with its smoothing as a parameter.

numpy_rfs.py is the numpy peer of the IRLS benchmark, kept in bench/ beside
the benchmark datasets' directory (outside the repository; found from
$SPARSEFS_DATA or a shared/data beside the repository; see
docs/results.md#numpy-peer and docs/results.md#datasets).

numpy_rfs.py computes the weights from sqrt(||v||^2 + 1e-16): a floor of
1e-8 on every row norm, which keeps thousands of rows of W near 1e-8 instead
of letting them reach zero and so raises its reported objective (by
2.8e-6 relative on GLIOMA). This script reads the data with numpy_rfs.py's
own loader and runs the same loop (same start, updates, stopping rule) with
the constant as an argument, so that scripts/bench_irls.sh can show the
objective numpy's algorithm reaches without the floor. It is not timed.

  /usr/bin/python3 rfs_eps.py DATA.csv[.gz] [eps] [gamma]

Prints one JSON line: iterations, objective.
"""
import json
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
for d in (os.environ.get("SPARSEFS_DATA", ""), os.path.join(here, "..", "..", "shared", "data"), "/work/shared/data"):
    bench = os.path.join(d, "..", "bench")
    if d and os.path.exists(os.path.join(bench, "numpy_rfs.py")):
        sys.path.insert(0, bench)
        break
from numpy_rfs import load  # noqa: E402


def rfs(Z, Y, gamma, eps, tol=1e-6, max_iter=1000):
    m, n = Z.shape
    inv1, inv2 = np.ones(m), np.ones(n)  # 1/d of numpy_rfs.py: 2·sqrt(||v||² + eps)
    prev = np.inf
    for it in range(1, max_iter + 1):
        if m < n:
            A = Z * inv2
            W = A.T @ np.linalg.solve(A @ Z.T + gamma * np.diag(inv1), Y)
        else:
            W = np.linalg.solve(Z.T @ (Z / inv1[:, None]) + gamma * np.diag(1 / inv2), Z.T @ (Y / inv1[:, None]))
        R = Z @ W - Y
        rr, rw = np.sqrt((R * R).sum(1)), np.sqrt((W * W).sum(1))
        obj = rr.sum() + gamma * rw.sum()
        if abs(prev - obj) <= tol * obj:
            return it, obj
        prev = obj
        inv1, inv2 = 2 * np.sqrt(rr ** 2 + eps), 2 * np.sqrt(rw ** 2 + eps)
    return max_iter, obj


if __name__ == "__main__":
    Z, Y = load(sys.argv[1])
    eps = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-24
    gamma = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    it, obj = rfs(Z, Y, gamma, eps)
    print(json.dumps({"iterations": it, "objective": obj}))
