# A Triton program for validate/capture/gpu_smoke.sh: a row-wise sum whose
# reduction Triton lowers through shared memory.
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError:
    print("torch/triton are not installed", file=sys.stderr)
    sys.exit(77)


@triton.jit
def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


x = torch.randn(64, 1024, device="cuda")
out = torch.empty(64, device="cuda")
row_sum[(64,)](x, out, 1024, BLOCK=1024)
torch.cuda.synchronize()
print(float((out - x.sum(1)).abs().max()))
