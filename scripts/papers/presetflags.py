#!/usr/bin/env python3
"""What the leaky comparison of a preset needs (scripts/papers/evalpreset.sh).

  python3 scripts/papers/presetflags.py -variants PRESET-ID
  python3 scripts/papers/presetflags.py -klist PLAN.json
  python3 scripts/papers/presetflags.py -protocol PLAN.json

PLAN.json is `sparsefs eval -preset PRESET-ID -data FILE -describe`: the
request the page builds for the preset on that data, whose K list
(-klist: space-separated) and classifiers and folds (-protocol: one flag
or value a line, for bash's mapfile) are read from it, not from the
preset's text.

With -variants: one line per method variant of the preset, a parameter
list swept into its values: the method's name, then the parameters the
preset sets as NAME=VALUE, space-separated (for `sparsefs select -method
NAME -param NAME=VALUE`; the names of the leaky reports).
"""
import itertools
import json
import os
import sys


def protocol(plan):
    ev = plan["request"]["eval"]
    out = ["-classifier", ",".join(c["name"] for c in ev["classifiers"])]
    for c in ev["classifiers"]:
        if c["name"] == "svm":
            out += ["-C", repr(c["C"]), "-multiclass", c["multiclass"], "-svm-bias", c["bias"]]
        else:
            out += ["-neighbors", str(c["neighbors"])]
    pr = ev["protocol"]
    if pr["kind"] == "cv":
        out += ["-cv", str(pr["folds"])]
    else:
        out += ["-holdout", f"{pr['train']}x{pr['repeats']}"]
    return out


def variants(p):
    out = []
    for m in p["methods"]:
        params = sorted(m.get("params", {}).items())
        grids = [[f"{n}={v.strip()}" for v in value.split(",")] for n, value in params]
        for combo in itertools.product(*grids):
            out.append(" ".join([m["name"], *combo]))
    return out


def klist(plan):
    return [" ".join(map(str, plan["request"]["eval"]["k"]))]


def main():
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == "-variants":
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "ui", "lab", "presets.json")) as f:
            presets = {p["id"]: p for p in json.load(f)["presets"]}
        if arg not in presets:
            sys.exit(f"presetflags: no preset {arg}")
        print("\n".join(variants(presets[arg])))
        return
    with open(arg) as f:
        plan = json.load(f)
    print("\n".join({"-klist": klist, "-protocol": protocol}[mode](plan)))


if __name__ == "__main__":
    main()
