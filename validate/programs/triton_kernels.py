"""Triton kernels that stage data in shared memory, for capture and
per-instruction comparison with Nsight Compute (validate/programs/
run_compare.sh). Each result is checked against PyTorch.

    python3 triton_kernels.py transpose|softmax|matmul
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x, y, n, BLOCK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    tile = tl.load(x + rm[:, None] * n + rn[None, :])
    tl.store(y + rn[:, None] * n + rm[None, :], tl.trans(tile))


@triton.jit
def softmax_kernel(x, y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        w = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, w)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


def main(which):
    torch.manual_seed(0)
    dev = "cuda"
    if which == "transpose":
        n = 1024
        x = torch.randn(n, n, device=dev)
        y = torch.empty_like(x)
        transpose_kernel[(n // 64, n // 64)](x, y, n, BLOCK=64)
        ok = torch.equal(y, x.t())
    elif which == "softmax":
        x = torch.randn(512, 1000, device=dev)
        y = torch.empty_like(x)
        softmax_kernel[(512,)](x, y, 1000, BLOCK=1024)
        ok = torch.allclose(y, torch.softmax(x, dim=1), atol=1e-6)
    elif which == "matmul":
        # small tiles: on sm_90 Triton then uses mma.sync with ldmatrix (not wgmma)
        M = N = K = 512
        a = torch.randn(M, K, device=dev, dtype=torch.float16)
        b = torch.randn(K, N, device=dev, dtype=torch.float16)
        c = torch.empty(M, N, device=dev, dtype=torch.float32)
        matmul_kernel[(M // 32, N // 32)](a, b, c, M, N, K, BM=32, BN=32, BK=32, num_warps=4)
        ok = torch.allclose(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    else:
        print(f"unknown kernel {which!r}", file=sys.stderr)
        return 2
    torch.cuda.synchronize()
    print(f"{which}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "transpose"))
