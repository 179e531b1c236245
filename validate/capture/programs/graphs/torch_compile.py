# A torch.compile(mode="reduce-overhead") model for validate/capture/graph_suite.sh:
# Inductor's Triton kernels and cuBLAS matmuls, launched through CUDA graphs
# (cudagraph trees record the compiled model after its warm-up and replay it
# on later calls). Six calls with new inputs; writes the outputs' bytes to
# RESULT and prints their SHA-256. One compile thread, so that the kernels
# are built in this process (the same in every run).
import hashlib
import os
import sys

os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
import torch  # noqa: E402

torch.set_grad_enabled(False)
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.up = torch.nn.Linear(width, 2 * width)
        self.down = torch.nn.Linear(2 * width, width)
        self.norm = torch.nn.LayerNorm(width)

    def forward(self, x):
        h = self.down(torch.nn.functional.gelu(self.up(self.norm(x))))
        return torch.softmax(x + h, dim=-1)


model = Block(256).cuda().eval()
compiled = torch.compile(model, mode="reduce-overhead")
generator = torch.Generator().manual_seed(1)
outs = []
for _ in range(6):
    x = torch.randn(64, 256, generator=generator).cuda()
    outs.append(compiled(x).clone())
torch.cuda.synchronize()
data = b"".join(o.cpu().numpy().tobytes() for o in outs)
with open(sys.argv[1], "wb") as f:
    f.write(data)
print("sha256", hashlib.sha256(data).hexdigest())
