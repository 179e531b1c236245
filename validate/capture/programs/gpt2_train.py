"""A training script of the GPT-2 kind, for validate/capture/scaling_on_gpu.sh.

Pure PyTorch, no network and no data files: a 4-layer GPT-2 of GPT-2 small's
width (768, 12 heads, the 50,257-token vocabulary, 1024 positions), random
token data, 3 AdamW steps under bf16 autocast, then a greedy generate() of 32
tokens. The seed is fixed; it prints each step's loss, the generated tokens
and checksums of the final logits, as exact hexadecimal floats, so that the
output of a plain run and of a run under capture can be compared byte for byte.

    python3 gpt2_train.py [--attention eager|sdpa] [--batch 8] [--seq 256] [--out FILE]

The results go to FILE (default: standard output), apart from what a tool
running the script prints.

Attention is GPT-2's own (eager: matmul, causal mask, softmax, matmul) by
default; `sdpa` uses torch's scaled_dot_product_attention (flash kernels).
"""
import argparse
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width, heads, attention):
        super().__init__()
        self.heads, self.attention = heads, attention
        self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
        self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

    def attend(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        if self.attention == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            a = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
            a = a.masked_fill(~mask, float("-inf")).softmax(dim=-1)
            y = a @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, c))

    def forward(self, x):
        x = x + self.attend(self.ln1(x))
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, layers=4, width=768, heads=12, vocab=50257, positions=1024, attention="eager"):
        super().__init__()
        self.tokens, self.positions = nn.Embedding(vocab, width), nn.Embedding(positions, width)
        self.blocks = nn.ModuleList(Block(width, heads, attention) for _ in range(layers))
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.tokens.weight  # tied, as in GPT-2

    def forward(self, idx):
        x = self.tokens(idx) + self.positions(torch.arange(idx.size(1), device=idx.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))

    @torch.no_grad()
    def generate(self, idx, steps):
        for _ in range(steps):
            logits = self(idx)[:, -1, :]
            idx = torch.cat([idx, logits.argmax(dim=-1, keepdim=True)], dim=1)
        return idx, logits


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--attention", choices=["eager", "sdpa"], default="eager")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--new-tokens", type=int, default=32)
    p.add_argument("--out", default="-")
    a = p.parse_args()
    out_file = sys.stdout if a.out == "-" else open(a.out, "w")

    def say(line):
        print(line, file=out_file, flush=True)

    torch.manual_seed(1234)
    dev = torch.device("cuda")
    model = GPT(attention=a.attention).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    data = torch.randint(0, 50257, (a.batch, a.seq + 1), device=dev)
    x, y = data[:, :-1], data[:, 1:]
    for step in range(a.steps):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x).float().view(-1, 50257), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        say(f"step {step} loss {loss.item().hex()}")
    model.eval()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        out, logits = model.generate(x[:1, :16], a.new_tokens)
    torch.cuda.synchronize()
    say("tokens " + " ".join(str(t) for t in out[0, 16:].tolist()))
    logits = logits.float()
    say(f"logits sum {logits.sum().item().hex()} abs {logits.abs().sum().item().hex()}")


if __name__ == "__main__":
    main()
