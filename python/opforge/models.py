"""Real model shapes for the opforge device: ResNet-18, MobileNetV3-Small, a GPT-2-shaped
decoder and a DLRM-style recommender, written here with random weights (seeded).

The convnets follow the published architectures layer for layer (torchvision's
`resnet18` and `mobilenet_v3_small`: same layers, channel counts, strides, activations
and parameter counts); they are defined here because the project's pinned torch has no
matching torchvision release on PyPI. Every model takes a `scale` of its input (image
side, sequence length, batch) so tests run small shapes and the bench the full ones.

    from opforge import models
    net, example = models.build("resnet18", batch=2, image=224)
    net(example)                        # CPU; net.to("opforge") runs it on the chip

`MODELS` lists the names; `build(name, **shape)` returns (module, example input) with
the module in eval mode; `loss(name, module, example)` is a scalar training loss.
"""

import math

import torch
from torch import nn
from torch.nn import functional as F

__all__ = ["MODELS", "build", "loss", "ResNet18", "MobileNetV3Small", "GptDecoder", "Dlrm"]


# ---------------------------------------------------------------- ResNet-18 -----------
class _BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class ResNet18(nn.Module):
    """He et al.'s 18-layer residual network for ImageNet (11.7 M parameters)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64),
                                  nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [_BasicBlock(cin, cout, stride), _BasicBlock(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


# ---------------------------------------------------------- MobileNetV3-Small --------
def _divisible(v, d=8):
    r = max(d, int(v + d / 2) // d * d)
    return r + d if r < 0.9 * v else r


class _SqueezeExcite(nn.Module):
    def __init__(self, c):
        super().__init__()
        s = _divisible(c // 4)
        self.fc1 = nn.Conv2d(c, s, 1)
        self.fc2 = nn.Conv2d(s, c, 1)

    def forward(self, x):
        w = F.adaptive_avg_pool2d(x, 1)
        return x * F.hardsigmoid(self.fc2(F.relu(self.fc1(w))))


class _InvertedResidual(nn.Module):
    def __init__(self, cin, k, exp, cout, se, hs, stride):
        super().__init__()
        act = nn.Hardswish if hs else nn.ReLU
        layers = []
        if exp != cin:
            layers += [nn.Conv2d(cin, exp, 1, bias=False), nn.BatchNorm2d(exp), act()]
        layers += [nn.Conv2d(exp, exp, k, stride, (k - 1) // 2, groups=exp, bias=False),
                   nn.BatchNorm2d(exp), act()]
        if se:
            layers.append(_SqueezeExcite(exp))
        layers += [nn.Conv2d(exp, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.block = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.block(x)
        return x + y if self.residual else y


class MobileNetV3Small(nn.Module):
    """Howard et al.'s MobileNetV3-Small (2.5 M parameters)."""

    # kernel, expansion, out channels, squeeze-excite, hardswish, stride
    CONFIG = ((3, 16, 16, True, False, 2), (3, 72, 24, False, False, 2),
              (3, 88, 24, False, False, 1), (5, 96, 40, True, True, 2),
              (5, 240, 40, True, True, 1), (5, 240, 40, True, True, 1),
              (5, 120, 48, True, True, 1), (5, 144, 48, True, True, 1),
              (5, 288, 96, True, True, 2), (5, 576, 96, True, True, 1),
              (5, 576, 96, True, True, 1))

    def __init__(self, num_classes=1000):
        super().__init__()
        layers = [nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish()]
        cin = 16
        for k, exp, cout, se, hs, stride in self.CONFIG:
            layers.append(_InvertedResidual(cin, k, exp, cout, se, hs, stride))
            cin = cout
        layers += [nn.Conv2d(cin, 576, 1, bias=False), nn.BatchNorm2d(576), nn.Hardswish()]
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Linear(576, 1024), nn.Hardswish(), nn.Dropout(0.2),
                                        nn.Linear(1024, num_classes))

    def forward(self, x):
        x = torch.flatten(F.adaptive_avg_pool2d(self.features(x), 1), 1)
        return self.classifier(x)


