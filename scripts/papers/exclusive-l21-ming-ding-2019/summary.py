#!/usr/bin/env python3
"""Figures and tables of exclusive-l21-ming-ding-2019 from sparsefs reports.

  python3 summary.py fig1 FIGDIR SELECT.json ...
  python3 summary.py fig2 FIGDIR EVAL.json ...
  python3 summary.py perclass VOTE.json ... [EVAL.json ...]
  python3 summary.py alpha ALPHA.json ...

fig1: reports of `sparsefs select -method exl21` named
select-DATASET-SOLVER.json; draws the objective J(W) of every iteration
(the report's "trace") per dataset, one curve per solver, with the certified
lower bound on the optimum (the duality gap's dual value of the cd run)
as a dashed line, into FIGDIR/exl21-fig1.svg, and prints a Markdown table.

fig2: reports of `sparsefs eval` named eval-DATASET-seedS.json; prints, per
dataset, the 5-fold accuracy (%) for every K and method (mean over the
seeds; with several seeds the range of the per-seed values follows in
brackets), then the paper's claims checked on these numbers (with the
nonzero rows of W, mean over the folds and seeds), and draws
FIGDIR/exl21-fig2.svg (one panel a dataset, accuracy against K).

perclass: reports of `sparsefs eval -preset
exclusive-l21-ming-ding-2019-vote` named vote-DATASET-seedS.json (classifiers
svm and svm-vote); prints, per dataset and method, the accuracy (%) of one
SVM on one ranking and of the per-class vote for every K, and the distinct
features the vote uses (the union of the c per-class top K, mean over the
folds, from the fits' per_class). With the Fig. 2 reports of the same seed
(eval-DATASET-seedS.json), it checks that the one-SVM accuracy is the Fig.
2 report's (the same folds and fits) and prints every method under the
per-class protocol side by side (a filter ranks the features once for all
classes, so its c SVMs are one and the same and the vote is the one SVM's
answer: its Fig. 2 accuracy).

alpha: reports of the α sweep (exl21 alone, several α), named
alpha-DATASET.json; prints the accuracy for every K and α beside the
support (nonzero rows of W, mean over the folds).

Plain Python 3 (no plotting library): the SVG is written by hand.
"""
import json
import math
import os
import re
import sys
from collections import defaultdict

METHODS = ["fstat", "relieff", "mrmr", "mtfs", "elasso", "exl21"]
TITLES = {"fstat": "F-statistic", "relieff": "ReliefF", "mrmr": "mRMR", "mtfs": "ℓ2,1 (mtfs)",
          "elasso": "eLASSO", "exl21": "exclusive ℓ2,1"}
COLOURS = {"fstat": "#1f77b4", "relieff": "#ff7f0e", "mrmr": "#2ca02c", "mtfs": "#9467bd",
           "elasso": "#8c564b", "exl21": "#d62728", "alm": "#d62728", "cd": "#1f77b4", "fista": "#2ca02c"}
SPARSE = {"mtfs", "elasso", "exl21"}
FILTERS = {"fstat", "relieff", "mrmr"}

# The paper's datasets and the shared dataset standing in for each (the
# same as scripts/papers/exclusive-l21-ming-ding-2019.sh).
STANDS_IN = {"USPS": "MNIST", "Yale": "Yale", "ORL": "YaleB", "warpPIE10P": "PIE", "Isolet": "ISOLET",
             "lymphoma": "Carcinomas", "lung_discrete": "Lung", "GLIOMA": "Glioma", "TOX_171": "TOX",
             "nci9": "Tumor-14", "RELATHE": "CNAE-9", "PCMAC": "20-Newsgroups"}


# ---- SVG ------------------------------------------------------------------

