#!/usr/bin/env python3
"""Summarise `sparsefs eval` reports as accuracy-against-K curves.

  python3 scripts/papers/curves.py -paper ID [-figures DIR] REPORT.json ...

Each report is one dataset and one fold seed (as the scripts under
scripts/papers write them). For every dataset and classifier this prints,
per method, the accuracy (%) averaged over the seeds at a few K, its mean
over all K of the report, the number of K at which the method is best, the sum of its falls from
one K to the next ("drops", how unsteady the curve is), and
the mean redundancy rate of the selected features; and draws the curves as
one SVG per dataset and classifier into DIR (when given).

Several variants of one method (a swept parameter, as RFS's γ in
l20-nmapg-an-dong-qin-2021) are shown as one curve, their best value at
each K (what that paper reports: "we vary its regularization … and then
chose the best result"); the table also gives each variant's mean.

-paper rfs-nie-2010 adds the paper's Table 1 values (K = 20 and 80, from
scripts/table1.py) beside ours.

Reports named leaky-DATASET-METHOD[~NAME=VALUE…][-kK]-seedS.json (the
leaky comparison of scripts/papers/l20-nmapg-an-dong-qin-2021.sh: a feature
subset chosen on all samples, then cross-validated) are summarised
separately, under "with the leak".
"""
import re
import json
import os
import sys
from collections import defaultdict

TITLES = {"relieff": "ReliefF", "fstat": "F-statistic", "ttest": "t-test", "infogain": "InfoGain",
          "mrmr": "mRMR", "rfs": "RFS", "l20": "ℓ2,0 (nmAPG)", "topk": "TopK", "fisher": "Fisher"}
COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def variant_label(res, swept):
    """The method's name, with the values of the parameters swept in the report."""
    parts = [f"{p}={res['params'][p]:g}" for p in sorted(swept) if p in res.get("params", {})]
    return res["method"] + (" " + ",".join(parts) if parts else "")


def load(paths):
    """(dataset, classifier, "" or "leaky") -> method -> variant -> K -> [accuracy per seed], and the K lists."""
    acc = defaultdict(lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(list))))
    red = defaultdict(list)  # (dataset, method) -> [mean RED over K, per seed and variant]
    ks, seeds = {}, defaultdict(set)
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        ds = os.path.basename(r["dataset"]["name"]).split(".")[0]
        seeds[ds].add(r["request"]["eval"]["seed"])
        base = os.path.basename(p)
        if base.startswith("leaky-"):
            # One method variant's subset, chosen on all samples.
            tag = re.sub(r"(-k\d+)?-seed\d+\.json$", "", base[len("leaky-" + ds + "-"):])
            method, *params = tag.split("~")
            v = " ".join([method, *params])
            for c, cls in enumerate(r["classifiers"]):
                for i, k in enumerate(r["k"]):
                    acc[(ds, cls.split("(")[0], "leaky")][method][v][k].append(100 * r["results"][0]["accuracy"][c]["mean"][i])
            continue
        ks[ds] = r["k"]
        # The parameters that differ between variants of one method.
        by_method = defaultdict(list)
        for res in r["results"]:
            by_method[res["method"]].append(res.get("params", {}))
        for res in r["results"]:
            ps = by_method[res["method"]]
            swept = {n for n in ps[0] if len({json.dumps(q.get(n)) for q in ps}) > 1}
            v = variant_label(res, swept)
            for c, cls in enumerate(r["classifiers"]):
                name = cls.split("(")[0]
                for i, k in enumerate(r["k"]):
                    a = res["accuracy"][c]["mean"][i]
                    if a is not None:
                        acc[(ds, name, "")][res["method"]][v][k].append(100 * a)
            rr = (res.get("redundancy") or {}).get("mean") or []
            rr = [x for x in rr if x is not None]
            if rr:
                red[(ds, res["method"])].append(sum(rr) / len(rr))
    return acc, red, ks, seeds


def mean(v):
    return sum(v) / len(v)


def curves(variants, ks):
    """The method's curve (its best variant at each K) and each variant's curve."""
    per = {v: [mean(by_k[k]) if by_k.get(k) else None for k in ks] for v, by_k in variants.items()}
    best = []
    for i in range(len(ks)):
        vals = [c[i] for c in per.values() if c[i] is not None]
        best.append(max(vals) if vals else None)
    return best, per


def margins(by_method, own, ks):
    """For each seed, the mean over K of method own's accuracy minus that of
    the best other method (a method's variants: their best at each K)."""
    def per_seed(variants):
        n = min(len(v) for by_k in variants.values() for v in by_k.values())
        return [mean([max(by_k[k][j] for by_k in variants.values()) for k in ks]) for j in range(n)]
    seeds = {m: per_seed(v) for m, v in by_method.items()}
    n = min(len(v) for v in seeds.values())
    return [seeds[own][j] - max(v[j] for m, v in seeds.items() if m != own) for j in range(n)]