# ------------------------------------------------------- GPT-2-shaped decoder --------
class _DecoderBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // self.heads))
        att = torch.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GptDecoder(nn.Module):
    """GPT-2's decoder shape: token and position embeddings, pre-norm blocks of causal
    multi-head attention and a tanh-GELU MLP, final LayerNorm, LM head tied to the token
    embedding. GPT-2 small is vocab 50257, d 768, 12 heads, 12 layers, context 1024."""

    def __init__(self, vocab=50257, d=768, heads=12, layers=2, seq=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(_DecoderBlock(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, idx):
        t = idx.shape[1]
        pos = torch.arange(t, device=idx.device)
        # True above the diagonal: the positions a token may not attend to.
        mask = torch.ones(t, t, dtype=torch.bool, device=idx.device).triu(1)
        x = self.tok(idx) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x, mask)
        return self.ln(x) @ self.tok.weight.t()


# --------------------------------------------------------------- DLRM-style ----------
class Dlrm(nn.Module):
    """Naumov et al.'s DLRM: a bottom MLP over dense features, EmbeddingBag (sum) tables
    over sparse features, pairwise dot-product interaction, a top MLP to a click logit."""

    def __init__(self, dense=13, tables=8, rows=1000, dim=16, bottom=(64, 16), top=(64, 1)):
        super().__init__()
        assert bottom[-1] == dim
        self.bottom = self._mlp((dense,) + tuple(bottom))
        self.emb = nn.ModuleList(nn.EmbeddingBag(rows, dim, mode="sum") for _ in range(tables))
        n = tables + 1
        self.top = self._mlp((dim + n * (n - 1) // 2,) + tuple(top), last_relu=False)
        self.tables = tables
        self.rows = rows
        self.register_buffer("pairs", torch.tril_indices(n, n, -1), persistent=False)

    @staticmethod
    def _mlp(sizes, last_relu=True):
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if last_relu or i < len(sizes) - 2:
                layers.append(nn.ReLU())
        return nn.Sequential(*layers)

    def forward(self, dense, indices, offsets):
        x = self.bottom(dense)
        feats = [x] + [e(indices[i], offsets[i]) for i, e in enumerate(self.emb)]
        t = torch.stack(feats, dim=1)                       # batch, tables + 1, dim
        z = torch.bmm(t, t.transpose(1, 2))                 # all pairwise dot products
        inter = z[:, self.pairs[0], self.pairs[1]]           # the strictly lower triangle
        return self.top(torch.cat([x, inter], dim=1))


# ------------------------------------------------------------------ registry ---------
MODELS = ("resnet18", "mobilenet_v3_small", "gpt2", "dlrm")


def build(name, batch=2, image=224, seq=256, vocab=50257, d=768, heads=12, layers=2,
          bag=4, seed=0):
    """(module in eval mode, example input tuple) of model `name` with seeded random
    weights and inputs. image: side of the convnets' square RGB input; seq/vocab/d/
    heads/layers: the decoder's shape; bag: indices per EmbeddingBag bag (DLRM)."""
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    if name == "resnet18":
        net = ResNet18()
        example = (torch.randn(batch, 3, image, image, generator=g),)
    elif name == "mobilenet_v3_small":
        net = MobileNetV3Small()
        example = (torch.randn(batch, 3, image, image, generator=g),)
    elif name == "gpt2":
        net = GptDecoder(vocab=vocab, d=d, heads=heads, layers=layers, seq=seq)
        example = (torch.randint(0, vocab, (batch, seq), generator=g),)
    elif name == "dlrm":
        net = Dlrm()
        dense = torch.randn(batch, 13, generator=g)
        indices = torch.randint(0, net.rows, (net.tables, batch * bag), generator=g)
        offsets = torch.arange(0, batch * bag, bag).repeat(net.tables, 1)
        example = (dense, indices, offsets)
    else:
        raise ValueError(f"opforge.models: unknown model {name!r}; one of {', '.join(MODELS)}")
    if name in ("resnet18", "mobilenet_v3_small"):
        # Random running statistics, so eval-mode batch norm is not the identity.
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.normal_(0.0, 0.1, generator=g)
                m.running_var.uniform_(0.5, 1.5, generator=g)
    return net.eval(), example


def loss(name, net, example, out=None):
    """A scalar training loss of `net` on `example`: next-token cross entropy (gpt2),
    click binary cross entropy (dlrm), cross entropy against class 0 (convnets)."""
    out = net(*example) if out is None else out
    if name == "gpt2":
        idx = example[0]
        return F.cross_entropy(out[:, :-1].reshape(-1, out.shape[-1]), idx[:, 1:].reshape(-1))
    if name == "dlrm":
        target = (torch.arange(out.shape[0], device=out.device) % 2).to(out.dtype).view(-1, 1)
        return F.binary_cross_entropy_with_logits(out, target)
    return F.cross_entropy(out, torch.zeros(out.shape[0], dtype=torch.long, device=out.device))
