"""A PyTorch script whose kernels go through shared memory (layer norm,
softmax, sort, cumsum, histogram, top-k, column sums, float32 and float16
matrix products), for checking the source lines bankcheck gives captured
instructions against Nsight Compute's source page and for timing
`bankcheck report` on a whole script's capture (validate/lines/README.md).
PyTorch's and cuBLAS's kernels are shipped without line info as a rule:
then both tools must say so ("no line info"), never a nearby line.
Each result is checked against the CPU.

    python3 lines_torch.py       (prints "lines_torch: ok"; exit 1 if a result is wrong)
"""
import sys

import torch


def main():
    torch.manual_seed(0)
    x = torch.randn(512, 1024, device="cuda")
    ref = x.double().cpu()
    checks = {}
    ln = torch.nn.functional.layer_norm(x, (1024,))
    checks["layer_norm"] = torch.allclose(ln.double().cpu(), torch.nn.functional.layer_norm(ref, (1024,)), atol=1e-4)
    sm = torch.softmax(x, dim=1)
    checks["softmax"] = torch.allclose(sm.double().cpu(), torch.softmax(ref, dim=1), atol=1e-6)
    checks["sort"] = torch.equal(torch.sort(x, dim=1).values.cpu(), torch.sort(x.cpu(), dim=1).values)
    checks["cumsum"] = torch.allclose(torch.cumsum(x, dim=1).double().cpu(), torch.cumsum(ref, dim=1), atol=1e-2)
    hist = torch.histc(x, bins=64, min=-4, max=4)
    # a value on a bin's edge may round to either bin on the two devices
    checks["histc"] = float((hist.cpu() - torch.histc(x.cpu(), bins=64, min=-4, max=4)).abs().max()) <= 2
    top = torch.topk(x, 8, dim=1).values
    checks["topk"] = torch.equal(top.cpu(), torch.topk(x.cpu(), 8, dim=1).values)
    checks["sum"] = torch.allclose(x.sum(dim=0).double().cpu(), ref.sum(dim=0), atol=1e-3)
    a = x[:, :512]
    checks["mm_f32"] = torch.allclose((a @ a).double().cpu(), ref[:, :512] @ ref[:, :512], atol=1e-2, rtol=1e-3)
    h = a.half()
    checks["mm_f16"] = torch.allclose((h @ h).double().cpu(), h.double().cpu() @ h.double().cpu(), atol=0.5,
                                      rtol=1e-2)
    torch.cuda.synchronize()
    bad = [k for k, ok in checks.items() if not ok]
    print(f"lines_torch: {'ok' if not bad else 'WRONG: ' + ', '.join(bad)}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
