"""The layout pairs Triton 3.6 converts through shared memory, as data.

Plain Python (no Triton import), shared by the host side (predict.py, which
asks `bankcheck layout --suggest`, and table.py) and the GPU side (pairs.py,
which builds each pair as a Gluon kernel).

Each case is one conversion: a register layout SRC written to a shared tile,
read back in a register layout DST. The register layouts are the ones Triton's
own compiler chose for the plain Triton kernel named in `origin` (its TTGIR,
sm_90 target; triton_choice.txt), and so is `triton`, the shared layout it
chose: a swizzled_shared (vec, perPhase, maxPhase, order), or "convert" where
Triton lowers a convert_layout with a layout it picks inside the lowering (its
generic swizzling, not in the TTGIR; counted from a capture of the kernel).

Layout specs: ("blocked", size_per_thread, threads_per_warp, warps_per_cta,
order), ("mma2", warps_per_cta), ("dot", operand_index, mma_spec, k_width);
shared ("swizzled", vec, per_phase, max_phase, order).

`bankcheck` is the same pair as bankcheck's access kinds (docs/layout.md) on a
tile whose rows are the shared layout's slow dimension and whose columns its
contiguous one: `tile` (rows x cols of that view), `transposed` (the view is
the tensor's transpose: the tensor's dim 0 is contiguous), and the accesses:
a blocked layout of 16-byte row vectors whose warp covers consecutive rows
stores as `st.128` (vector 32 i + l, row-major); an mma v2 operand loaded by
ldmatrix is `ldmatrix.x4` (K contiguous) or `ldmatrix.x4.trans` (M or N
contiguous): 8x8 matrices of 16-byte rows, each a phase, so how Triton groups
them into instructions moves no wavefront; a blocked layout with one element
per lane and the lanes down a column loads as `ld.B,along=0`. `weight=2`: the
operand is loaded by two warps (the mma's warps along the other dimension each
load it), so the access runs twice per tile; the totals are per tile.
"""

BLK_F16_64 = ("blocked", [1, 8], [4, 8], [2, 1], [1, 0])   # 64 fp16 columns: 8 lanes a row
BLK_F16_32 = ("blocked", [1, 8], [8, 4], [2, 1], [1, 0])   # 32 fp16 columns: 4 lanes a row
BLK_F32_32 = ("blocked", [1, 4], [4, 8], [2, 1], [1, 0])   # 32 fp32 columns: 8 lanes a row
MMA_12 = ("mma2", [1, 2])
MMA_21 = ("mma2", [2, 1])
SW_8_1_8 = ("swizzled", 8, 1, 8, [1, 0])