def nice_ticks(lo, hi, n=5):
    """Round tick marks covering [lo, hi], and the range they span."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first, last = math.floor(lo / step), math.ceil(hi / step)
    return [round(i * step, 10) for i in range(first, last + 1)], first * step, last * step


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(out, x0, y0, w, h, title, series, xlabel, ylabel, hlines=()):
    """series: list of (label, colour, xs, ys, dashed)."""
    xs_all = [x for s in series for x in s[2]]
    ys_all = [y for s in series for y in s[3]] + [v for v, _ in hlines]
    if not xs_all:
        return
    xt, xlo, xhi = nice_ticks(min(xs_all), max(xs_all))
    yt, ylo, yhi = nice_ticks(min(ys_all), max(ys_all))
    L, R, T, B = 52, 8, 22, 34
    pw, ph = w - L - R, h - T - B

    def px(x):
        return x0 + L + (x - xlo) / (xhi - xlo) * pw

    def py(y):
        return y0 + T + (1 - (y - ylo) / (yhi - ylo)) * ph

    out.append(f'<text x="{x0 + L + pw / 2:.1f}" y="{y0 + 15}" text-anchor="middle" font-weight="bold">{esc(title)}</text>')
    out.append(f'<rect x="{x0 + L}" y="{y0 + T}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
    for t in xt:
        out.append(f'<line x1="{px(t):.1f}" y1="{y0 + T + ph}" x2="{px(t):.1f}" y2="{y0 + T + ph + 4}" stroke="#888"/>')
        out.append(f'<text x="{px(t):.1f}" y="{y0 + T + ph + 15}" text-anchor="middle">{t:g}</text>')
    for t in yt:
        out.append(f'<line x1="{x0 + L - 4}" y1="{py(t):.1f}" x2="{x0 + L + pw}" y2="{py(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 + L - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{x0 + L + pw / 2:.1f}" y="{y0 + h - 4}" text-anchor="middle">{esc(xlabel)}</text>')
    out.append(f'<text transform="translate({x0 + 12},{y0 + T + ph / 2:.1f}) rotate(-90)" text-anchor="middle">{esc(ylabel)}</text>')
    for v, colour in hlines:
        out.append(f'<line x1="{x0 + L}" y1="{py(v):.1f}" x2="{x0 + L + pw}" y2="{py(v):.1f}" stroke="{colour}" stroke-dasharray="4 3"/>')
    for _, colour, xs, ys, dashed in series:
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
        dash = ' stroke-dasharray="5 3"' if dashed else ""
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.5"{dash}/>')
        if len(xs) <= 20:
            for x, y in zip(xs, ys):
                out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2" fill="{colour}"/>')


def legend(out, x, y, items, dashed=()):
    """items: (label, colour); labels in dashed are drawn with the dashed line of their curves."""
    for label, colour in items:
        dash = ' stroke-dasharray="5 3"' if label in dashed else ""
        out.append(f'<line x1="{x}" y1="{y}" x2="{x + 22}" y2="{y}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{x + 27}" y="{y + 4}">{esc(label)}</text>')
        x += 27 + 7 * len(label) + 24


def write_svg(path, width, height, body):
    with open(path, "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n')
        f.write("\n".join(body))
        f.write("\n</svg>\n")


# ---- Fig. 1 ---------------------------------------------------------------

def fig1(figdir, paths):
    runs = defaultdict(dict)  # dataset -> solver -> report
    for p in paths:
        m = re.match(r"select-(.+)-([a-z]+)\.json$", os.path.basename(p))
        if not m:
            continue
        with open(p) as f:
            runs[m.group(1)][m.group(2)] = json.load(f)
    names = sorted(runs)
    print("| dataset | solver | iterations | stop | final J | J at iteration 100 | J at 150 | iterations to within 1% of the final J | relative distance from the certified lower bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    body = []
    pw, ph = 330, 250
    for i, name in enumerate(names):
        series, hl = [], []
        lower = None
        cd = runs[name].get("cd")
        if cd and cd.get("certificate"):
            lower = cd["certificate"]["dual"]
            hl.append((lower, "#555"))
        for solver in ("alm", "cd", "fista"):
            r = runs[name].get(solver)
            if not r:
                continue
            t = r["trace"]
            series.append((solver, COLOURS[solver], list(range(1, len(t) + 1)), t, False))
            at = lambda k: f"{t[k - 1]:.6g}" if len(t) >= k else "—"
            dist = f"{(r['objective'] - lower) / lower:.1e}" if lower else "—"
            near = next(i + 1 for i, v in enumerate(t) if v - t[-1] <= 0.01 * abs(t[-1]))
            print(f"| {name} | {solver} | {r['iterations']} | {r['stop']} | {r['objective']:.6g} | {at(100)} | {at(150)} | {near} | {dist} |")
        ds = runs[name][next(iter(runs[name]))]["dataset"]
        panel(body, (i % 4) * pw, 0, pw, ph, f"{name} ({ds['samples']} × {ds['features']}, {len(ds['classes'])} classes)",
              series, "iteration", "objective J(W)", hl)
    legend(body, 60, ph + 14, [("alm (Algorithm 2 of the paper)", COLOURS["alm"]), ("cd (sparsefs default; an iteration is a sweep)", COLOURS["cd"]),
                               ("certified lower bound on min J", "#555")])
    write_svg(os.path.join(figdir, "exl21-fig1.svg"), 4 * pw, ph + 26, body)


# ---- Fig. 2 ---------------------------------------------------------------

def fig2(figdir, paths):
    acc = defaultdict(list)  # (dataset, method) -> [per-seed list over K]
    ks, shape, order = {}, {}, []
    nonzero = defaultdict(list)  # (dataset, method) -> [per-seed mean nonzero rows of W over the folds]
    for p in paths:
        m = re.match(r"eval-(.+)-seed(\d+)\.json$", os.path.basename(p))
        if not m:
            continue
        if os.path.getsize(p) == 0:
            print(f"summary: {p} is empty (a run not finished), left out", file=sys.stderr)
            continue
        with open(p) as f:
            r = json.load(f)
        name = m.group(1)
        if name not in ks:
            order.append(name)
        ks[name] = r["k"]
        shape[name] = (r["dataset"]["samples"], r["dataset"]["features"], len(r["dataset"]["classes"]))
        for res in r["results"]:
            acc[(name, res["method"])].append([100 * v for v in res["accuracy"][0]["mean"]])
            if res.get("sparsity"):
                nonzero[(name, res["method"])].append(res["sparsity"]["mean"][0])
    order.sort(key=lambda n: list(STANDS_IN).index(n) if n in STANDS_IN else 99)
    mean = {key: [sum(v) / len(v) for v in zip(*runs)] for key, runs in acc.items()}
    support = {key: sum(v) / len(v) for key, v in nonzero.items()}  # mean over the folds and seeds
    for name in order:
        n, d, c = shape[name]
        nseeds = len(acc[(name, METHODS[-1])]) if (name, METHODS[-1]) in acc else 0
        print(f"\n**{name}** ({n} × {d}, {c} classes; stands in for the paper's {STANDS_IN.get(name, '?')}; "
              f"{nseeds} fold seed(s))\n")
        print("| K | " + " | ".join(TITLES[m] for m in METHODS) + " |")
        print("|---|" + "---|" * len(METHODS))
        for i, k in enumerate(ks[name]):
            vals = [mean[(name, m)][i] if (name, m) in mean else None for m in METHODS]
            best = max(v for v in vals if v is not None)
            cells = []
            for m, v in zip(METHODS, vals):
                if v is None:
                    cells.append("—")
                    continue
                s = f"{v:.1f}"
                runs = acc[(name, m)]
                if len(runs) > 1:
                    s += f" [{min(r[i] for r in runs):.1f}–{max(r[i] for r in runs):.1f}]"
                cells.append(f"**{s}**" if abs(v - best) < 1e-9 else s)
            print(f"| {k} | " + " | ".join(cells) + " |")
    claims(order, ks, mean, support, shape)
    body = []
    pw, ph, cols = 300, 220, 4
    for i, name in enumerate(order):
        series = [(TITLES[m], COLOURS[m], ks[name], mean[(name, m)], m in FILTERS) for m in METHODS if (name, m) in mean]
        panel(body, (i % cols) * pw, (i // cols) * ph, pw, ph, f"{name} (≈ {STANDS_IN.get(name, '?')})", series,
              "number of features", "accuracy (%)")
    rows = (len(order) + cols - 1) // cols
    legend(body, 40, rows * ph + 14, [(TITLES[m], COLOURS[m]) for m in METHODS], {TITLES[m] for m in FILTERS})
    write_svg(os.path.join(figdir, "exl21-fig2.svg"), cols * pw, rows * ph + 26, body)


def claims(order, ks, mean, support, shape):
    """The paper's §6.3 statements, counted on these numbers."""
    print("\nThe paper's claims (§6.3) on these numbers (accuracy averaged over K = 10…80 unless said):\n")
    avg = {}
    for name in order:
        for m in METHODS:
            if (name, m) in mean:
                avg[(name, m)] = sum(mean[(name, m)]) / len(mean[(name, m)])
    print("| dataset | " + " | ".join(TITLES[m] for m in METHODS) + " | best | exl21 − best other at K = 10, 20 | nonzero rows of W: mtfs, elasso, exl21 |")
    print("|---|" + "---|" * (len(METHODS) + 3))
    wins = 0
    sparse_beats = 0
    mrmr_best_filter = 0
    for name in order:
        vals = {m: avg[(name, m)] for m in METHODS if (name, m) in avg}
        top = max(vals.values())
        best = " = ".join(TITLES[m] for m in METHODS if m in vals and vals[m] >= top - 0.05)
        wins += vals.get("exl21", -1) >= top - 0.05
        if max(vals[m] for m in SPARSE if m in vals) > max(vals[m] for m in FILTERS if m in vals):
            sparse_beats += 1
        if max((m for m in FILTERS if m in vals), key=vals.get) == "mrmr":
            mrmr_best_filter += 1
        small = []
        for i, k in enumerate(ks[name]):
            if k in (10, 20) and (name, "exl21") in mean:
                other = max(mean[(name, m)][i] for m in METHODS if m != "exl21" and (name, m) in mean)
                small.append(f"{mean[(name, 'exl21')][i] - other:+.1f}")
        print(f"| {name} | " + " | ".join(f"{vals[m]:.1f}" if m in vals else "—" for m in METHODS)
              + f" | {best} | {', '.join(small)} | "
              + ", ".join(f"{support[(name, m)]:.0f}" if (name, m) in support else "—" for m in ("mtfs", "elasso", "exl21"))
              + f" of {shape[name][1]} |")
    n = len(order)
    print(f"\nexclusive ℓ2,1 has the best average (alone or tied within 0.05) on {wins} of {n} datasets; the best sparse method beats the best "
          f"filter on {sparse_beats} of {n}; mRMR is the best filter on {mrmr_best_filter} of {n}.")


