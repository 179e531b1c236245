#!/usr/bin/env python3
"""A Triton transpose whose layout conversion goes through shared memory.

  triton_transpose.py [N] [REPS]

Loads 64 x 64 fp32 blocks coalesced along rows and stores them coalesced
along the transposed rows: tl.trans makes Triton convert the register layout
through shared memory, with the swizzle its own compiler chooses. Prints the
median time (torch.cuda.Event) and the number of wrong elements. There is no
"suggested" variant: plain Triton exposes no knob for the shared layout of a
convert_layout (only Gluon's SwizzledSharedLayout does); run_cases.sh
measures Triton's own choice and what `bankcheck suggest` says of its capture.
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_r * BLOCK + tl.arange(0, BLOCK)
    cols = pid_c * BLOCK + tl.arange(0, BLOCK)
    tile = tl.load(x_ptr + rows[:, None] * n + cols[None, :])
    tl.store(y_ptr + cols[:, None] * n + rows[None, :], tl.trans(tile))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    x = torch.arange(n * n, device="cuda", dtype=torch.float32).reshape(n, n) % 1000003
    y = torch.zeros_like(x)
    grid = (n // 64, n // 64)
    transpose_kernel[grid](x, y, n, BLOCK=64)
    torch.cuda.synchronize()
    wrong = int((y != x.t()).sum().item())
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        transpose_kernel[grid](x, y, n, BLOCK=64)
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    print(f"case=triton_transpose variant=triton n={n} median_ms={times[len(times) // 2]:.4f} wrong={wrong} "
          f"triton={triton.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
