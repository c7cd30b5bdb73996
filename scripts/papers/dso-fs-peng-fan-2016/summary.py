#!/usr/bin/env python3
"""Format the reports of scripts/papers/dso-fs-peng-fan-2016.sh beside the paper.

  python3 summary.py [-figdir DIR] REPORT.json ...

Reports are named table1-DATASET-seedS[-splitsA-B].json (Table 1 / Fig. 2:
five selectors, p of DSO-FS tuned) and fig1-DATASET-seedS[...].json (Fig. 1:
DSO-FS, one variant per p); a report may be a part (eval -units: some of the
splits), whose splits count as they are. Prints Markdown: Table 1 (top 100 features) with the
paper's values in parentheses, the values of p chosen by the inner
cross-validation, the number of nonzero rows of DSO-FS's W, and the curves
of Fig. 2 and Fig. 1 as tables; with -figdir, also draws those curves as
SVG files there (dso-fs-fig1-DATASET.svg, dso-fs-fig2-DATASET.svg) and links
them as figures/NAME (the document sits beside that directory).

The paper's numbers are Table 1 of the paper (mean ± standard deviation
over 10 splits, %). Its figures are not in the text at hand, so no value is
read off them.
"""
import json
import os
import sys
from collections import defaultdict

METHODS = ["mrmr", "relieff", "l1svm", "rfs", "dso"]
TITLES = {"mrmr": "mRMR", "relieff": "ReliefF", "l1svm": "ℓ1-SVM", "rfs": "RFS", "dso": "DSO-FS"}
# Our stand-in for each of the paper's datasets, in the paper's order.
STANDS_IN = [
    ("ISOLET", "Isolet"),
    ("SEMEION", "USPS"),
    ("LUNG", "lung_discrete"),
    ("CLL-SUB-111", "lymphoma"),
    ("UMIST", "warpPIE10P"),
    ("AR", "warpAR10P"),
]
PAPER = {  # Table 1 of the paper, METHODS order: (mean, std) in %
    "ISOLET": [(90.82, 0.72), (89.13, 0.53), (93.90, 0.53), (93.72, 0.55), (95.23, 0.44)],
    "SEMEION": [(88.18, 1.01), (86.54, 0.89), (90.36, 0.33), (90.45, 1.00), (90.64, 0.93)],
    "LUNG": [(94.88, 1.20), (94.88, 1.42), (95.12, 1.22), (95.37, 1.42), (95.37, 1.42)],
    "CLL-SUB-111": [(76.47, 11.0), (72.94, 9.18), (79.41, 4.15), (75.88, 6.80), (81.18, 6.60)],
    "UMIST": [(96.87, 0.84), (98.17, 0.92), (98.17, 0.80), (98.04, 0.73), (98.39, 1.16)],
    "AR": [(87.31, 5.02), (85.58, 6.15), (87.12, 9.26), (88.85, 6.76), (89.62, 3.74)],
}
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def load(paths):
    """Returns {(experiment, dataset): [report, ...]} (one report per seed)."""
    out = defaultdict(list)
    for p in paths:
        base = os.path.basename(p)
        exp = base.split("-", 1)[0]
        with open(p) as f:
            r = json.load(f)
        name = os.path.basename(r["dataset"]["name"]).split(".")[0]
        out[(exp, name)].append(r)
    return out


def units(r):
    """The (method, unit) pairs of a report, or of a part (eval -units)."""
    if "results" in r:
        return [(res["method"], u) for res in r["results"] for u in res["units"]]
    variants = r["header"]["variants"]
    return [(variants[u["variant"]]["method"], u) for u in r["units"]]


def curves(reports, label):
    """Per variant label: the accuracy per K averaged over the reports' splits
    (every split of every seed weighs the same), its standard deviation over
    those splits, the number of splits, and the K list."""
    acc = defaultdict(list)  # label -> [per-split accuracy list over K]
    ks = None
    for r in reports:
        ks = r["k"] if "k" in r else r["header"]["k"]
        for method, u in units(r):
            acc[label(method, u)].append([100 * a for a in u["accuracy"][0]])
    out = {}
    for lab, rows in acc.items():
        n = len(rows)
        mean = [sum(col) / n for col in zip(*rows)]
        std = [(sum((x - m) ** 2 for x in col) / max(n - 1, 1)) ** 0.5 for col, m in zip(zip(*rows), mean)]
        out[lab] = (mean, std, n)
    return out, ks


