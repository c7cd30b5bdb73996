#!/usr/bin/env python3
"""Print the `sparsefs eval` flags of a preset of ui/lab/presets.json.

  python3 scripts/papers/presetflags.py PRESET-ID
  python3 scripts/papers/presetflags.py -variants PRESET-ID

One flag or value a line (for bash's mapfile), the request the page builds
for the preset: its methods and their parameters, K, classifiers and
protocol (the seed is left to the caller). For a CLI without
`eval -preset`.

With -variants: one line per method variant, a parameter list swept into
its values: the method's name, then its parameters as NAME=VALUE,
space-separated (for `sparsefs select -method NAME -param NAME=VALUE`).
With -klist: the preset's K, space-separated.
"""
import itertools
import json
import os
import sys


def flags(p):
    out = ["-methods", ",".join(m["name"] for m in p["methods"])]
    for m in p["methods"]:
        for name, value in sorted(m.get("params", {}).items()):
            out += ["-param", f"{m['name']}.{name}={value.replace(' ', '')}"]
    pr = p["protocol"]
    out += ["-k", pr["k"].replace(" ", ""), "-classifier", ",".join(pr["classifiers"])]
    if "svm" in pr["classifiers"]:
        out += ["-C", str(pr.get("c", 1))]
    if "knn" in pr["classifiers"]:
        out += ["-neighbors", str(pr.get("neighbors", 1))]
    if pr.get("scheme", "cv") == "cv":
        out += ["-cv", str(pr.get("folds", 5))]
    else:
        out += ["-holdout", f"{pr['train']}x{pr['repeats']}"]
    if pr.get("tune"):
        for t in pr["tune"].split(";"):
            out += ["-tune", t.replace(" ", "")]
    if pr.get("inner"):
        out += ["-inner", str(pr["inner"])]
    return out


def variants(p):
    out = []
    for m in p["methods"]:
        params = sorted(m.get("params", {}).items())
        grids = [[f"{n}={v.strip()}" for v in value.split(",")] for n, value in params]
        for combo in itertools.product(*grids):
            out.append(" ".join([m["name"], *combo]))
    return out


def klist(p):
    ks = []
    for part in p["protocol"]["k"].replace(" ", "").split(","):
        a = [int(x) for x in part.split(":")]
        ks += list(range(a[0], a[1] + 1, a[2] if len(a) > 2 else 1)) if len(a) > 1 else a
    return [" ".join(map(str, ks))]


def main(pid, mode=flags):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "ui", "lab", "presets.json")) as f:
        presets = {p["id"]: p for p in json.load(f)["presets"]}
    if pid not in presets:
        sys.exit(f"presetflags: no preset {pid}")
    print("\n".join(mode(presets[pid])))


if __name__ == "__main__":
    if sys.argv[1] in ("-variants", "-klist"):
        main(sys.argv[2], {"-variants": variants, "-klist": klist}[sys.argv[1]])
    else:
        main(sys.argv[1])
