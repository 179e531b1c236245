#!/usr/bin/env python3
"""bankcheck's counts for each Triton pair, before anything is measured.

  predict.py [--bankcheck build/bankcheck] [-o predictions.json]

For every case of cases.py: `bankcheck layout --suggest` on the pair's
accesses (cases.py's "bankcheck"), with Triton's own shared layout as the
layout in use where Triton chose a swizzled_shared (so "before" is bankcheck's
count of Triton's choice), else `--tile` (Triton's convert_layout: its layout is
counted from a capture on the GPU); and the same on the plain (unswizzled) tile,
whose "before" is the plain variant's prediction. Writes one JSON object per case (the
command, the whole `--json` output, and the Gluon layout of the suggestion,
read by pairs.py on the GPU) and prints the commands with their text output
(predictions.txt).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases as C  # noqa: E402

SWIZZLED = re.compile(r"^SwizzledSharedLayout\(vec=(\d+), per_phase=(\d+), max_phase=(\d+), order=\[(\d), (\d)\]\)$")


def command(bankcheck, case, plain=False):
    """`layout --suggest` with Triton's layout in use (or --tile), or with the plain tile."""
    bc = case["bankcheck"]
    rows, cols = (int(v) for v in bc["tile"].split("x"))
    dtype = {"fp16": "fp16", "fp32": "f32", "int8": "int8"}[case["dtype"]]
    cmd = [bankcheck, "layout"]
    if plain:
        cmd.append(f"({rows},{cols}):({cols},1)")
    elif case["triton"] != "convert":
        cute = C.swizzle_to_cute(case["triton"], rows, cols)
        if cute is None:
            raise SystemExit(f"{case['name']}: Triton's layout {case['triton']} is no CuTe swizzle on {bc['tile']}")
        cmd.append(cute)
    else:
        cmd += ["--tile", bc["tile"]]
    cmd += ["--type", dtype, "--suggest"]
    for a in bc["accesses"]:
        cmd += ["--access", a]
    return cmd


def gluon_of(paste, transposed):
    """bankcheck's Triton paste as a cases.py shared spec on the tensor (not the
    view): the view's order [1, 0] is the tensor's [0, 1] when transposed."""
    m = SWIZZLED.match(paste or "")
    if not m:
        return None
    vec, pp, mp, o0, o1 = (int(v) for v in m.groups())
    order = [o1, o0] if transposed else [o0, o1]
    return ["swizzled", vec, pp, mp, order]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bankcheck", default="build/bankcheck")
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "predictions.json"))
    a = ap.parse_args()
    out = []
    for case in C.CASES:
        cmd = command(a.bankcheck, case)
        text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        doc = json.loads(subprocess.run(cmd + ["--json"], capture_output=True, text=True, check=True).stdout)
        shown = ["bankcheck"] + [f'"{w}"' if " " in w else w for w in cmd[1:]]
        print("$ " + " ".join(shown))
        print(text)
        # the plain tile's counts (the "plain" variant): the before of the same search on it
        plain = json.loads(subprocess.run(command(a.bankcheck, case, plain=True) + ["--json"], capture_output=True,
                                          text=True, check=True).stdout)
        out.append({"name": case["name"], "command": " ".join(shown), "suggest": doc,
                    "gluon": gluon_of(doc["suggestion"].get("triton"), case["bankcheck"]["transposed"]),
                    "plain": {"layout": plain["inputs"][0]["layout"], "wavefronts": plain["before"]["wavefronts"],
                              "accesses": [{"access": r["access"], "weight": r["weight"], **r["before"]}
                                           for r in plain["accesses"]]}})
    tmp = a.output + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(tmp, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
