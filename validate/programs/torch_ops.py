"""PyTorch operations whose CUDA kernels use shared memory (reductions,
softmax, layer norm, sort, cumsum), for capture and per-instruction
comparison with Nsight Compute (validate/programs/run_compare.sh). Each
result is checked against a float64 reference on the CPU.

    python3 torch_ops.py sum|softmax|layer_norm|sort|cumsum
"""
import sys

import torch


def main(which):
    torch.manual_seed(0)
    x = torch.randn(256, 4096, device="cuda")
    ref = x.double().cpu()
    if which == "sum":
        # across rows and over everything: reductions that combine warps through shared memory
        # (a row sum, dim=1, stays within warps: no shared-memory access on the H100)
        ok = torch.allclose(x.sum(dim=0).double().cpu(), ref.sum(dim=0), atol=1e-3)
        ok = ok and abs(float(x.sum()) - float(ref.sum())) < 1e-1
    elif which == "softmax":
        ok = torch.allclose(torch.softmax(x, dim=1).double().cpu(), torch.softmax(ref, dim=1), atol=1e-6)
    elif which == "layer_norm":
        got = torch.nn.functional.layer_norm(x, (4096,)).double().cpu()
        ok = torch.allclose(got, torch.nn.functional.layer_norm(ref, (4096,)), atol=1e-4)
    elif which == "sort":
        ok = torch.equal(torch.sort(x, dim=1).values.cpu(), torch.sort(x.cpu(), dim=1).values)
    elif which == "cumsum":
        ok = torch.allclose(torch.cumsum(x, dim=1).double().cpu(), torch.cumsum(ref, dim=1), atol=1e-2)
    else:
        print(f"unknown op {which!r}", file=sys.stderr)
        return 2
    torch.cuda.synchronize()
    print(f"{which}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "sum"))