def perclass(paths):
    vote_reports, fig2 = {}, {}  # dataset -> report
    for p in paths:
        m = re.match(r"(vote|eval)-(.+)-seed\d+\.json$", os.path.basename(p))
        if not m or os.path.getsize(p) == 0:
            continue
        with open(p) as f:
            (vote_reports if m.group(1) == "vote" else fig2)[m.group(2)] = json.load(f)
    std = {(name, res["method"]): [100 * v for v in res["accuracy"][0]["mean"]]
           for name, r in fig2.items() for res in r["results"]}
    rows = {}  # (dataset, method) -> (one SVM, vote, distinct features) per K
    ks = []
    for name, r in vote_reports.items():
        ks = r["k"]
        q = next(i for i, c in enumerate(r["classifiers"]) if c.startswith("svm-vote"))
        for res in r["results"]:
            one = [100 * v for v in res["accuracy"][0]["mean"]]
            vote = [100 * v for v in res["accuracy"][q]["mean"]]
            used = [sum(len({j for ranking in u["fits"][0]["per_class"] for j in ranking[:k]}) for u in res["units"]) / len(res["units"])
                    for k in ks]
            rows[(name, res["method"])] = (one, vote, used)
            fig = std.get((name, res["method"]))
            if fig is not None and fig != one:
                print(f"WARNING: {name} {res['method']}: the one-SVM accuracy beside the vote differs from the Fig. 2 report's "
                      f"(mean over K {sum(one) / len(one):.2f} against {sum(fig) / len(fig):.2f}): not the same folds or fits",
                      file=sys.stderr)
    print("| dataset | method | protocol | " + " | ".join(f"K = {k}" for k in ks) + " | mean |")
    print("|---|---|---|" + "---|" * (len(ks) + 1))
    for (name, method), (one, vote, used) in rows.items():
        for label, v in (("one SVM, one ranking", one), ("per-class SVMs, vote", vote)):
            print(f"| {name} | {TITLES.get(method, method)} | {label} | " + " | ".join(f"{x:.1f}" for x in v) + f" | {sum(v) / len(v):.1f} |")
        print(f"| {name} | {TITLES.get(method, method)} | distinct features of the vote | " + " | ".join(f"{x:.0f}" for x in used) + " | |")
    if not fig2:
        return
    print("\nEvery method under the per-class protocol (filters: their Fig. 2 accuracy, see above); "
          "mean over K = 10…80, and exclusive ℓ2,1 minus the best other at K = 10, 20:\n")
    print("| dataset | " + " | ".join(TITLES[m] for m in METHODS) + " | best | exl21 − best other at K = 10, 20 |")
    print("|---|" + "---|" * (len(METHODS) + 2))
    for name in vote_reports:
        acc = {}
        for m in METHODS:
            if (name, m) in rows:
                acc[m] = rows[(name, m)][1]
            elif (name, m) in std:
                acc[m] = std[(name, m)]
        avg = {m: sum(v) / len(v) for m, v in acc.items()}
        top = max(avg.values())
        best = " = ".join(TITLES[m] for m in METHODS if m in avg and avg[m] >= top - 0.05)
        small = [f"{acc['exl21'][i] - max(acc[m][i] for m in acc if m != 'exl21'):+.1f}" for i in (0, 1)]
        print(f"| {name} | " + " | ".join(f"{avg[m]:.1f}" if m in avg else "—" for m in METHODS)
              + f" | {best} | {', '.join(small)} |")


def alpha(paths):
    print("| dataset | α | nonzero rows of W | " + " | ".join(f"K = {k}" for k in range(10, 90, 10)) + " | mean |")
    print("|---|---|---|" + "---|" * 9)
    for p in paths:
        name = re.match(r"alpha-(.+)\.json$", os.path.basename(p)).group(1)
        with open(p) as f:
            r = json.load(f)
        for res in r["results"]:
            a = [100 * v for v in res["accuracy"][0]["mean"]]
            print(f"| {name} | {res['params']['alpha']:g} | {res['sparsity']['mean'][0]:.0f} | "
                  + " | ".join(f"{v:.1f}" for v in a) + f" | {sum(a) / len(a):.1f} |")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "alpha":
        alpha(sys.argv[2:])
        sys.exit()
    if len(sys.argv) >= 3 and sys.argv[1] == "perclass":
        perclass(sys.argv[2:])
        sys.exit()
    if len(sys.argv) < 3 or sys.argv[1] not in ("fig1", "fig2"):
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    (fig1 if sys.argv[1] == "fig1" else fig2)(sys.argv[2], sys.argv[3:])
