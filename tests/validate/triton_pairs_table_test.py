#!/usr/bin/env python3
"""validate/suggest/triton_pairs/table.py on a results directory made here by
hand: two cases of the committed predictions.json (a dot operand whose layout
Triton chose as a swizzled_shared, and a transpose Triton lowers as a
convert_layout, counted from a capture), a source page whose counters are
written below with the per-tile sums worked out by hand, PTX files whose
shared instructions match bankcheck's accesses or not, and outputs with one
wrong variant. The expected cells are the hand sums, not the script's output:
wavefronts per tile = (store + load wavefronts) / tiles, bankcheck's per tile
= the weighted total of `layout --suggest` (64 + 2 x 64 for the dot operand
read by two warps), the capture's = its before / its tiles; excess per ideal
wavefront = (wavefronts - ideal) / ideal, Triton's own count from the
committed triton_counts.json. Then the H200 run committed under
validate/results/h200-2026-11-29/triton-pairs: its table.md is table.py's
output, and each of the 41 bankcheck counts set beside a measurement equals it."""
import json
import os
import shutil
import sys
import tempfile

from repo_root import ROOT  # (puts the repository root on sys.path)
from validate.suggest.triton_pairs import table  # noqa: E402

PAIRS = os.path.join(ROOT, "validate", "suggest", "triton_pairs")

HEADER = ["Address", "Source", "Instructions Executed", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"]
LDSM = "ldmatrix.sync.aligned.m8n8.x4.shared.b16"


def block(rows):
    """One launch of the source page: (SASS, executed, wavefronts, ideal) rows, plus an unrelated instruction."""
    lines = ['"Kernel Name","pair_kernel",', ",".join(f'"{h}"' for h in HEADER)]
    for i, (sass, executed, waves, ideal) in enumerate([("LDG.E.128 R4, desc[UR4][R2.64]", 32, 0, 0)] + rows):
        lines.append(f'"0x{0x7f00 + 16 * i:x}","      {sass} ;","{executed:,}","{waves:,}","{ideal:,}"')
    return lines


# (case, variant): SASS rows of one launch of 2 tiles
LAUNCHES = [
    ("dotA_f16_64x64", "triton", [("STS.128 [R3], R8", 32, 128, 128), ("LDSM.16.M88.4 R8, [R5]", 64, 256, 256)]),
    ("dotA_f16_64x64", "suggested", [("STS.128 [R3], R8", 32, 128, 128), ("LDSM.16.M88.4 R8, [R5]", 64, 256, 256)]),
    ("dotA_f16_64x64", "plain", [("STS.128 [R3], R8", 32, 128, 128), ("LDSM.16.M88.4 R8, [R5]", 64, 2048, 256)]),
    ("trans_f32_32x32", "triton", [("STS [R3], R8", 64, 64, 64), ("LDS R8, [R5]", 64, 64, 64)]),
    ("trans_f32_32x32", "suggested", [("STS [R3], R8", 64, 64, 64), ("@P0 LDS R8, [R5]", 64, 96, 64)]),
    ("trans_f32_32x32", "plain", [("STSM.16.M88.4 [R3], R8", 8, 32, 32), ("LDS R8, [R5]", 64, 2048, 64)]),
]
PTX = {("dotA_f16_64x64", v): f"st.shared.v4.b32 [%r1], {{%r2}};\n{LDSM} {{%r3}}, [%r4];\n"
       for v in ("triton", "suggested", "plain")}
PTX.update({("trans_f32_32x32", "suggested"): "st.shared.b32 [%r1], %r2;\nld.shared.b32 %r3, [%r4];\n",
            ("trans_f32_32x32", "plain"): "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r1], {%r2};\n"
                                          "ld.shared.b32 %r3, [%r4];\n",
            ("trans_f32_32x32", "triton"): "st.shared.b32 [%r1], %r2;\nld.shared.b32 %r3, [%r4];\n"})
CAPTURE = {"launches": [{"buffers": [{"verdict": "keep: already conflict-free", "instructions": [
    {"op": "st", "executions": 128, "before": 128, "after": 128, "ideal": 128},
    {"op": "ld", "executions": 128, "before": 128, "after": 128, "ideal": 128},
    {"op": "ld", "executions": 4, "before": None, "after": None}]}]}]}


def make(tmp, doubled=False, extra=False):
    preds = [p for p in json.load(open(os.path.join(PAIRS, "predictions.json")))
             if p["name"] in ("dotA_f16_64x64", "trans_f32_32x32")]
    json.dump(preds, open(os.path.join(tmp, "predictions.json"), "w"))
    with open(os.path.join(tmp, "manifest.txt"), "w") as f:
        f.writelines(f"{i} {c} {v} 2\n" for i, (c, v, _) in enumerate(LAUNCHES))
    page = []
    for _, _, rows in LAUNCHES + ([LAUNCHES[0]] if extra else []):
        page += block(rows) * (2 if doubled else 1)
    open(os.path.join(tmp, "ncu-source.csv"), "w").write("\n".join(page) + "\n")
    with open(os.path.join(tmp, "check.txt"), "w") as f:
        for c, v, _ in LAUNCHES:
            wrong = 3 if (c, v) == ("trans_f32_32x32", "suggested") else 0
            f.write(f"case={c} variant={v} tiles=2 median_ms=0.0100 wrong={wrong}\n")
    json.dump(CAPTURE, open(os.path.join(tmp, "suggest-trans_f32_32x32.json"), "w"))
    open(os.path.join(tmp, "capture-trans_f32_32x32.log"), "w").write(
        "case=trans_f32_32x32 variant=triton launched, 4 tiles\n")
    os.makedirs(os.path.join(tmp, "ir"))
    for (c, v), text in PTX.items():
        open(os.path.join(tmp, "ir", f"{c}.{v}.ptx"), "w").write(text)


def measured_run(failures):
    """The H200 run: table.md is table.py's output, and every layout count set beside a
    measurement (per tile and per instruction) equals Nsight Compute's: 41 variants."""
    results = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "triton-pairs")
    import subprocess
    got = subprocess.run([sys.executable, os.path.join(PAIRS, "table.py"), results], capture_output=True,
                         text=True, check=True).stdout
    if got != open(os.path.join(results, "table.md")).read():
        failures.append("table.py does not reproduce triton-pairs/table.md")
    data = table.read_results(results)
    compared = 0
    for row in table.comparison_rows(*data[:5]):
        for cell in (row[3], row[4]):
            if "/" not in cell:
                failures.append(f"{row[0]}: cell {cell!r}")
        bank, meas = row[3].split(" / "), row[4].split(" / ")
        plain = row[5].split(" / ")
        for what, b, m in (("Triton's", bank[0], meas[0]), ("suggested", bank[1], meas[1]), ("plain", plain[0], plain[1])):
            if b != "-":
                compared += 1
                if b != m:
                    failures.append(f"{row[0]} {what}: bankcheck {b} per tile, measured {m}")
        if row[8] != "identical":
            failures.append(f"{row[0]}: outputs {row[8]}")
    for row in table.detail_rows(data[0], data[1], data[3], data[4], data[5]):
        if row[3] == "layout":
            for cell in (row[4], row[5]):
                b, m = cell.split(" / ")
                if b != m:
                    failures.append(f"{row[0]} {row[1]}: per instruction bankcheck {b}, measured {m}")
    if compared != 41:  # 37 from the layouts, 4 from the captures of Triton's convert_layout
        failures.append(f"{compared} variants with a bankcheck count beside the measurement, expected 41")


