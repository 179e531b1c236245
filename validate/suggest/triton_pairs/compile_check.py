#!/usr/bin/env python3
"""Compile every case and variant of the Triton pairs for sm_90, no GPU needed.

  compile_check.py [--ir DIR]

Prints, per case and variant, the shared-memory instructions of the PTX
Triton generates (ld/st.shared with their widths, ldmatrix, stmatrix), so
that the accesses named in cases.py can be checked against what Triton emits
before the GPU run; --ir writes each variant's PTX as DIR/CASE.VARIANT.ptx,
as the GPU run's ir/ holds it. Needs Triton (3.6) installed; no torch.
"""
import argparse
import collections
import os
import re
import sys

from triton.backends.compiler import GPUTarget
from triton.compiler import compile as triton_compile
from triton.experimental.gluon._runtime import GluonASTSource

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases as C  # noqa: E402
from validate.suggest.triton_pairs import kernels as K  # noqa: E402

SHARED = re.compile(r"\b(ldmatrix[\w.]*|stmatrix[\w.]*|st\.shared[\w.]*|ld\.shared[\w.]*)")
SIG = {"x_ptr": None, "y_ptr": None, "R": "constexpr", "COLS": "constexpr", "SRC": "constexpr",
       "SMEM": "constexpr", "DST": "constexpr", "CONVERT": "constexpr"}


def compile_variant(case, variant, preds, ir=None):
    v = K.variant_layout(case, variant, preds)
    if isinstance(v, str):
        return v
    smem, convert = v
    R, COLS = case["shape"]
    ptr = "*" + {"int8": "i8"}.get(case["dtype"], case["dtype"])
    sig = dict(SIG, x_ptr=ptr, y_ptr=ptr)
    consts = {"R": R, "COLS": COLS, "SRC": K.distributed(case["src"]), "DST": K.distributed(case["dst"]),
              "SMEM": K.shared(smem or ("swizzled", 1, 1, 1, [1, 0])), "CONVERT": convert}
    src = GluonASTSource(K.pair_kernel, sig, constexprs=consts,
                         attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]})
    k = triton_compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": case["num_warps"]})
    if ir:
        with open(os.path.join(ir, f"{case['name']}.{variant}.ptx"), "w") as f:
            f.write(k.asm["ptx"])
    counts = collections.Counter(SHARED.findall(k.asm["ptx"]))
    return ", ".join(f"{n} x{c}" for n, c in sorted(counts.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ir")
    a = ap.parse_args()
    if a.ir:
        os.makedirs(a.ir, exist_ok=True)
    preds = K.predictions()
    bad = 0
    for case in C.CASES:
        for variant in K.VARIANTS:
            try:
                print(f"{case['name']:24} {variant:10} {compile_variant(case, variant, preds, a.ir)}", flush=True)
            except Exception as e:  # one case's failure does not hide the others
                bad += 1
                print(f"{case['name']:24} {variant:10} error: {type(e).__name__}: {str(e)[:300]}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
