"""The Gluon pair kernel and the layouts of cases.py, importing Triton only
(no torch): pairs.py runs them on the GPU, compile_check.py compiles them for
sm_90 without one."""
import json
import os

import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl

HERE = os.path.dirname(os.path.abspath(__file__))

VARIANTS = ("triton", "suggested", "plain")


def distributed(spec):
    kind = spec[0]
    if kind == "blocked":
        return ttgl.BlockedLayout(list(spec[1]), list(spec[2]), list(spec[3]), list(spec[4]))
    if kind == "mma2":
        return ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=list(spec[1]), instr_shape=[16, 8])
    if kind == "dot":
        return ttgl.DotOperandLayout(operand_index=spec[1], parent=distributed(spec[2]), k_width=spec[3])
    raise ValueError(f"unknown register layout {spec}")


def shared(spec):
    _, vec, per_phase, max_phase, order = spec
    return ttgl.SwizzledSharedLayout(vec, per_phase, max_phase, list(order))


@gluon.jit
def pair_kernel(x_ptr, y_ptr, R: ttgl.constexpr, COLS: ttgl.constexpr, SRC: ttgl.constexpr,
                SMEM: ttgl.constexpr, DST: ttgl.constexpr, CONVERT: ttgl.constexpr):
    base = ttgl.program_id(0) * R * COLS
    r = ttgl.arange(0, R, layout=ttgl.SliceLayout(1, SRC))
    c = ttgl.arange(0, COLS, layout=ttgl.SliceLayout(0, SRC))
    x = ttgl.load(x_ptr + base + r[:, None] * COLS + c[None, :])
    if CONVERT:
        y = ttgl.convert_layout(x, DST)
    else:
        smem = ttgl.allocate_shared_memory(x_ptr.dtype.element_ty, [R, COLS], SMEM, x)
        y = smem.load(DST)
    r2 = ttgl.arange(0, R, layout=ttgl.SliceLayout(1, DST))
    c2 = ttgl.arange(0, COLS, layout=ttgl.SliceLayout(0, DST))
    ttgl.store(y_ptr + base + r2[:, None] * COLS + c2[None, :], y)


def predictions():
    path = os.path.join(HERE, "predictions.json")
    return {p["name"]: p for p in json.load(open(path))}


def variant_layout(case, variant, preds):
    """(shared spec or None, convert flag), or a string saying why the variant is not run."""
    order = [0, 1] if case["bankcheck"]["transposed"] else [1, 0]
    if variant == "plain":
        return ("swizzled", 1, 1, 1, order), False
    if variant == "triton":
        return (None, True) if case["triton"] == "convert" else (case["triton"], False)
    g = preds.get(case["name"], {}).get("gluon")
    return (g, False) if g else "not expressible as a SwizzledSharedLayout"


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, TA: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    if TA:
        a = tl.load(a_ptr + rm[:, None] + rk[None, :] * M)
    else:
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))