def main():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, expected {want!r}")

    tmp = tempfile.mkdtemp()
    try:
        make(tmp)
        data = table.read_results(tmp)
        rows = {r[0]: r for r in table.comparison_rows(*data[:5])}
        dot, tr = rows["dotA_f16_64x64"], rows["trans_f32_32x32"]
        check("dot: bankcheck Triton's / suggested", dot[3], "192 / 192")
        check("dot: measured Triton's / suggested", dot[4], "192 / 192")
        check("dot: plain", dot[5], "1088 / 1088")
        check("dot: verdicts", dot[6:9], ["equal", "equal", "identical"])
        check("dot: Triton's layout", dot[1], "SwizzledSharedLayout(8, 1, 8, [1, 0])")
        check("transpose: Triton's from the capture", tr[1].endswith("[capture]"), True)
        check("transpose: bankcheck", tr[3], "64 / 64")
        check("transpose: measured", tr[4], "64 / 80")
        check("transpose: plain not comparable (stmatrix emitted, st.32 counted)", tr[5], "- / 1040")
        check("transpose: verdicts", tr[6:8], ["equal", "Triton's fewer"])
        check("transpose: outputs", tr[8], "wrong: triton=0, suggested=3, plain=0")
        detail = {(r[0], r[1]): r for r in table.detail_rows(data[0], data[1], data[3], data[4], data[5])}
        check("detail dot plain", detail[("dotA_f16_64x64", "plain")][2:],
              ["STS.128 / LDSM.16.M88.4", "layout", "4.00 / 4.00", "32.00 / 32.00", "16 / 32",
               "0 / 0.00 / 0.00; 7 / 7.00 / 7.00"])
        check("detail transpose triton", detail[("trans_f32_32x32", "triton")][3:6],
              ["capture", "1.00 / 1.00", "1.00 / 1.00"])
        check("detail transpose suggested: Triton's model / bankcheck / measured excess",
              detail[("trans_f32_32x32", "suggested")][7], "0 / 0.00 / 0.00; 0 / 0.00 / 0.50")
        check("detail transpose triton: no Triton count for its convert_layout",
              detail[("trans_f32_32x32", "triton")][7], "- / 0.00 / 0.00; - / 0.00 / 0.00")
        check("detail transpose plain", detail[("trans_f32_32x32", "plain")][2:4], ["STSM.16.M88.4 / LDS", "not comparable"])
        check("verdict lower is better", [table.verdict(5, 4), table.verdict(4, 5), table.verdict(None, 1)],
              ["suggestion fewer", "Triton's fewer", "-"])
    finally:
        shutil.rmtree(tmp)
    for kind in ("doubled", "extra"):  # ncu printing each block twice reads the same; a stray block is an error
        tmp = tempfile.mkdtemp()
        try:
            make(tmp, doubled=kind == "doubled", extra=kind == "extra")
            try:
                rows = {r[0]: r for r in table.comparison_rows(*table.read_results(tmp)[:5])}
                check(f"{kind}: measured", (rows["dotA_f16_64x64"][4], kind), ("192 / 192", "doubled"))
            except ValueError:
                check(f"{kind}: ValueError", kind, "extra")
        finally:
            shutil.rmtree(tmp)
    measured_run(failures)
    for f in failures:
        print("FAIL:", f)
    print("triton pairs table:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
