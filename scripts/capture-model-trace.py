#!/usr/bin/env python3
"""capture-model-trace.py - record the ATen calls of a small model's forward pass.

Runs a small NanoGPT-style, DLRM-style or MLP model (defined here, random
weights, fixed seed) under a TorchDispatchMode with the project venv's torch
(requirements.txt pins 2.15.0) and writes every ATen call in call order as
JSON: the overload ("aten::mm"), and each argument as a call spec
(docs/scenarios.md): scalars, lists, None, dtypes as {"dtype_value"}, tensors
as {"shape", "dtype"} plus where the tensor came from, so a replay chains the
data between calls:
  - "from": [K, J] - output J (outputs flattened in order) of call K;
  - "input": N - the N-th tensor that no recorded call produced (a parameter
    or a model input); every use of the same tensor carries the same N.
Integer tensors record the value range they held ("low"/"high"); integer and
bool inputs of at most 4096 elements also record their "values" (indices,
offsets), so a replay sees the same ones. Each call lists its outputs'
shapes and dtypes ("outputs").

Sizes are parameters (each has a default per model; the trace records the
values it was captured at under "params"):
  --batch B    sequences (nanogpt), samples (dlrm), groups of 4 rows (mlp)
  --seq S      nanogpt: tokens per sequence (also the context length)
  --width W    nanogpt: n_embd; dlrm: embedding dim; mlp: input features
  --heads H    nanogpt: attention heads (must divide W)
  --layers L   nanogpt: transformer blocks
  --vocab V    nanogpt: vocabulary size
--params '{"batch": 1, "seq": 64, "width": 768}' gives the same as JSON (the
form the harness passes for a trace workload's "params").

usage: .venv/bin/python scripts/capture-model-trace.py {nanogpt,dlrm,mlp} [SIZES] --out scenarios/traces/NAME.json
(the shipped traces: dlrm and mlp at their defaults; nanogpt at GPT-2-small
width: --batch 1 --seq 64 --width 768 --heads 12 --layers 2).
"""
import argparse
import json
import math
import sys

try:
    import torch
except ImportError:
    sys.exit("capture-model-trace.py: no torch in %s; run it with the project venv's python "
             "(.venv/bin/python; 'bash scripts/install-deps.sh' creates it)" % sys.executable)
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

DTYPES = {
    torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
    torch.float64: "float64", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}


INTEGRAL = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8)
MAX_VALUES = 4096


def tensor_spec(v):
    s = {"shape": list(v.shape), "dtype": DTYPES.get(v.dtype, str(v.dtype))}
    if v.dtype in INTEGRAL and v.numel():
        s["low"] = int(v.min())
        s["high"] = int(v.max()) + 1
    return s


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in flatten(o)]
    return []


def spec(v, sources=None):
    """The call spec of an argument; `sources` maps id(tensor) to its origin."""
    if isinstance(v, torch.Tensor):
        s = tensor_spec(v)
        if sources is not None:
            s.update(sources.origin(v))
        return s
    if isinstance(v, torch.dtype):
        return {"dtype_value": DTYPES.get(v, str(v))}
    if isinstance(v, (list, tuple)):
        return [spec(x, sources) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (torch.device, torch.layout, torch.memory_format)):
        return str(v).replace("torch.", "")
    return str(v)


class Recorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []
        self.origins = {}  # id(tensor) -> {"from": [call, output]} or {"input": n}
        self.alive = []    # keeps every seen tensor alive, so ids are not reused
        self.inputs = 0

    def origin(self, t):
        o = self.origins.get(id(t))
        if o is None:
            o = {"input": self.inputs}
            self.inputs += 1
            if (t.dtype in INTEGRAL or t.dtype == torch.bool) and t.numel() <= MAX_VALUES:
                o["values"] = [int(x) for x in t.reshape(-1).tolist()]
            self.origins[id(t)] = o
            self.alive.append(t)
        return o

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func._schema.name
        if func._overloadname != "default":
            name += "." + func._overloadname
        call = {"op": name, "args": [spec(a, self) for a in args],
                "kwargs": {k: spec(v, self) for k, v in kwargs.items()}}
        out = func(*args, **kwargs)
        outs = flatten(out)
        call["outputs"] = [tensor_spec(t) for t in outs]
        for j, t in enumerate(outs):
            # An in-place or out= call returns its argument: its latest producer wins.
            self.origins[id(t)] = {"from": [len(self.calls), j]}
            self.alive.append(t)
        self.calls.append(call)
        return out


