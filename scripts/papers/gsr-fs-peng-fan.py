#!/usr/bin/python3
"""Tables of scripts/papers/gsr-fs-peng-fan.sh from its JSON reports.

    gsr-fs-peng-fan.py fig2 fig2-a*.json          Fig. 2: RMSE by loss and outliers
    gsr-fs-peng-fan.py table2 table2-*.json       Table 2 (top 50) and Fig. 3 (top 10…100)
    gsr-fs-peng-fan.py table3 machine.txt table3-*.json   Table 3: seconds per fit

Markdown on standard output; with FIGDIR set, table2 also writes Fig. 3 as
one SVG per dataset there.
"""
import collections
import json
import os
import re
import sys

LOSS = {2: "least squares (r = 2)", 1: "ℓ2,1 (r = 1)", 0.5: "ℓ2,0.5 (r = 0.5)"}
ORDER = ["relieff", "mrmr", "mtfs", "rfs", "erfs", "rk1u", "gsr"]
NAMES = {"relieff": "ReliefF", "mrmr": "mRMR", "mtfs": "MTFS", "rfs": "RFS",
         "erfs": "E-RFS (p=0.5)", "rk1u": "RK1U (p=0.5)"}
# The paper's order of its datasets, by the ones standing for them.
DATASETS = ["Isolet", "USPS", "warpAR10P", "ORL", "warpPIE10P", "USPS49"]


def load(path):
    with open(path) as f:
        return json.load(f)


def dataset_of(path):
    """The dataset of a report named table2-PRESET-DATASET.json."""
    return os.path.basename(path)[:-len(".json")].rsplit("-", 1)[1]


def fig2(paths):
    rows = []
    for path in sorted(paths):
        rep = load(path)
        a = re.search(r"-a([0-9.]+)\.json$", path).group(1)
        cells, found = {}, {}
        for res in rep["results"]:
            r = res["params"]["r"]
            cells[r] = res["rmse"]
            # The informative features are the first 2·d1 = 200 (X1, X2).
            n = [sum(1 for f in u["fits"][0]["ranking"][:200] if f < 200) for u in res["units"]]
            found[r] = (min(n), sum(n) / len(n), max(n))
        rows.append((float(a), cells, found))
    print("| outliers a | " + " | ".join(LOSS[r] for r in (2, 1, 0.5)) + " |")
    print("|---|" + "---|" * 3)
    for a, cells, _ in sorted(rows):
        out = []
        for r in (2, 1, 0.5):
            c = cells.get(r)
            out.append("—" if c is None else f"{c['mean'][0]:.3f} ± {c['std'][0]:.3f}")
        print(f"| {a:g} | " + " | ".join(out) + " |")
    print("\nInformative features (X1, X2) among the top 200, over the 10 training parts (min / mean / max):\n")
    print("| outliers a | " + " | ".join(LOSS[r] for r in (2, 1, 0.5)) + " |")
    print("|---|" + "---|" * 3)
    for a, _, found in sorted(rows):
        out = ["—" if r not in found else "%d / %.1f / %d" % found[r] for r in (2, 1, 0.5)]
        print(f"| {a:g} | " + " | ".join(out) + " |")


def label(res):
    m = res["method"]
    if m == "gsr":
        return f"GSR-FS (p={res['params']['p']:g})"
    return NAMES.get(m, m)


def sort_key(res):
    m = res["method"]
    return (ORDER.index(m) if m in ORDER else len(ORDER), -res["params"].get("p", 0))


def tuned_summary(res):
    """The values chosen by the inner cross-validation, with their counts."""
    counts = collections.defaultdict(collections.Counter)
    for u in res.get("units", []):
        t = u.get("tuning")
        if t:
            for k, v in t["chosen"].items():
                counts[k][v] += 1
    return "; ".join(
        f"{k}: " + ", ".join(f"{v:g}×{n}" for v, n in sorted(c.items())) for k, c in sorted(counts.items()))