CASES = [
    {"name": "dotA_f16_64x64", "dtype": "fp16", "shape": [64, 64], "num_warps": 2,
     "origin": "tl.dot fp16 M=N=K=64, num_warps=2 (mma v2): operand A",
     "src": BLK_F16_64, "dst": ("dot", 0, MMA_12, 2), "triton": SW_8_1_8,
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "dotB_f16_64x64", "dtype": "fp16", "shape": [64, 64], "num_warps": 2,
     "origin": "tl.dot fp16 M=N=K=64, num_warps=2 (mma v2): operand B",
     "src": BLK_F16_64, "dst": ("dot", 1, MMA_12, 2), "triton": SW_8_1_8,
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["st.128", "ldmatrix.x4.trans"]}},
    {"name": "dotA_f16_128x64", "dtype": "fp16", "shape": [128, 64], "num_warps": 2,
     "origin": "tl.dot fp16 M=128 N=K=64, num_warps=2 (mma v2): operand A",
     "src": BLK_F16_64, "dst": ("dot", 0, MMA_21, 2), "triton": SW_8_1_8,
     "bankcheck": {"tile": "128x64", "transposed": False, "accesses": ["st.128", "ldmatrix.x4"]}},
    {"name": "dotA_f16_64x32", "dtype": "fp16", "shape": [64, 32], "num_warps": 2,
     "origin": "tl.dot fp16 M=N=64 K=32, num_warps=2 (mma v2): operand A",
     "src": BLK_F16_32, "dst": ("dot", 0, MMA_12, 2), "triton": ("swizzled", 8, 2, 4, [1, 0]),
     "bankcheck": {"tile": "64x32", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "dotB_f16_64x32", "dtype": "fp16", "shape": [64, 32], "num_warps": 2,
     "origin": "tl.dot fp16 M=K=64 N=32, num_warps=2 (mma v2): operand B",
     "src": BLK_F16_32, "dst": ("dot", 1, MMA_21, 2), "triton": ("swizzled", 8, 2, 4, [1, 0]),
     "bankcheck": {"tile": "64x32", "transposed": False, "accesses": ["st.128", "ldmatrix.x4.trans,weight=2"]}},
    {"name": "dotA_f16_mnmajor_64x64", "dtype": "fp16", "shape": [64, 64], "num_warps": 2,
     "origin": "tl.dot fp16 M=N=K=64, A read M-contiguous (a_ptr + m + k*M), num_warps=2: operand A",
     "src": ("blocked", [8, 1], [8, 4], [1, 2], [0, 1]), "dst": ("dot", 0, MMA_12, 2),
     "triton": ("swizzled", 8, 1, 8, [0, 1]),
     "bankcheck": {"tile": "64x64", "transposed": True, "accesses": ["st.128", "ldmatrix.x4.trans,weight=2"]}},
    {"name": "dotA_tf32_64x32", "dtype": "fp32", "shape": [64, 32], "num_warps": 2,
     "origin": "tl.dot fp32 (tf32) M=N=64 K=32, num_warps=2 (mma v2): operand A",
     "src": BLK_F32_32, "dst": ("dot", 0, MMA_12, 1), "triton": ("swizzled", 4, 1, 8, [1, 0]),
     "bankcheck": {"tile": "64x32", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "dotA_f16_64x16", "dtype": "fp16", "shape": [64, 16], "num_warps": 2,
     "origin": "tl.dot fp16 M=N=64 K=16, num_warps=2 (mma v2): operand A",
     "src": ("blocked", [1, 8], [16, 2], [2, 1], [1, 0]), "dst": ("dot", 0, MMA_12, 2),
     "triton": ("swizzled", 8, 4, 2, [1, 0]),
     "bankcheck": {"tile": "64x16", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "dotA_i8_64x64", "dtype": "int8", "shape": [64, 64], "num_warps": 2,
     "origin": "tl.dot int8 M=N=K=64, num_warps=2 (mma v2): operand A",
     "src": ("blocked", [1, 16], [8, 4], [2, 1], [1, 0]), "dst": ("dot", 0, MMA_12, 4),
     "triton": ("swizzled", 16, 2, 4, [1, 0]),
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "dotA_tf32_64x16", "dtype": "fp32", "shape": [64, 16], "num_warps": 2,
     "origin": "tl.dot fp32 (tf32) M=N=64 K=16, num_warps=2 (mma v2): operand A",
     "src": ("blocked", [1, 4], [8, 4], [2, 1], [1, 0]), "dst": ("dot", 0, MMA_12, 1),
     "triton": ("swizzled", 4, 2, 4, [1, 0]),
     "bankcheck": {"tile": "64x16", "transposed": False, "accesses": ["st.128", "ldmatrix.x4,weight=2"]}},
    {"name": "epilogue_f16_64x64", "dtype": "fp16", "shape": [64, 64], "num_warps": 4,
     "origin": "convert_layout of an mma v2 result (fp16) to 16-byte row vectors, the epilogue before a store",
     "src": ("mma2", [4, 1]), "dst": ("blocked", [1, 8], [4, 8], [4, 1], [1, 0]),
     "triton": "convert",
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["stmatrix.x4", "ld.128"]}},
    {"name": "trans_f32_64x64", "dtype": "fp32", "shape": [64, 64], "num_warps": 4,
     "origin": "convert_layout of a 64x64 fp32 tile from row vectors to lanes down a column (a transpose)",
     "src": ("blocked", [1, 4], [2, 16], [4, 1], [1, 0]), "dst": ("blocked", [1, 1], [32, 1], [1, 4], [0, 1]),
     "triton": "convert",
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["st.128", "ld.32,along=0"]}},
    {"name": "trans_f16_64x64", "dtype": "fp16", "shape": [64, 64], "num_warps": 4,
     "origin": "convert_layout of a 64x64 fp16 tile from row vectors to lanes down a column (a transpose)",
     "src": ("blocked", [1, 8], [4, 8], [4, 1], [1, 0]), "dst": ("blocked", [1, 1], [32, 1], [1, 4], [0, 1]),
     "triton": "convert",
     "bankcheck": {"tile": "64x64", "transposed": False, "accesses": ["st.128", "ld.16,along=0"]}},
    {"name": "trans_f32_32x32", "dtype": "fp32", "shape": [32, 32], "num_warps": 4,
     "origin": "convert_layout of a 32x32 fp32 tile from lanes along a row to lanes down a column",
     "src": ("blocked", [1, 1], [1, 32], [4, 1], [1, 0]), "dst": ("blocked", [1, 1], [32, 1], [1, 4], [0, 1]),
     "triton": "convert",
     "bankcheck": {"tile": "32x32", "transposed": False, "accesses": ["st.32", "ld.32,along=0"]}},
]


def by_name():
    return {c["name"]: c for c in CASES}


def swizzle_to_cute(sw, rows, cols):
    """A swizzled_shared (vec, perPhase, maxPhase) on the rows x cols view as a CuTe
    Swizzle<B,M,S> on element offsets x = row * cols + col: row r's vector c/vec is
    XORed with (r / perPhase) % maxPhase (Triton's SwizzledSharedEncodingAttr).
    None where that is not a CuTe swizzle (non-powers of two, XOR beyond the row)."""
    _, vec, per_phase, max_phase, _ = sw
    def log2(v):
        return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None
    m, p, b, lc = log2(vec), log2(per_phase), log2(max_phase), log2(cols)
    if None in (m, p, b, lc) or vec * max_phase > cols:
        return None
    layout = f"({rows},{cols}):({cols},1)"
    if b == 0:
        return layout
    return f"Sw<{b},{m},{lc + p - m}> o _0 o {layout}"
