"""Library and framework kernels that move tiles through shared memory
(cp.async in every form cuBLAS, CUTLASS, FlashAttention-2 and
Triton emit; wgmma and TMA), for capture and per-instruction
comparison with Nsight Compute (validate/library/run_library.sh). Every
result is checked against a float64 reference on the CPU, on fresh random
inputs (never zeros).

    python3 library_kernels.py CASE      (CASE: see CASES below; `list` prints them)
"""
import os
import sys

import torch
import torch.nn.functional as F

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]


def rel_err(got, ref):
    got = got.double().cpu()
    return float((got - ref).norm() / ref.norm())


def matmul(m, n, k, dtype, batch=None):
    def run():
        torch.backends.cuda.matmul.allow_tf32 = False  # float32 stays float32 (cuBLAS sm80 xmma f32 kernels)
        shape_a = (batch, m, k) if batch else (m, k)
        shape_b = (batch, k, n) if batch else (k, n)
        a = torch.randn(*shape_a, device="cuda", dtype=dtype)
        b = torch.randn(*shape_b, device="cuda", dtype=dtype)
        c = torch.matmul(a, b)
        ref = torch.matmul(a.double().cpu(), b.double().cpu())
        return rel_err(c, ref) < (1e-5 if dtype == torch.float32 else 1e-2)
    return run


def sdpa(backend, dtype=torch.float16, seq=512, head=64):
    def run():
        from torch.nn.attention import SDPBackend, sdpa_kernel
        q, k, v = (torch.randn(2, 8, seq, head, device="cuda", dtype=dtype) for _ in range(3))
        with sdpa_kernel(getattr(SDPBackend, backend)):
            o = F.scaled_dot_product_attention(q, k, v)
        ref = F.scaled_dot_product_attention(q.double().cpu(), k.double().cpu(), v.double().cpu())
        return rel_err(o, ref) < 1e-2
    return run


def matmul_transposed(m, n, k):
    """float32 A stored transposed (a column-major view): another cuBLAS layout (TN)."""
    def run():
        torch.backends.cuda.matmul.allow_tf32 = False
        a = torch.randn(k, m, device="cuda").t()
        b = torch.randn(k, n, device="cuda")
        c = torch.matmul(a, b)
        return rel_err(c, torch.matmul(a.double().cpu(), b.double().cpu())) < 1e-5
    return run


def sdpa_backward(backend, dtype=torch.float16, seq=256, head=64):
    """The attention backward pass (FlashAttention-2's and CUTLASS's backward kernels), gradients checked."""
    def run():
        from torch.nn.attention import SDPBackend, sdpa_kernel
        q, k, v = (torch.randn(2, 4, seq, head, device="cuda", dtype=dtype, requires_grad=True) for _ in range(3))
        g = torch.randn(2, 4, seq, head, device="cuda", dtype=dtype)
        with sdpa_kernel(getattr(SDPBackend, backend)):
            F.scaled_dot_product_attention(q, k, v).backward(g)
        qd, kd, vd = (t.detach().double().cpu().requires_grad_() for t in (q, k, v))
        F.scaled_dot_product_attention(qd, kd, vd).backward(g.double().cpu())
        return all(rel_err(t.grad, r.grad) < 2e-2 for t, r in ((q, qd), (k, kd), (v, vd)))
    return run


def conv(dtype):
    def run():
        torch.backends.cudnn.allow_tf32 = False
        x = torch.randn(8, 64, 56, 56, device="cuda", dtype=dtype)
        w = torch.randn(128, 64, 3, 3, device="cuda", dtype=dtype)
        y = F.conv2d(x, w, padding=1)
        ref = F.conv2d(x.double().cpu(), w.double().cpu(), padding=1)
        return rel_err(y, ref) < (1e-5 if dtype == torch.float32 else 1e-2)
    return run