def table2(paths):
    reps = sorted(((dataset_of(p), load(p)) for p in paths), key=lambda dr: DATASETS.index(dr[0])
                  if dr[0] in DATASETS else len(DATASETS))
    first = reps[0][1]
    ks = first["k"]
    i50 = ks.index(50)
    variants = sorted(first["results"], key=sort_key)
    labels = [label(r) for r in variants]
    print("Top 50 features: mean ± std of the test accuracy (%) over the splits.\n")
    print("| dataset | splits | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for ds, rep in reps:
        by = {label(r): r for r in rep["results"]}
        cells = []
        best = max(by[l]["accuracy"][0]["mean"][i50] for l in labels if l in by)
        for l in labels:
            r = by.get(l)
            if r is None:
                cells.append("—")
                continue
            m, s = r["accuracy"][0]["mean"][i50], r["accuracy"][0]["std"][i50]
            c = f"{100 * m:.2f} ± {100 * s:.2f}"
            cells.append(f"**{c}**" if m == best else c)
        print(f"| {ds} | {len(rep['splits'])} | " + " | ".join(cells) + " |")
    paired(reps, i50)
    print("\nFig. 3: mean test accuracy (%) against the number of features.\n")
    for ds, rep in reps:
        print(f"{ds}:\n")
        print("| method | " + " | ".join(str(k) for k in rep["k"]) + " |")
        print("|---|" + "---|" * len(rep["k"]))
        for r in sorted(rep["results"], key=sort_key):
            print(f"| {label(r)} | " + " | ".join(f"{100 * a:.1f}" for a in r["accuracy"][0]["mean"]) + " |")
        print()
        tuned = [(label(r), tuned_summary(r)) for r in sorted(rep["results"], key=sort_key)]
        tuned = [(l, t) for l, t in tuned if t]
        if tuned:
            print("Chosen by the inner cross-validation (value×splits): " +
                  " — ".join(f"{l}: {t}" for l, t in tuned) + "\n")
        if os.environ.get("FIGDIR"):
            svg(os.path.join(os.environ["FIGDIR"], f"gsr-fs-peng-fan-fig3-{ds}.svg"), ds, rep)


def per_split(res, i):
    """Test accuracy at K index i, by split."""
    return {u["split"]: u["accuracy"][0][i] for u in res["units"]}


def paired(reps, i):
    """GSR-FS (p = 0.5) against the other sparse models, split by split."""
    others = ["MTFS", "RFS", "E-RFS (p=0.5)", "RK1U (p=0.5)"]
    print("\nGSR-FS (p=0.5) minus each other sparse model at the top 50, paired over the splits: "
          "mean difference in points ± its standard error [splits better / equal / worse]:\n")
    print("| dataset | " + " | ".join(others) + " |")
    print("|---|" + "---|" * len(others))
    for ds, rep in reps:
        by = {label(r): r for r in rep["results"]}
        g = per_split(by["GSR-FS (p=0.5)"], i)
        cells = []
        for o in others:
            x = per_split(by[o], i)
            d = [100 * (g[k] - x[k]) for k in sorted(g)]
            n = len(d)
            m = sum(d) / n
            m = 0.0 if abs(m) < 5e-3 else m
            se = (sum((v - m) ** 2 for v in d) / (n - 1) / n) ** 0.5 if n > 1 else float("nan")
            w = sum(v > 1e-9 for v in d), sum(abs(v) <= 1e-9 for v in d), sum(v < -1e-9 for v in d)
            cells.append(f"{m:+.2f} ± {se:.2f} [{w[0]}/{w[1]}/{w[2]}]")
        print(f"| {ds} | " + " | ".join(cells) + " |")


COLOURS = ["#888888", "#bcbd22", "#8c564b", "#e377c2", "#9467bd", "#17becf",
           "#d62728", "#ff7f0e", "#2ca02c", "#1f77b4"]


def svg(path, ds, rep):
    """A line plot of accuracy against K, one line per method."""
    ks = rep["k"]
    res = sorted(rep["results"], key=sort_key)
    accs = [[100 * a for a in r["accuracy"][0]["mean"]] for r in res]
    lo = min(min(a) for a in accs)
    hi = max(max(a) for a in accs)
    lo, hi = 5 * int(lo // 5), 5 * int(-(-hi // 5))
    w, h, x0, y0, pw, ph = 560, 300, 50, 20, 330, 240

    def xy(k, a):
        x = x0 + pw * (k - ks[0]) / (ks[-1] - ks[0])
        y = y0 + ph * (1 - (a - lo) / (hi - lo))
        return f"{x:.1f},{y:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 20}" font-family="sans-serif" font-size="11">',
           f'<text x="{x0}" y="12">{ds}: mean test accuracy (%) against the number of features</text>',
           f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#000"/>']
    for k in ks:
        x = x0 + pw * (k - ks[0]) / (ks[-1] - ks[0])
        out.append(f'<text x="{x:.1f}" y="{y0 + ph + 14}" text-anchor="middle">{k}</text>')
    for t in range(lo, hi + 1, 5):
        y = y0 + ph * (1 - (t - lo) / (hi - lo))
        out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{t}</text>')
        out.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
    for i, (r, a) in enumerate(zip(res, accs)):
        c = COLOURS[i % len(COLOURS)]
        pts = " ".join(xy(k, v) for k, v in zip(ks, a))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.5"/>')
        ly = y0 + 10 + 16 * i
        out.append(f'<line x1="{x0 + pw + 12}" x2="{x0 + pw + 32}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{x0 + pw + 36}" y="{ly + 4}">{label(r)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def table3(machine, paths):
    print(open(machine).read().strip().replace("\n", "; ") + "\n")
    cells = collections.defaultdict(dict)
    cols = []
    for p in sorted(paths):
        if os.path.getsize(p) == 0:
            continue  # a fit still running
        rep = load(p)
        base = os.path.basename(p)[len("table3-"):-len(".json")]
        ds, lab = base.split("-", 1)
        cells[ds][lab] = rep
        if lab not in cols:
            cols.append(lab)
    order = ["relieff", "mrmr", "rfs", "erfs-p0.5", "rk1u-p0.5", "gsr-p1", "gsr-p0.75", "gsr-p0.5", "gsr-p0.25"]
    cols = [c for c in order if c in cols] + [c for c in cols if c not in order]
    print("Seconds: the fit's wall clock (the report's) / the command's processor time "
          "(reading the file included); iterations in brackets:\n")
    print("| dataset | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for ds in sorted(cells, key=lambda d: DATASETS.index(d) if d in DATASETS else len(DATASETS)):
        row = []
        for c in cols:
            r = cells[ds].get(c)
            if r is None:
                row.append("—")
                continue
            cell = f"{r['seconds']:.2f}"
            cpu = os.path.join(os.path.dirname(paths[0]), f"table3-{ds}-{c}.cpu")
            if os.path.exists(cpu):
                user_sys = open(cpu).read().strip().splitlines()[-1]
                cell += f" / {sum(float(x) for x in user_sys.split('+')):.2f}"
            if r.get("iterations") and r.get("stop") != "closed_form":
                stop = "" if r.get("stop") == "converged" else ", " + r["stop"].replace("_", " ")
                cell += f" ({r['iterations']}{stop})"
            row.append(cell)
        print(f"| {ds} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "fig2":
        fig2(args)
    elif mode == "table2":
        table2(args)
    elif mode == "table3":
        table3(args[0], args[1:])
    else:
        sys.exit(__doc__)
