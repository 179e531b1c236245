#!/usr/bin/env python3
"""The measured table of the suggestion kernels, predictions beside measurements.

  table.py RESULTS_DIR [--bankcheck build/bankcheck]

Predicted wavefronts per warp instruction: `bankcheck layout LAYOUT --access A
--json` on the naive and the suggested layout of each case (the layouts of
predictions.txt), wavefronts / instructions. Measured: ncu_shared.csv (Nsight
Compute's "L1 Wavefronts Shared" per SASS instruction / its executions),
summed over the SASS instructions of one source line of suggest_kernels.cuh,
for the naive, suggested and capture-map launches. Times and output checks
from times.txt.
"""
import argparse
import collections
import csv
import json
import os
import re
import subprocess
import sys

# case: (element, naive layout, suggested layout, [(access, along, source lines of suggest_kernels.cuh)])
CASES = {
    "ldsm_trans": ("fp16", "Sw<3,3,4> o _0 o (_64,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)",
                   [("st.128", None, [24]), ("ldmatrix.x4.trans", None, [34, 35])]),
    "cpasync_ldsm": ("fp16", "(64,64):(64,1)", "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)",
                     [("cp.async.16", None, [22]), ("ldmatrix.x4", None, [37, 38])]),
    "sgemm": ("f32", "(8,128):(128,1)", "Sw<3,2,5> o _0 o (_8,_128):(_128,_1)",
              [("st.32", 0, [56]), ("ld.128", None, [66])]),
    "row_scan": ("f32", "(32,64):(64,1)", "Sw<5,0,6> o _0 o (_32,_64):(_64,_1)",
                 [("st.32", None, [92]), ("ld.32", 0, [97]), ("st.32", 0, [98]), ("ld.32", None, [102])]),
    "softmax": ("f32", "(32,128):(128,1)", "Sw<3,2,5> o _0 o (_32,_128):(_128,_1)",
                [("st.128", None, [117]), ("ld.32", 0, [123, 124]), ("ld.128", None, [132])]),
    "transpose_fp16": ("fp16", "(64,64):(64,1)", "Sw<5,1,5> o _0 o (_64,_64):(_64,_1)",
                       [("st.16", None, [151]), ("ld.16", 0, [157])]),
    "matvec": ("f32", "(32,64):(64,1)", "Sw<4,1,5> o _0 o (_32,_64):(_64,_1)",
               [("st.64", None, [175]), ("ld.32", 0, [182])]),
    "stmatrix": ("fp16", "(64,64):(64,1)", "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)",
                 [("stmatrix.x4", None, [214, 215, 216]), ("ld.128", None, [222])]),
    "transpose_int8": ("int8", "(64,64):(64,1)", "Sw<4,2,5> o _0 o (_64,_64):(_64,_1)",
                       [("st.8", None, [151]), ("ld.8", 0, [157])]),
}
KERNEL = {"ldsm_trans": r"ldsm_tile.*Lb1ELb0E", "cpasync_ldsm": r"ldsm_tile.*Lb0ELb1E", "sgemm": r"5sgemm",
          "row_scan": r"row_scan", "softmax": r"softmax_rows", "transpose_fp16": r"transpose64.*6__half",
          "matvec": r"matvec", "stmatrix": r"stmatrix_epilogue", "transpose_int8": r"transpose64"}


def predicted(bankcheck, element, layout, access, along):
    cmd = [bankcheck, "layout", layout, "--type", element, "--access", access, "--json"]
    if along is not None:
        cmd += ["--along", str(along)]
    t = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)["totals"]
    return t["wavefronts"] / t["instructions"], t["ideal"] / t["instructions"]


def variant_of(kernel):
    if "3CapIL" in kernel:
        return "capture-map"
    return None  # naive or suggested: decided by the layout in the name


