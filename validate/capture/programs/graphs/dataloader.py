# A PyTorch DataLoader with two worker processes (forked after CUDA is
# initialised in the main process; the workers make batches on the CPU and
# never touch CUDA) feeding a GPU model, for validate/capture/graph_suite.sh.
# Every sample is made from its own index (a generator seeded by it), so the
# batches are the same in every run. Writes the outputs' bytes to RESULT and
# prints their SHA-256.
import hashlib
import sys

import torch
from torch.utils.data import DataLoader, Dataset

torch.set_grad_enabled(False)
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False


class Samples(Dataset):
    def __len__(self):
        return 96

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(1000 + i)
        return torch.randn(128, generator=g), i % 7


def main():
    model = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.LayerNorm(256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 16)).cuda().eval()
    loader = DataLoader(Samples(), batch_size=16, shuffle=False, num_workers=2)
    outs = []
    for x, label in loader:
        y = torch.softmax(model(x.cuda()), dim=-1) + label.cuda().unsqueeze(1)
        outs.append(y.cpu())
    data = b"".join(o.numpy().tobytes() for o in outs)
    with open(sys.argv[1], "wb") as f:
        f.write(data)
    print("sha256", hashlib.sha256(data).hexdigest())


if __name__ == "__main__":
    main()
