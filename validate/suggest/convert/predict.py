#!/usr/bin/env python3
"""Ask `bankcheck layout --suggest --from --to` for the conversions Triton's
convert_layout lowers with its own choice of instructions (the 64x64
transposes of validate/suggest/triton_pairs/cases.py, the 32x32 one and the
mma v2 epilogue), with
Triton's register layouts as linear.py converts them; write each suggestion
(text and JSON) under validate/suggest/convert/predictions/, from which
run_on_gpu.sh generates the kernels (gen_kernel.py). Also RANDOM
conversions: register layouts of random independent bases (9 in 10 of them
single coordinate bits, as blocked layouts have; seed 45), 4 warps, fp16,
f32 and int8, to hold more of bankcheck's instruction choices (and their
conflicts, where no layout avoids them) to the GPU. Run before the GPU run;
the files are committed with it.

  python3 validate/suggest/convert/predict.py [BANKCHECK]
"""
import json
import os
import random
import subprocess
import sys

if not __package__:
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases, linear  # noqa: E402

CASES = ["trans_f32_64x64", "trans_f16_64x64", "trans_f32_32x32", "epilogue_f16_64x64"]
TYPES = {"fp32": "f32", "fp16": "fp16"}
HERE = os.path.dirname(os.path.abspath(__file__))


RANDOM = 10


def command(bc, case):
    rows, cols = case["shape"]
    return [bc, "layout", "--suggest", "--tile", f"{rows}x{cols}", "--type", TYPES[case["dtype"]],
            "--from", linear.text(linear.bases(case["src"], case["shape"])),
            "--to", linear.text(linear.bases(case["dst"], case["shape"]))]


def random_bases(rng, rows, cols, warps):
    """n independent coordinate vectors (bit j: column bits first), split into registers, 5 lanes, warps."""
    cb, n = cols.bit_length() - 1, (rows * cols).bit_length() - 1
    basis, span = [], {0}
    while len(basis) < n:
        v = 1 << rng.randrange(n) if rng.random() < 0.9 else rng.randrange(1, 1 << n)
        if v in span:
            continue
        basis.append(v)
        span |= {x ^ v for x in span}
    coords = [[v >> cb, v & (cols - 1)] for v in basis]
    nreg = n - 5 - warps
    return {"register": coords[:nreg], "lane": coords[nreg:nreg + 5], "warp": coords[nreg + 5:]}


def random_commands(bc):
    rng = random.Random(45)
    out = []
    for k in range(RANDOM):
        ty, rows, cols = [("fp16", 64, 64), ("f32", 32, 64), ("int8", 64, 64)][k % 3]
        src, dst = random_bases(rng, rows, cols, 2), random_bases(rng, rows, cols, 2)
        out.append((f"rand{k}_{ty}_{rows}x{cols}", [bc, "layout", "--suggest", "--tile", f"{rows}x{cols}", "--type", ty,
                                                  "--from", linear.text(src), "--to", linear.text(dst)]))
    return out


def main():
    bc = sys.argv[1] if len(sys.argv) > 1 else "build/bankcheck"
    out = os.path.join(HERE, "predictions")
    os.makedirs(out, exist_ok=True)
    for name, cmd in [(n, command(bc, cases.by_name()[n])) for n in CASES] + random_commands(bc):
        text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        js = subprocess.run(cmd + ["--json"], check=True, capture_output=True, text=True).stdout
        shown = " ".join(f"'{c}'" if " " in c or "[" in c else c for c in ["bankcheck"] + cmd[1:])
        with open(os.path.join(out, f"{name}.txt"), "w") as f:
            f.write(f"$ {shown}\n{text}")
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            f.write(js)
        s = json.loads(js)
        print(f"{name}: {s['store']['instruction']} {s['store']['wavefronts']} + {s['load']['instruction']} "
              f"{s['load']['wavefronts']} = {s['suggestion']['wavefronts']} ({s['suggestion']['verdict']})")
        if not s["suggestion"]["offset_bases"]:
            print(f"  {name}: not linear, no kernel")


if __name__ == "__main__":
    main()
