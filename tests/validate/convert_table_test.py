#!/usr/bin/env python3
"""validate/suggest/convert: linear.py's bases of Triton's layouts against the
layouts' definitions worked out by hand; gen_kernel.py's inverse of a linear
layout against brute force; table.py on a results directory made here by hand
(counters written below, per-tile sums worked out by hand: wavefronts / 8
tiles; one case measured off by one wavefront must say NO); then the H200 run
committed under validate/results/h200-2026-11-29/convert: its table.md is
table.py's output and every count equals the measurement."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

from repo_root import ROOT  # (puts the repository root on sys.path)
from validate.suggest.convert import gen_kernel  # noqa: E402
from validate.suggest.triton_pairs import cases, linear  # noqa: E402

HERE = os.path.join(ROOT, "validate", "suggest", "convert")
RUNS = [os.path.join(ROOT, "validate", "results", "h200-2026-11-29", d) for d in ("convert", "convert-run2")]


def check(failures, what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def bases_by_hand(failures):
    c = cases.by_name()
    # blocked [1,4] x [2,16] x [4,1], order [1,0] on 64x64: 4 columns a lane, 16 lanes along a row, 2 rows a warp,
    # 4 warps down, the 8-row CTA tile repeated 8 times down.
    check(failures, "trans_f32 src", linear.bases(c["trans_f32_64x64"]["src"], [64, 64]),
          {"register": [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]],
           "lane": [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], "warp": [[2, 0], [4, 0]]})
    # blocked [1,1] x [32,1] x [1,4], order [0,1]: lanes down 32 rows, warps across 4 columns, repeats down then across.
    check(failures, "column dst", linear.bases(c["trans_f32_64x64"]["dst"], [64, 64]),
          {"register": [[32, 0], [0, 4], [0, 8], [0, 16], [0, 32]],
           "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "warp": [[0, 1], [0, 2]]})
    # mma v2 m16n8 accumulator, 4 warps down: lane l holds rows l/4 and l/4+8, columns 2(l%4) and +1.
    b = linear.bases(c["epilogue_f16_64x64"]["src"], [64, 64])
    check(failures, "mma2 lane 5, register 3", linear.at(b, 3, 5, 0), (1 + 8, 2 + 1))
    check(failures, "mma2 warp 3, register 4", linear.at(b, 4, 0, 3), (48, 8))


def inverse_by_brute_force(failures):
    bases = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [0, 1], [0, 2], [8, 0], [16, 0], [32, 0], [2, 16], [4, 32]]
    sh = gen_kernel.Shared(bases, 64, 64)
    table = {}
    for o in range(4096):
        r = c = 0
        for i, (a, b) in enumerate(bases):
            if o >> i & 1:
                r ^= a
                c ^= b
        table[(r, c)] = o
    check(failures, "inverse", all(sh.offset(r, c) == table[(r, c)] for r in range(64) for c in range(64)), True)


def kernels_generate(failures):
    """gen_kernel.py writes one kernel per committed prediction whose layout is linear (all of them)."""
    tmp = tempfile.mkdtemp()
    try:
        out = os.path.join(tmp, "k.cu")
        p = subprocess.run([sys.executable, os.path.join(HERE, "gen_kernel.py"), out, os.path.join(HERE, "predictions")],
                           capture_output=True, text=True)
        check(failures, "gen_kernel rc", (p.returncode, p.stderr), (0, ""))
        names = sorted(n[:-5] for n in os.listdir(os.path.join(HERE, "predictions")) if n.endswith(".json"))
        with open(out) as f:
            code = f.read()
        check(failures, "a kernel per prediction", [n for n in names if f"__global__ void __launch_bounds__(128) convert_{n}(" not in code], [])
    finally:
        shutil.rmtree(tmp)


def table_by_hand(failures):
    tmp = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tmp, "predictions"))
        for n in ("trans_f32_64x64", "trans_f16_64x64"):
            shutil.copy(os.path.join(HERE, "predictions", n + ".json"), os.path.join(tmp, "predictions"))
        rows = [  # launch, kernel, sass, executed, wavefronts (8 tiles)
            ("_Z23convert_trans_f32_64x64PKjPji", "STSM.16.M88.4 [R30], R8", 128, 512),
            ("_Z23convert_trans_f32_64x64PKjPji", "STSM.16.M88.4 [R29], R12", 128, 512),
            ("_Z23convert_trans_f32_64x64PKjPji", "LDS.128 R8, [R22+UR4]", 256, 1024),
            ("_Z23convert_trans_f16_64x64PKtPti", "STSM.16.MT88.4 [R25], R8", 128, 513),
            ("_Z23convert_trans_f16_64x64PKtPti", "LDSM.16.M88.4 R8, [R5]", 128, 512),
        ]
        with open(os.path.join(tmp, "ncu_shared.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["launch", "kernel", "address", "sass", "line", "executed", "wavefronts", "ideal",
                        "wavefronts_per_execution"])
            for k, (kernel, sass, ex, wf) in enumerate(rows):
                w.writerow([0, kernel, hex(k), sass, "x.cu:1", ex, wf, wf, wf / ex])
        with open(os.path.join(tmp, "check.txt"), "w") as f:
            f.write("trans_f32_64x64 tiles 8 elements 32768 wrong 0 median_ms 0.0000\n")
        p = subprocess.run([sys.executable, os.path.join(HERE, "table.py"), tmp], capture_output=True, text=True)
        lines = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[1:-1]] for l in p.stdout.splitlines()
                 if l.startswith("| trans_")}
        # fp32: stores (512 + 512) / 8 = 128, loads 1024 / 8 = 128; 4 a STSM (1024 / 256 executions) and an LDS.128.
        check(failures, "f32 stores", lines["trans_f32_64x64"][3], "128 / 128")
        check(failures, "f32 loads", lines["trans_f32_64x64"][4], "128 / 128")
        check(failures, "f32 per instruction", lines["trans_f32_64x64"][5], "4 / 4.000; 4 / 4.000")
        check(failures, "f32 total, Triton's", lines["trans_f32_64x64"][6:8], ["256 / 256", "256 (the earlier suggestion: 640)"])
        # fp16: one wavefront too many on the stores: 513 / 8 = 64.125.
        check(failures, "f16 stores off", lines["trans_f16_64x64"][3], "64 / 64.125")
        check(failures, "verdict NO", (p.returncode, p.stdout.strip().splitlines()[-1]), (1, "every count equal: NO"))
    finally:
        shutil.rmtree(tmp)


def measured_run(failures, RUN):
    p = subprocess.run([sys.executable, os.path.join(HERE, "table.py"), RUN], capture_output=True, text=True)
    check(failures, "H200 table.py rc", p.returncode, 0)
    with open(os.path.join(RUN, "table.md")) as f:
        check(failures, "H200 table.md is table.py's output", p.stdout, f.read())
    check(failures, "H200 every count equal", "every count equal: yes" in p.stdout, True)
    with open(os.path.join(RUN, "check.txt")) as f:
        wrong = [int(l.split()[6]) for l in f if " wrong " in l]
    check(failures, "H200 outputs", (len(wrong) >= 3, sum(wrong)), (True, 0))


def main():
    failures = []
    bases_by_hand(failures)
    inverse_by_brute_force(failures)
    kernels_generate(failures)
    table_by_hand(failures)
    for run in RUNS:
        measured_run(failures, run)
    for f in failures:
        print("FAIL:", f)
    print("convert table:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