def drops(curve):
    """The sum of the curve's falls from one K to the next (points): 0 for a
    curve that never falls as K grows."""
    return sum(max(0.0, a - b) for a, b in zip(curve, curve[1:]))


def svg(path, title, ks, lines, ylabel="accuracy (%)"):
    """A line chart: lines is [(label, [y or None per K])]."""
    w, h, l, r, t, b = 640, 400, 60, 170, 30, 45
    ys = [y for _, c in lines for y in c if y is not None]
    lo, hi = min(ys), max(ys)
    lo, hi = 5 * int(lo // 5), 5 * (int(hi // 5) + 1)
    x0, x1 = min(ks), max(ks)

    def X(k):
        return l + (k - x0) / max(x1 - x0, 1) * (w - l - r)

    def Y(y):
        return t + (hi - y) / (hi - lo) * (h - t - b)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{l}" y="18" font-size="13">{title}</text>']
    step = 5 if hi - lo <= 40 else 10
    for y in range(lo, hi + 1, step):
        out.append(f'<line x1="{l}" x2="{w - r}" y1="{Y(y):.1f}" y2="{Y(y):.1f}" stroke="#ddd"/>'
                   f'<text x="{l - 6}" y="{Y(y) + 4:.1f}" text-anchor="end">{y}</text>')
    xstep = 10 if x1 - x0 > 30 else 5
    for k in range(0, x1 + 1, xstep):
        if k >= x0:
            out.append(f'<line x1="{X(k):.1f}" x2="{X(k):.1f}" y1="{h - b}" y2="{h - b + 4}" stroke="black"/>'
                       f'<text x="{X(k):.1f}" y="{h - b + 16}" text-anchor="middle">{k}</text>')
    out.append(f'<rect x="{l}" y="{t}" width="{w - l - r}" height="{h - t - b}" fill="none" stroke="black"/>')
    out.append(f'<text x="{(l + w - r) / 2}" y="{h - 8}" text-anchor="middle">number of selected features K</text>')
    out.append(f'<text x="14" y="{(t + h - b) / 2}" text-anchor="middle" transform="rotate(-90 14 {(t + h - b) / 2})">{ylabel}</text>')
    for j, (label, c) in enumerate(lines):
        col = COLOURS[j % len(COLOURS)]
        pts = " ".join(f"{X(k):.1f},{Y(y):.1f}" for k, y in zip(ks, c) if y is not None)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.6"/>')
        ly = t + 14 + 16 * j
        out.append(f'<line x1="{w - r + 10}" x2="{w - r + 30}" y1="{ly}" y2="{ly}" stroke="{col}" stroke-width="2"/>'
                   f'<text x="{w - r + 35}" y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main(args):
    paper, figures, paths = "", "", []
    while args:
        a = args.pop(0)
        if a == "-paper":
            paper = args.pop(0)
        elif a == "-figures":
            figures = args.pop(0)
        else:
            paths.append(a)
    acc, red, ks_of, seeds = load(paths)
    table1 = {}
    if paper == "rfs-nie-2010":
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        import table1 as t1
        table1 = {(ds, k, m): vals[j] for ds, byk in t1.PAPER.items() for k, vals in byk.items()
                  for j, m in enumerate(t1.METHODS)}
    own = {"rfs-nie-2010": "rfs", "l20-nmapg-an-dong-qin-2021": "l20"}.get(paper)
    summary = defaultdict(dict)  # (classifier, leak) -> dataset -> method -> mean over K
    unsteady = defaultdict(dict)  # the same -> the curve's drops
    for (ds, cls, leak) in sorted(acc):
        ks = ks_of.get(ds) or sorted({k for m in acc[(ds, cls, leak)].values() for v in m.values() for k in v})
        shown = [k for k in (5, 10, 20, 30, 50, 80) if k in ks]
        methods = list(acc[(ds, cls, leak)])
        order = list(acc.get((ds, cls, ""), {}))  # the leaky tables in the leak-free order
        methods.sort(key=lambda m: order.index(m) if m in order else len(order))
        cs = {m: curves(acc[(ds, cls, leak)][m], ks) for m in methods}
        best_at = defaultdict(int)
        for i in range(len(ks)):
            vals = {m: cs[m][0][i] for m in methods if cs[m][0][i] is not None}
            if not vals:
                continue
            top = max(vals.values())
            for m, v in vals.items():
                if v >= top - 1e-9:
                    best_at[m] += 1
        print(f"\n{ds}, {cls}{', WITH THE LEAK (selection on all samples)' if leak else ''}: mean over {len(seeds[ds])} fold seed(s) of the 5-fold mean accuracy (%)"
              + (" (the paper's Table 1 value in parentheses)" if any(d == ds for d, _, _ in table1) else ""))
        print("\n| method | " + " | ".join(f"K = {k}" for k in shown)
              + f" | mean over K = {ks[0]}…{ks[-1]} | best at (of {len(ks)} K) | drops | mean RED |")
        print("|---|" + "---|" * (len(shown) + 4))
        for m in methods:
            best, per = cs[m]
            cells = []
            for k in shown:
                y = best[ks.index(k)]
                p = table1.get((ds, k, m))
                cells.append(("—" if y is None else f"{y:.2f}") + (f" ({p:g})" if p is not None else ""))
            vals = [y for y in best if y is not None]
            summary[(cls, leak)].setdefault(ds, {})[m] = mean(vals)
            unsteady[(cls, leak)].setdefault(ds, {})[m] = drops(vals)
            r = None if leak else red.get((ds, m))
            name = TITLES.get(m, m) + (" (best γ at each K)" if len(per) > 1 else "")
            print(f"| {name} | " + " | ".join(cells) + f" | {mean(vals):.2f} | {best_at[m]} | {drops(vals):.1f} | "
                  + (f"{mean(r):.3f}" if r else "—") + " |")
            if len(per) > 1:
                for v, c in per.items():
                    vv = [y for y in c if y is not None]
                    print(f"| &nbsp;&nbsp;{v} | " + " | ".join("—" if c[ks.index(k)] is None else f"{c[ks.index(k)]:.2f}" for k in shown)
                          + f" | {mean(vv):.2f} | | {drops(vv):.1f} | |")
        if own in cs and not leak:
            print(f"\n{TITLES[own]} minus the best other method, mean over K, seed by seed: "
                  + " ".join(f"{d:+.1f}" for d in margins(acc[(ds, cls, leak)], own, ks)))
        if "l20" in cs and "topk" in cs:
            # The paper's claim that ℓ2,0 beats TopK "where K is quite large, e.g., K > 20".
            d = [a - b for k, a, b in zip(ks, cs["l20"][0], cs["topk"][0]) if k > 20 and a is not None and b is not None]
            if d:
                print(f"\nℓ2,0 minus TopK for K > 20: mean {mean(d):+.2f} points, ahead at {sum(x > 0 for x in d)} of {len(d)} K.")
        if figures:
            lines = [(TITLES.get(m, m), cs[m][0]) for m in methods]
            name = f"{paper}-{ds}-{cls}{'-leaky' if leak else ''}.svg"
            svg(os.path.join(figures, name), f"{ds}, {cls}{', leaky' if leak else ''} ({len(seeds[ds])} seed(s))", ks, lines)

    for (cls, leak), rows in sorted(summary.items()):
        methods = list(next(iter(rows.values())))
        print(f"\nSummary, {cls}{', with the leak' if leak else ', leak-free'}: the mean accuracy over K (%), "
              "the best of each row in bold, and the rank of each method in brackets")
        print("\n| dataset | " + " | ".join(TITLES.get(m, m) for m in methods) + " |")
        print("|---|" + "---|" * len(methods))
        for ds, v in rows.items():
            cells = []
            for m in methods:
                if m not in v:
                    cells.append("—")
                    continue
                rank = 1 + sum(x > v[m] for x in v.values())
                cells.append((f"**{v[m]:.1f}**" if rank == 1 else f"{v[m]:.1f}") + f" [{rank}]")
            print(f"| {ds} | " + " | ".join(cells) + " |")
        print(f"\nDrops, {cls}{', with the leak' if leak else ', leak-free'}: the sum of each curve's falls from one K to the next (points)")
        print("\n| dataset | " + " | ".join(TITLES.get(m, m) for m in methods) + " |")
        print("|---|" + "---|" * len(methods))
        for ds, v in unsteady[(cls, leak)].items():
            print(f"| {ds} | " + " | ".join(f"{v[m]:.1f}" if m in v else "—" for m in methods) + " |")
    if red:
        methods = list(dict.fromkeys(m for _, m in red))
        print("\nRedundancy rate of the selected features, leak-free: mean over K, the training parts and the seeds")
        print("\n| dataset | " + " | ".join(TITLES.get(m, m) for m in methods) + " |")
        print("|---|" + "---|" * len(methods))
        for ds in sorted({d for d, _ in red}):
            v = {m: mean(red[(ds, m)]) for m in methods if red.get((ds, m))}
            low = min(v.values())
            print(f"| {ds} | " + " | ".join(("—" if m not in v else (f"**{v[m]:.3f}**" if v[m] == low else f"{v[m]:.3f}"))
                                           for m in methods) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