def table1(data):
    print("### Table 1: top 100 features\n")
    print("Ours: mean ± standard deviation over the splits (%); the paper's in parentheses.\n")
    print("| paper's dataset (ours) | " + " | ".join(TITLES[m] for m in METHODS) + " |")
    print("|---|" + "---|" * len(METHODS))
    for paper_name, ours in STANDS_IN:
        reps = data.get(("table1", ours))
        cells = []
        c, ks = curves(reps, lambda m, u: m) if reps else ({}, None)
        for j, m in enumerate(METHODS):
            pm, ps = PAPER[paper_name][j]
            if m not in c or 100 not in ks:
                cells.append(f"— ({pm:.2f} ± {ps:.2f})")
                continue
            i = ks.index(100)
            mean, std, _ = c[m]
            cells.append(f"**{mean[i]:.2f} ± {std[i]:.2f}** ({pm:.2f} ± {ps:.2f})")
        n = max((v[2] for v in c.values()), default=0)
        print(f"| {paper_name} ({ours}{f', {n} splits' if n else ', not run'}) | " + " | ".join(cells) + " |")
    print()


def dso_details(data):
    print("### DSO-FS inside Table 1: p chosen, nonzero rows of W\n")
    print("| dataset | p chosen by the inner CV (count over the splits) | nonzero rows of W (mean, min–max) |")
    print("|---|---|---|")
    for _, ours in STANDS_IN:
        reps = data.get(("table1", ours))
        if not reps:
            continue
        chosen = defaultdict(int)
        nz = []
        for r in reps:
            for method, u in units(r):
                if method == "dso":
                    chosen[u["params"]["p"]] += 1
                    nz.append(u["sparsity"][0])
        ps = ", ".join(f"{p:g}: {n}" for p, n in sorted(chosen.items()))
        if nz:
            print(f"| {ours} | {ps} | {sum(nz) / len(nz):.1f} ({min(nz)}–{max(nz)}) |")
    print()


def paired(data):
    """DSO-FS against each other method on the same splits: the mean of the
    per-split accuracy differences at K = 100 and averaged over the K list,
    and on how many splits DSO-FS is ahead / level / behind at K = 100."""
    print("### DSO-FS minus each other method, split by split\n")
    print("Percentage points: at K = 100 (mean over the splits; splits where DSO-FS is ahead/level/behind), "
          "and averaged over K = 10 … 100.\n")
    others = [m for m in METHODS if m != "dso"]
    print("| dataset | " + " | ".join(TITLES[m] for m in others) + " |")
    print("|---|" + "---|" * len(others))
    for _, ours in STANDS_IN:
        reps = data.get(("table1", ours))
        if not reps:
            continue
        acc = defaultdict(dict)  # method -> (seed, split) -> accuracy per K
        ks = None
        for r in reps:
            ks = r["k"] if "k" in r else r["header"]["k"]
            seed = r["request"]["eval"]["seed"]
            for method, u in units(r):
                acc[method][(seed, u["split"])] = [100 * a for a in u["accuracy"][0]]
        if 100 not in ks:
            continue
        i = ks.index(100)
        cells = []
        for m in others:
            keys = sorted(set(acc["dso"]) & set(acc[m]))
            if not keys:
                cells.append("—")
                continue
            d100 = [acc["dso"][k][i] - acc[m][k][i] for k in keys]
            dall = [sum(a - b for a, b in zip(acc["dso"][k], acc[m][k])) / len(ks) for k in keys]
            up = sum(d > 1e-9 for d in d100)
            down = sum(d < -1e-9 for d in d100)
            cells.append(f"{sum(d100) / len(keys):+.2f} ({up}/{len(keys) - up - down}/{down}); "
                         f"{sum(dall) / len(keys):+.2f}")
        print(f"| {ours} | " + " | ".join(cells) + " |")
    print()


