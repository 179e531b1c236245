#!/usr/bin/env python3
"""bankcheck's counts beside Nsight Compute's for the conversion kernels
(run_on_gpu.sh), and beside Triton's own convert_layout as measured on the
H200 on 2026-11-29 (validate/results/h200-2026-11-29/triton-pairs/table.md).

  table.py RESULT_DIR

RESULT_DIR holds predictions/CASE.json (bankcheck's suggestion, made before the
run), ncu_shared.csv (ncu_shared.py: wavefronts per SASS instruction of one
launch of 8 tiles per kernel) and check.txt. Wavefronts per tile = the shared
instructions' wavefronts / 8.
"""
import csv
import json
import os
import sys

TILES = 8
TRITON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results", "h200-2026-11-29",
                      "triton-pairs", "table.md")


def triton_measured():
    """case -> (Triton's convert_layout, the earlier suggestion) measured per tile, from the 2026-11-29 table."""
    out = {}
    with open(TRITON) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 6 and "convert_layout" in cells[2]:
                triton, earlier = (int(x) for x in cells[5].split("/"))
                out[cells[1]] = (triton, earlier)
    return out


def main():
    d = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(d, "ncu_shared.csv"))))
    check = {}
    if os.path.exists(os.path.join(d, "check.txt")):
        for line in open(os.path.join(d, "check.txt")):
            p = line.split()
            if len(p) >= 9 and p[1] == "tiles":
                check[p[0]] = (int(p[6]), float(p[8]))
    tri = triton_measured()
    print("| case | bankcheck's layout and instructions | SASS stores / loads | store w/tile: bankcheck / measured "
          "| load w/tile: bankcheck / measured | w/instruction, stores; loads: bankcheck / measured "
          "| total: bankcheck / measured | Triton's convert_layout, measured 2026-11-29 | wrong | ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    for name in sorted(f[:-5] for f in os.listdir(os.path.join(d, "predictions")) if f.endswith(".json")):
        s = json.load(open(os.path.join(d, "predictions", name + ".json")))
        mine = [r for r in rows if f"convert_{name}" in r["kernel"]]
        st = [r for r in mine if r["sass"].split()[0].split(".")[0] in ("STS", "STSM")]
        ld = [r for r in mine if r["sass"].split()[0].split(".")[0] in ("LDS", "LDSM")]
        def per_tile(v):
            return sum(int(r["wavefronts"]) for r in v) / TILES
        def per_ins(v):
            ex = sum(int(r["executed"]) for r in v)
            return sum(int(r["wavefronts"]) for r in v) / ex if ex else float("nan")
        sw, lw = s["store"]["wavefronts"], s["load"]["wavefronts"]
        si, li = sw / s["store"]["instructions"], lw / s["load"]["instructions"]
        ms, ml = per_tile(st), per_tile(ld)
        ok &= ms == sw and ml == lw and abs(per_ins(st) - si) < 1e-9 and abs(per_ins(ld) - li) < 1e-9
        sass = " ".join(sorted({r["sass"].split()[0] for r in st})) + " / " + " ".join(sorted({r["sass"].split()[0] for r in ld}))
        t = tri.get(name, ("-", "-"))
        w, m = check.get(name, ("-", "-"))
        print(f"| {name} | `{s['suggestion']['layout']}`: {s['store']['instruction']} + {s['load']['instruction']} "
              f"| {sass} | {sw} / {ms:g} | {lw} / {ml:g} | {si:g} / {per_ins(st):.3f}; {li:g} / {per_ins(ld):.3f} "
              f"| {sw + lw} / {ms + ml:g} | {t[0]} (the earlier suggestion: {t[1]}) | {w} | {m} |")
    print(f"\nevery count equal: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
