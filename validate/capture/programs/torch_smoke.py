# A PyTorch program for validate/capture/gpu_smoke.sh: a softmax and a
# matrix product (cuBLAS/cuDNN kernels that use shared memory), run as
# `bankcheck capture -- python3 torch_smoke.py`. Nothing is expected of the
# addresses; the capture must be complete and the traces must replay.
import sys

try:
    import torch
except ImportError:
    print("torch is not installed", file=sys.stderr)
    sys.exit(77)
if not torch.cuda.is_available():
    print("no GPU for torch", file=sys.stderr)
    sys.exit(1)
x = torch.randn(256, 256, device="cuda")
y = torch.softmax(x, dim=1) @ x
torch.cuda.synchronize()
print(float(y.sum()))