def measured(rows, case, naive_layout):
    """{variant: {line: [executed, wavefronts, ideal]}} for one case."""
    out = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    naive_sw = re.match(r"Sw<(\d),(\d),(\d)>", naive_layout)
    naive_tag = "2SwILi%sELi%sELi%sEE" % naive_sw.groups() if naive_sw else "2SwILi0ELi0ELi0EE"
    for r in rows:
        k = r["kernel"]
        if r["sass"].startswith("@!PT") or not re.search(KERNEL[case], k):  # never-executed padding
            continue
        if case == "transpose_fp16" and "6__half" not in k:
            continue
        if case == "transpose_int8" and "6__half" in k:
            continue
        v = variant_of(k) or ("naive" if naive_tag in k else "suggested")
        line = int(r["line"].rsplit(":", 1)[1]) if ":" in r["line"] and r["line"].startswith("suggest_kernels.cuh") else -1
        t = out[v][line]
        t[0] += int(r["executed"])
        t[1] += int(r["wavefronts"])
        t[2] += int(r["ideal"])
    return out


def capture_predicted(results, case, lines):
    """The capture's suggestion for this access: (before, after) per execution, summed over its lines."""
    path = os.path.join(results, f"suggest-{case}.json")
    if not os.path.exists(path):
        return None
    doc = json.load(open(path))
    e = b = w = 0
    for launch in doc.get("launches", []):
        for buf in launch.get("buffers", []):
            for ins in buf.get("instructions", []):
                src = ins.get("source") or {}
                m = re.search(r"suggest_kernels\.cuh:(\d+)$", src.get("text") or "")
                if m and int(m.group(1)) in lines and ins.get("before") is not None:
                    e += ins["executions"]
                    b += ins["before"]
                    w += ins["after"]
    return (b / e, w / e) if e else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--bankcheck", default="build/bankcheck")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(os.path.join(a.results, "ncu_shared.csv"))))
    times = {}
    for line in open(os.path.join(a.results, "times.txt")):
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        if "case" in f:
            times[(f["case"], f["variant"])] = f
    print("| case | access | predicted naive | measured naive | predicted suggested | measured suggested | "
          "capture: before -> after | measured capture-map |")
    print("|---|---|---|---|---|---|---|---|")
    for case, (element, naive, suggested, accesses) in CASES.items():
        m = measured(rows, case, naive)
        for access, along, lines in accesses:
            name = access + (f",along={along}" if along is not None else "")
            pn, _ = predicted(a.bankcheck, element, naive, access, along)
            ps, _ = predicted(a.bankcheck, element, suggested, access, along)
            cells = []
            for v in ("naive", "suggested", "capture-map"):
                e = sum(m[v][ln][0] for ln in lines)
                w = sum(m[v][ln][1] for ln in lines)
                cells.append(f"{w / e:.3f} ({w}/{e})" if e else "-")
            cap = capture_predicted(a.results, case, lines)
            capt = f"{cap[0]:g} -> {cap[1]:g}" if cap else "-"
            print(f"| {case} | {name} | {pn:g} | {cells[0]} | {ps:g} | {cells[1]} | {capt} | {cells[2]} |")
    print()
    print("| case | naive ms | suggested ms | speedup | capture-map ms | wrong vs naive (suggested, capture-map) | "
          "naive wrong vs CPU |")
    print("|---|---|---|---|---|---|---|")
    for case in CASES:
        n, s, c = (times.get((case, v), {}) for v in ("naive", "suggested", "capture-map"))
        if not n:
            print(f"| {case} | - | - | - | - | - | - |")
            continue
        speed = float(n["median_ms"]) / float(s["median_ms"]) if s else float("nan")
        print(f"| {case} | {n['median_ms']} | {s.get('median_ms', '-')} | {speed:.2f}x | {c.get('median_ms', '-')} | "
              f"{s.get('wrong_vs_naive', '-')}, {c.get('wrong_vs_naive', '-')} | {n.get('wrong_vs_cpu', '-')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