def triton_matmul(stages, bm=64, bn=64, bk=32, warps=4):
    def run():
        # the kernel of validate/programs/triton_kernels.py, here at other tile sizes and pipeline depths
        from validate.programs.triton_kernels import matmul_kernel

        M = N = K = 1024
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        matmul_kernel[(M // bm, N // bn)](a, b, c, M, N, K, BM=bm, BN=bn, BK=bk, num_warps=warps, num_stages=stages)
        return rel_err(c, a.double().cpu() @ b.double().cpu()) < 1e-2
    return run


def triton_attention(stages):
    def run():
        import triton
        import triton.language as tl

        @triton.jit
        def attn_fwd_kernel(q, k, v, o, S, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
            pid_m, bh = tl.program_id(0), tl.program_id(1)
            base = bh * S * D
            rm = pid_m * BM + tl.arange(0, BM)
            rd = tl.arange(0, D)
            qt = tl.load(q + base + rm[:, None] * D + rd[None, :])
            m_i = tl.full((BM,), float("-inf"), tl.float32)
            l_i = tl.zeros((BM,), tl.float32)
            acc = tl.zeros((BM, D), tl.float32)
            for start in range(0, S, BN):
                rn = start + tl.arange(0, BN)
                kt = tl.load(k + base + rn[None, :] * D + rd[:, None])
                s = tl.dot(qt, kt) * scale
                m_new = tl.maximum(m_i, tl.max(s, 1))
                p = tl.exp(s - m_new[:, None])
                alpha = tl.exp(m_i - m_new)
                l_i = l_i * alpha + tl.sum(p, 1)
                vt = tl.load(v + base + rn[:, None] * D + rd[None, :])
                acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
                m_i = m_new
            tl.store(o + base + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(tl.float16))

        B, H, S, D = 2, 4, 512, 64
        q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        attn_fwd_kernel[(S // 64, B * H)](q, k, v, o, S, D ** -0.5, D=D, BM=64, BN=64, num_warps=4, num_stages=stages)
        ref = F.scaled_dot_product_attention(q.double().cpu(), k.double().cpu(), v.double().cpu())
        return rel_err(o, ref) < 1e-2
    return run


def script():
    """A PyTorch script of many launches (the compare test's): cuBLAS,
    cuDNN, SDPA, reductions, sorts, unique, median."""
    x = torch.randn(64, 256, 256, device="cuda")
    ok = True
    for i in range(4):
        y = torch.matmul(x, x.transpose(1, 2)) / 256
        y = torch.softmax(y, dim=-1)
        ok = ok and bool(torch.isfinite(y).all())
        s = y.sum(dim=0)
        ok = ok and rel_err(s, y.double().cpu().sum(dim=0)) < 1e-5
        m = y.median()
        u = torch.unique((y * 16).int())
        ok = ok and u.numel() > 0 and bool(torch.isfinite(m))
        z = F.conv2d(x[:8].unsqueeze(1).half(), torch.randn(16, 1, 3, 3, device="cuda", dtype=torch.float16), padding=1)
        ok = ok and bool(torch.isfinite(z).all())
        q = x[:2].reshape(2, 4, 256, 64).half()
        a = F.scaled_dot_product_attention(q, q, q)
        ok = ok and bool(torch.isfinite(a).all())
        srt = torch.sort(x.flatten()[:100000]).values
        ok = ok and bool((srt[1:] >= srt[:-1]).all())
        ok = ok and abs(float(torch.cumsum(x.flatten(), 0)[-1]) - float(x.double().sum())) < 1.0
    return ok


CASES = {
    "mm_f32_512": matmul(512, 512, 512, torch.float32),
    "mm_f32_1024": matmul(1024, 1024, 1024, torch.float32),
    "mm_f32_odd": matmul(768, 320, 1000, torch.float32),
    "bmm_f32": matmul(256, 256, 256, torch.float32, batch=8),
    "mm_f16_1024": matmul(1024, 1024, 1024, torch.float16),
    "mm_bf16_2048": matmul(2048, 2048, 2048, torch.bfloat16),
    "sdpa_efficient": sdpa("EFFICIENT_ATTENTION"),
    "sdpa_flash": sdpa("FLASH_ATTENTION"),
    "sdpa_cudnn": sdpa("CUDNN_ATTENTION"),
    "sdpa_flash_bwd": sdpa_backward("FLASH_ATTENTION"),
    "sdpa_efficient_bwd": sdpa_backward("EFFICIENT_ATTENTION"),
    "mm_f32_tn": matmul_transposed(640, 384, 512),
    "conv_f16": conv(torch.float16),
    "conv_f32": conv(torch.float32),
    "triton_mm_s2": triton_matmul(2),
    "triton_mm_s3": triton_matmul(3),
    "triton_mm_s4": triton_matmul(4),
    "triton_mm_big": triton_matmul(3, bm=128, bn=128, bk=64, warps=8),
    "triton_attn_s2": triton_attention(2),
    "triton_attn_s3": triton_attention(3),
    "script": script,
}


def main(which):
    if which == "list":
        print("\n".join(CASES))
        return 0
    if which not in CASES:
        print(f"unknown case {which!r}; one of: {' '.join(CASES)}", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    ok = CASES[which]()
    torch.cuda.synchronize()
    print(f"{which}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "list"))
