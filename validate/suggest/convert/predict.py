#!/usr/bin/env python3
"""Ask `bankcheck layout --suggest --from --to` for the conversions Triton's
convert_layout lowers with its own choice of instructions (the 64x64
transposes of validate/suggest/triton_pairs/cases.py, the 32x32 one and the
mma v2 epilogue), with
Triton's register layouts as linear.py converts them; write each suggestion
(text and JSON) under validate/suggest/convert/predictions/, then generate the
kernel that implements them (gen_kernel.py -> convert_kernels.cu). Run before
the GPU run; the files are committed with it.

  python3 validate/suggest/convert/predict.py [BANKCHECK]
"""
import json
import os
import subprocess
import sys

if not __package__:
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases, linear  # noqa: E402

CASES = ["trans_f32_64x64", "trans_f16_64x64", "trans_f32_32x32", "epilogue_f16_64x64"]
TYPES = {"fp32": "f32", "fp16": "fp16"}
HERE = os.path.dirname(os.path.abspath(__file__))


def command(bc, case):
    rows, cols = case["shape"]
    return [bc, "layout", "--suggest", "--tile", f"{rows}x{cols}", "--type", TYPES[case["dtype"]],
            "--from", linear.text(linear.bases(case["src"], case["shape"])),
            "--to", linear.text(linear.bases(case["dst"], case["shape"]))]


def main():
    bc = sys.argv[1] if len(sys.argv) > 1 else "build/bankcheck"
    out = os.path.join(HERE, "predictions")
    os.makedirs(out, exist_ok=True)
    gen = []
    for name in CASES:
        cmd = command(bc, cases.by_name()[name])
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
        gen.append(f"{name}={os.path.join(out, name + '.json')}")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_kernel.py"), os.path.join(HERE, "convert_kernels.cu")] + gen,
                   check=True)


if __name__ == "__main__":
    main()
