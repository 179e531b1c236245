"""Triton kernels that stage data in shared memory, for checking the source
lines bankcheck gives captured instructions against Nsight Compute's source
page (validate/lines/README.md). Triton writes line info into its cubins
pointing at this file. Each MARK comment names a line whose operation goes
through shared memory; the checker reads them, never bankcheck's output.

`column_kernel` is written in Gluon (Triton's layout-explicit dialect): it
stores a 32 x 32 float tile into an unswizzled shared buffer by rows and
loads it back by columns, so each load's 32 lanes read 32 words 128 bytes
apart, all in one bank (32-way). The plain Triton kernels (a transpose of
float32 and int8 tiles, a column sum, a column prefix sum, an FMA dot) get
their shared-memory layouts from the compiler; whatever conflicts ncu
measures on them is checked too. Each result is compared with PyTorch.

    python3 lines_triton.py          (prints one line per kernel; exit 1 if any result is wrong)
"""
import sys

import torch
import triton
import triton.language as tl

try:  # Gluon is experimental: without it, the plain kernels still run (and the script says so)
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
except ImportError:
    gluon = None

if gluon is not None:
    @gluon.jit
    def column_kernel(x, y, N: gl.constexpr):
        rows: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
        cols: gl.constexpr = gl.BlockedLayout([1, 1], [32, 1], [1, 4], [0, 1])
        r = gl.arange(0, N, layout=gl.SliceLayout(1, rows))
        c = gl.arange(0, N, layout=gl.SliceLayout(0, rows))
        tile = gl.load(x + r[:, None] * N + c[None, :])
        smem = gl.allocate_shared_memory(gl.float32, [N, N], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]))
        smem.store(tile)  # MARK: gluon row store
        t = smem.load(cols)  # MARK: gluon column load
        r2 = gl.arange(0, N, layout=gl.SliceLayout(1, cols))
        c2 = gl.arange(0, N, layout=gl.SliceLayout(0, cols))
        gl.store(y + r2[:, None] * N + c2[None, :], t)


@triton.jit
def trans_kernel(x, y, N: tl.constexpr):
    r = tl.arange(0, N)
    tile = tl.load(x + r[:, None] * N + r[None, :])
    tl.store(y + r[:, None] * N + r[None, :], tl.trans(tile))  # MARK: triton transpose


@triton.jit
def colsum_kernel(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    tile = tl.load(x + r[:, None] * N + c[None, :])
    tl.store(y + c, tl.sum(tile, axis=0))  # MARK: triton column sum


@triton.jit
def cumsum_kernel(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    tile = tl.load(x + r[:, None] * N + c[None, :])
    tl.store(y + r[:, None] * N + c[None, :], tl.cumsum(tile, axis=0))  # MARK: triton column prefix sum


@triton.jit
def fmadot_kernel(a, b, c, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])  # MARK: triton dot operand a
        w = tl.load(b + (k + rk)[:, None] * BN + rn[None, :])  # MARK: triton dot operand b
        acc += tl.dot(x, w, input_precision="ieee")  # MARK: triton fma dot
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)


def main():
    torch.manual_seed(0)
    dev = "cuda"
    results = {}
    if gluon is not None:
        x = torch.randn(32, 32, device=dev)
        y = torch.empty_like(x)
        column_kernel[(1,)](x, y, 32, num_warps=4)
        results["column_kernel"] = torch.equal(y, x)
    else:
        print("column_kernel: skipped: no triton.experimental.gluon")
    x = torch.randn(64, 64, device=dev)
    y = torch.empty_like(x)
    trans_kernel[(1,)](x, y, 64, num_warps=4)
    results["trans_kernel f32"] = torch.equal(y, x.t())
    x8 = torch.randint(-100, 100, (64, 64), device=dev, dtype=torch.int8)
    y8 = torch.empty_like(x8)
    trans_kernel[(1,)](x8, y8, 64, num_warps=4)
    results["trans_kernel i8"] = torch.equal(y8, x8.t())
    x = torch.randn(256, 32, device=dev)
    y = torch.empty(32, device=dev)
    colsum_kernel[(1,)](x, y, 256, 32, num_warps=4)
    results["colsum_kernel"] = torch.allclose(y, x.sum(dim=0), atol=1e-4)
    x = torch.randn(128, 32, device=dev)
    y = torch.empty_like(x)
    cumsum_kernel[(1,)](x, y, 128, 32, num_warps=4)
    results["cumsum_kernel"] = torch.allclose(y, x.cumsum(dim=0), atol=1e-4)
    a = torch.randn(32, 64, device=dev)
    b = torch.randn(64, 32, device=dev)
    c = torch.empty(32, 32, device=dev)
    fmadot_kernel[(1,)](a, b, c, 64, 32, 32, 32, num_warps=4)
    results["fmadot_kernel"] = torch.allclose(c, a @ b, atol=1e-3, rtol=1e-3)
    torch.cuda.synchronize()
    for name, ok in results.items():
        print(f"{name}: {'ok' if ok else 'WRONG'}")
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