class Block(nn.Module):
    """One pre-norm transformer block: causal self-attention and an MLP."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, 4 * dim)
        self.out = nn.Linear(4 * dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (c // self.heads) ** 0.5)
        mask = torch.tril(torch.ones(t, t, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class NanoGPT(nn.Module):
    def __init__(self, vocab=256, ctx=32, dim=64, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


class DLRM(nn.Module):
    """Bottom MLP over dense features, embedding tables for sparse ones, dot
    interaction, top MLP, sigmoid."""

    def __init__(self, dense=13, tables=4, rows=1000, dim=16):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(dense, 64), nn.ReLU(), nn.Linear(64, dim), nn.ReLU())
        self.emb = nn.ModuleList([nn.EmbeddingBag(rows, dim, mode="sum") for _ in range(tables)])
        n = tables + 1
        self.top = nn.Sequential(nn.Linear(dim + n * (n - 1) // 2, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, dense, idx, offsets):
        x = self.bottom(dense)
        feats = [x] + [e(idx[i], offsets[i]) for i, e in enumerate(self.emb)]
        z = torch.stack(feats, dim=1)
        inter = torch.bmm(z, z.transpose(1, 2))
        n = z.shape[1]
        li, lj = torch.tril_indices(n, n, offset=-1)
        flat = inter[:, li, lj]
        return torch.sigmoid(self.top(torch.cat([x, flat], dim=1)))


class MLP(nn.Module):
    """Two linear layers with a ReLU between and a softmax over the classes:
    a short trace (the chained-replay test checks its final output)."""

    def __init__(self, dim=32, hidden=64, classes=16):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return F.softmax(self.fc2(F.relu(self.fc1(x))) * 0.5, dim=-1)


# The size parameters of each model and their defaults (the sizes the traces had
# before they were parameters).
PARAMS = {
    "nanogpt": {"batch": 2, "seq": 32, "width": 64, "heads": 4, "layers": 2, "vocab": 256},
    "dlrm": {"batch": 2, "width": 16},
    "mlp": {"batch": 2, "width": 32},
}


def sizes(model, given):
    """The model's parameters: defaults overridden by `given`; a name the model
    does not take or a value that is not a positive integer is an error."""
    p = dict(PARAMS[model])
    for k, v in given.items():
        if v is None:
            continue
        if k not in p:
            sys.exit("capture-model-trace.py: %s takes no parameter '%s' (it takes %s)"
                     % (model, k, ", ".join(sorted(p))))
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            sys.exit("capture-model-trace.py: parameter '%s' must be a positive integer, not %r" % (k, v))
        p[k] = v
    if model == "nanogpt" and p["width"] % p["heads"]:
        sys.exit("capture-model-trace.py: nanogpt: heads (%d) must divide width (%d)" % (p["heads"], p["width"]))
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", choices=sorted(PARAMS))
    ap.add_argument("--out", required=True)
    for name in ("batch", "seq", "width", "heads", "layers", "vocab"):
        ap.add_argument("--" + name, type=int)
    ap.add_argument("--params", help="the sizes as a JSON object")
    a = ap.parse_args()
    given = {}
    if a.params:
        try:
            given = json.loads(a.params)
        except ValueError as e:
            sys.exit("capture-model-trace.py: --params: %s" % e)
        if not isinstance(given, dict):
            sys.exit("capture-model-trace.py: --params: expected a JSON object")
    for name in ("batch", "seq", "width", "heads", "layers", "vocab"):
        if getattr(a, name) is not None:
            given[name] = getattr(a, name)
    p = sizes(a.model, given)
    torch.manual_seed(0)
    if a.model == "nanogpt":
        m = NanoGPT(vocab=p["vocab"], ctx=p["seq"], dim=p["width"], heads=p["heads"],
                    layers=p["layers"]).eval()
        inputs = (torch.randint(0, p["vocab"], (p["batch"], p["seq"])),)
        desc = ("NanoGPT-style decoder: vocab %d, context %d, dim %d, %d heads, %d layers; batch %d"
                % (p["vocab"], p["seq"], p["width"], p["heads"], p["layers"], p["batch"]))
    elif a.model == "mlp":
        m = MLP(dim=p["width"]).eval()
        inputs = (torch.randn(p["batch"] * 4, p["width"]),)
        desc = ("MLP: %d -> 64 (ReLU) -> 16, softmax of half the logits; batch %d"
                % (p["width"], p["batch"] * 4))
    else:
        m = DLRM(dim=p["width"]).eval()
        per_bag = 3
        b = p["batch"]
        inputs = (torch.randn(b, 13),
                  torch.randint(0, 1000, (4, b * per_bag)),
                  torch.arange(0, b * per_bag, per_bag).repeat(4, 1))
        desc = ("DLRM-style recommender: 13 dense features, 4 tables x 1000 rows x %d, MLPs 64; batch %d"
                % (p["width"], b))
    rec = Recorder()
    with torch.no_grad(), rec:
        m(*inputs)
    doc = {"model": a.model, "description": desc, "params": p,
           "torch_version": torch.__version__, "calls": rec.calls}
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("%s: %d ATen calls -> %s" % (a.model, len(rec.calls), a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
