"""A GPT-2-shaped decoder (token and position embeddings, pre-norm blocks of causal
multi-head attention and a GELU MLP, a tied LM head), small shapes, random weights:
the forward pass on opforge tensors matches the CPU; prints the share of ATen calls
and the kernel cycles that ran on the chip."""
import copy
import math
import unittest

import torch
from torch import nn

import opforge


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // self.heads))
        mask = torch.ones(t, t, dtype=torch.bool).tril().to(x.device)
        att = torch.softmax(att.masked_fill(~mask, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.proj(y)
        return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, layers=2, seq=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t).to(idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.ln(x) @ self.tok.weight.t()


class GptDecoder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="lt")

    def test_forward_matches_cpu(self):
        torch.manual_seed(0)
        cpu = Gpt().eval()
        dev = copy.deepcopy(cpu).to("opforge")
        idx = torch.randint(0, 64, (2, 16))
        with torch.no_grad():
            ref = cpu(idx)
            with opforge.profile() as p:
                out = dev(idx.to("opforge"))
        torch.testing.assert_close(out.cpu(), ref)
        self.assertGreater(p.chip_calls, 0)
        calls = p.chip_calls + p.fallbacks
        print(f"\nGPT-2-shaped decoder (2 layers, d 32, 4 heads, seq 16, batch 2): "
              f"{p.chip_calls}/{calls} ATen calls on the chip "
              f"({100.0 * p.chip_calls / calls:.0f}%), {p.cycles} kernel cycles")
        for row in sorted(p.ops, key=lambda r: -r["calls"]):
            print(f"  {row['op']:<32} {row['dtype']:<8} calls {row['calls']:>3}  "
                  f"chip {row['chip_calls']:>3}  cycles {row['cycles']}")

    def test_training_step_matches_cpu(self):
        torch.manual_seed(1)
        cpu = Gpt()
        dev = copy.deepcopy(cpu).to("opforge")
        idx, tgt = torch.randint(0, 64, (2, 16)), torch.randint(0, 64, (2, 16))

        def step(model, i, t):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(i).view(-1, 64), t.view(-1))
            loss.backward()
            opt.step()
            return loss

        ref = step(cpu, idx, tgt)
        with opforge.profile() as p:
            loss = step(dev, idx.to("opforge"), tgt.to("opforge"))
        torch.testing.assert_close(loss.cpu(), ref.detach())
        for (name, a), b in zip(dev.named_parameters(), cpu.parameters()):
            torch.testing.assert_close(a.detach().cpu(), b.detach(), msg=name)
        calls = p.chip_calls + p.fallbacks
        self.assertGreater(p.chip_calls, calls // 2, p.ops)
        print(f"\nGPT-2-shaped decoder training step: {p.chip_calls}/{calls} ATen calls on the "
              f"chip ({100.0 * p.chip_calls / calls:.0f}%), {p.cycles} kernel cycles; on the CPU: "
              + ", ".join(f"{r['op']} x{r['fallbacks']}" for r in p.ops if r["fallbacks"]))


if __name__ == "__main__":
    unittest.main()