def curve_table(title, c, ks, order):
    print(title + "\n")
    print("| K | " + " | ".join(order) + " |")
    print("|---|" + "---|" * len(order))
    for i, k in enumerate(ks):
        print(f"| {k} | " + " | ".join(f"{c[o][0][i]:.1f}" if o in c else "—" for o in order) + " |")
    print()


def svg(path, title, c, ks, order):
    """A small line plot of accuracy (%) against K, one line per label."""
    w, h, left, right, top, bottom = 520, 320, 55, 120, 30, 45
    ys = [y for o in order if o in c for y in c[o][0]]
    lo = max(0.0, 5 * int(min(ys) // 5))
    hi = min(100.0, 5 * int(max(ys) // 5 + 1))
    kx = lambda k: left + (k - ks[0]) / max(ks[-1] - ks[0], 1) * (w - left - right)
    ky = lambda y: top + (hi - y) / max(hi - lo, 1e-9) * (h - top - bottom)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w / 2 - 40}" y="18" font-size="13" text-anchor="middle">{title}</text>',
         f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
         f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
         f'<text x="{(left + w - right) / 2}" y="{h - 8}" text-anchor="middle">number of selected features K</text>',
         f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 {(top + h - bottom) / 2})">accuracy (%)</text>']
    for k in ks:
        s.append(f'<text x="{kx(k):.1f}" y="{h - bottom + 15}" text-anchor="middle">{k}</text>')
    step = 5 if hi - lo <= 40 else 10
    y = lo
    while y <= hi + 1e-9:
        s.append(f'<line x1="{left - 4}" y1="{ky(y):.1f}" x2="{w - right}" y2="{ky(y):.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{left - 7}" y="{ky(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
        y += step
    for j, o in enumerate(order):
        if o not in c:
            continue
        col = COLORS[j % len(COLORS)]
        pts = " ".join(f"{kx(k):.1f},{ky(v):.1f}" for k, v in zip(ks, c[o][0]))
        s.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.6"/>')
        ly = top + 14 * j + 10
        s.append(f'<line x1="{w - right + 10}" y1="{ly - 4}" x2="{w - right + 28}" y2="{ly - 4}" stroke="{col}" stroke-width="2"/>')
        s.append(f'<text x="{w - right + 32}" y="{ly}">{o}</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def main(args):
    figdir = None
    if args[:1] == ["-figdir"]:
        figdir, args = args[1], args[2:]
    data = load(args)
    table1(data)
    dso_details(data)
    paired(data)
    for paper_name, ours in STANDS_IN:
        reps = data.get(("table1", ours))
        if not reps:
            continue
        c, ks = curves(reps, lambda m, u: TITLES[m])
        order = [TITLES[m] for m in METHODS]
        curve_table(f"### Fig. 2 ({paper_name}): {ours}, accuracy (%) against K", c, ks, order)
        if figdir:
            name = f"dso-fs-fig2-{ours}.svg"
            svg(os.path.join(figdir, name), f"{ours} (for {paper_name})", c, ks, order)
            print(f"![Fig. 2 on {ours}](figures/{name})\n")
    for paper_name, ours in STANDS_IN:
        reps = data.get(("fig1", ours))
        if not reps:
            continue
        c, ks = curves(reps, lambda m, u: f"p = {u['params']['p']:g}")
        order = sorted(c, key=lambda s: float(s.split("= ")[1]))
        curve_table(f"### Fig. 1 ({paper_name}): {ours}, DSO-FS, accuracy (%) against K per p", c, ks, order)
        nz = defaultdict(list)
        for r in reps:
            for _, u in units(r):
                nz[f"p = {u['params']['p']:g}"].append(u["sparsity"][0])
        print("Nonzero rows of W (mean over the splits): " +
              ", ".join(f"{o}: {sum(nz[o]) / len(nz[o]):.1f}" for o in order) + f"; {c[order[0]][2]} splits.\n")
        if figdir:
            name = f"dso-fs-fig1-{ours}.svg"
            svg(os.path.join(figdir, name), f"DSO-FS on {ours} (for {paper_name})", c, ks, order)
            print(f"![Fig. 1 on {ours}](figures/{name})\n")


if __name__ == "__main__":
    main(sys.argv[1:])
