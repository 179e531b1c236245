#!/usr/bin/env python3
"""Markdown tables from the harness's *.timing.csv files (median of 15 CUDA-event
timings after 3 warm-up runs; kernels/experiment.cuh):
  tables.py RESULTS_DIR > timing.md
Case names are kernel/variant/input/params with params "a=1;b=2"."""
import csv
import os
import sys
from collections import defaultdict


def load(path):
    out = []
    for r in csv.DictReader(open(path)):
        kernel, variant, inp, params = r["case"].split("/")
        p = dict(x.split("=") for x in params.split(";"))
        out.append((kernel, variant, inp, p, float(r["median_ms"]), int(r["items"])))
    return out


def pivot(rows, row_key, col_key, title, row_name, unit=lambda ms, items: f"{ms:.3f}"):
    cols = sorted({col_key(r) for r in rows})
    table = defaultdict(dict)
    for r in rows:
        table[row_key(r)][col_key(r)] = unit(r[4], r[5])
    print(f"\n### {title}\n")
    print(f"| {row_name} | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for k in sorted(table, key=lambda x: (len(str(x)), x)):
        print(f"| {k} | " + " | ".join(table[k].get(c, "") for c in cols) + " |")


def main(d):
    f = lambda name: os.path.join(d, name)
    if os.path.exists(f("pbs.timing.csv")):
        rows = load(f("pbs.timing.csv"))
        for b in ("4", "8"):
            for inp in ("random", "worst"):
                sel = [r for r in rows if r[3]["bytes"] == b and r[2] == inp]
                if sel:
                    q = sel[0][3]["Q"]
                    pivot(sel, lambda r: int(r[3]["K"]), lambda r: r[1],
                          f"PBS, {b}-byte keys, {inp} queries (HiPC Fig. {10 if b == '4' else 11}): ms for Q = {q}", "K")
    if os.path.exists(f("merge.timing.csv")):
        rows = load(f("merge.timing.csv"))
        pivot(rows, lambda r: int(r[3]["n"]), lambda r: f"{r[1]} {r[3].get('E', '')}/{r[3].get('u', '')} {r[2]}",
              "Merge sort (SPAA Fig. 5/6): throughput, keys per microsecond", "n",
              unit=lambda ms, items: f"{items / (ms * 1e3):.0f}")
    if os.path.exists(f("merge_sort.timing.csv")):
        rows = load(f("merge_sort.timing.csv"))
        for shape in sorted({(int(r[3]["u"]), int(r[3]["E"])) for r in rows}, key=lambda s: (-s[0], s[1])):
            sel = [r for r in rows if (int(r[3]["u"]), int(r[3]["E"])) == shape]
            pivot(sel, lambda r: int(r[3]["n"]), lambda r: f"{r[1]} {r[2]}",
                  f"Full merge sort (SPAA Fig. 5/6), u={shape[0]} E={shape[1]} inputs: keys per microsecond", "n",
                  unit=lambda ms, items: f"{items / (ms * 1e3):.0f}")
    if os.path.exists(f("pairwise_merge.timing.csv")):
        rows = load(f("pairwise_merge.timing.csv"))
        pivot(rows, lambda r: f"u={r[3]['u']} E={r[3]['E']}", lambda r: f"{r[1]} {r[2]}",
              "One pairwise merge per block (4096 blocks): keys per microsecond", "shape",
              unit=lambda ms, items: f"{items / (ms * 1e3):.0f}")
    prof = f("investigate/merge.cub_profile.csv")
    if os.path.exists(prof):
        rows = list(csv.DictReader(open(prof)))
        print("\n### cub::DeviceMergeSort (u=256, E=17) measured shared-memory counts, all kernels of one sort\n")
        print("| n | input | kernels | ld wavefronts | ld conflicts | st wavefronts | worst/random ld wavefronts |")
        print("|---|---|---|---|---|---|---|")
        rand = {r["n"]: int(r["ld_wavefronts"]) for r in rows if r["input"] == "random"}
        for r in rows:
            ratio = int(r["ld_wavefronts"]) / rand[r["n"]] if r["n"] in rand else float("nan")
            print(f"| {r['n']} | {r['input']} | {r['kernels']} | {r['ld_wavefronts']} | {r['ld_conflicts']} | "
                  f"{r['st_wavefronts']} | {ratio:.2f} |")
    if os.path.exists(f("aho_corasick.timing.csv")):
        rows = load(f("aho_corasick.timing.csv"))
        pivot(rows, lambda r: int(r[3]["C"]), lambda r: r[1], "Aho-Corasick: ms per launch by chunk bytes C", "C")
    if os.path.exists(f("transpose.timing.csv")):
        rows = load(f("transpose.timing.csv"))
        pivot(rows, lambda r: int(r[3]["bytes"]), lambda r: r[1], "Transpose 32x32 tiles: ms per launch", "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
