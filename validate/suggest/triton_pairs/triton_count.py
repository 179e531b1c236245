#!/usr/bin/env python3
"""Triton's own bank-conflict count of each explicit variant, no GPU needed.

  triton_count.py [-o triton_counts.json]

Gluon's `bank_conflicts(distributed type, shared descriptor)` is the count
Triton's compiler itself uses: the excess accesses per wavefront of the
ld.shared/st.shared instructions it would emit for that register layout and
shared layout (its docstring; ldmatrix/stmatrix are not what it models). For
every case and variant with a shared layout (not Triton's convert_layout, whose
layout is not in the IR), it is evaluated at compile time for the store (SRC)
and the load (DST) and printed with static_print; this collects those numbers.
Needs Triton (3.6) installed; no torch, no GPU.
"""
import argparse
import json
import os
import re
import sys
import tempfile

import triton
from triton.backends.compiler import GPUTarget
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon._runtime import GluonASTSource

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases as C  # noqa: E402
from validate.suggest.triton_pairs import kernels as K  # noqa: E402


@gluon.jit
def count_kernel(x_ptr, R: ttgl.constexpr, COLS: ttgl.constexpr, SRC: ttgl.constexpr, SMEM: ttgl.constexpr,
                 DST: ttgl.constexpr):
    smem = ttgl.allocate_shared_memory(x_ptr.dtype.element_ty, [R, COLS], SMEM)
    st: ttgl.constexpr = ttgl.bank_conflicts(ttgl.distributed_type(x_ptr.dtype.element_ty, [R, COLS], SRC), smem.type)
    ld: ttgl.constexpr = ttgl.bank_conflicts(ttgl.distributed_type(x_ptr.dtype.element_ty, [R, COLS], DST), smem.type)
    ttgl.static_print("TRITON_BANK_CONFLICTS", st, ld)


def count(case, smem):
    R, COLS = case["shape"]
    ptr = "*" + {"int8": "i8"}.get(case["dtype"], case["dtype"])
    src = GluonASTSource(count_kernel, {"x_ptr": ptr, "R": "constexpr", "COLS": "constexpr", "SRC": "constexpr",
                                        "SMEM": "constexpr", "DST": "constexpr"},
                         constexprs={"R": R, "COLS": COLS, "SRC": K.distributed(case["src"]), "SMEM": K.shared(smem),
                                     "DST": K.distributed(case["dst"])})
    r, w = os.pipe()  # static_print writes to the process's stdout
    saved = os.dup(1)
    os.dup2(w, 1)
    try:
        with tempfile.TemporaryDirectory() as cache:  # a fresh cache: static_print runs only when compiling
            os.environ["TRITON_CACHE_DIR"] = cache
            triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": case["num_warps"]})
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(w)
    text = os.read(r, 1 << 20).decode()
    os.close(r)
    m = re.search(r"TRITON_BANK_CONFLICTS (\d+) (\d+)", text)
    if not m:
        raise RuntimeError(f"no count printed: {text[:200]}")
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "triton_counts.json"))
    a = ap.parse_args()
    preds = K.predictions()
    out = {}
    for case in C.CASES:
        for v in K.VARIANTS:
            lay = K.variant_layout(case, v, preds)
            if isinstance(lay, str) or lay[0] is None:
                continue
            st, ld = count(case, lay[0])
            out[f"{case['name']}.{v}"] = {"store_excess": st, "load_excess": ld}
            print(f"{case['name']:24} {v:10} store {st}  load {ld}")
    with open(a.output + ".tmp", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    os.replace(a.output + ".tmp", a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
