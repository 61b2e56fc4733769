"""The models of opforge.models at small shapes on the opforge device, random weights:
ResNet-18 and MobileNetV3-Small (batch 2, 32x32 images), a GPT-2-shaped decoder (2 layers,
d 64, 4 heads, sequence 16, vocabulary 128) and the DLRM-style model, in float32 and
bfloat16 against the CPU (torch.testing.assert_close at the dtype's default tolerances; in
bfloat16 with the judge's float64 second look: an element within them of the net computed in
float64, or the whole output within 2x the CPU's own RMS error against float64),
and a training step (loss, backward, SGD) of the decoder and DLRM against the same step on
the CPU. Each prints its coverage table (per overload and dtype: ATen calls on the chip and on
the CPU, kernel cycles) and asserts its on-chip share of ATen calls is at least the share
reached when the test was written (MIN_SHARE), so an op that drops back to the CPU fails it.

The kernels are the device's default library (OPFORGE_TEST_LIBRARY names another);
bench/models/bench_models.py runs larger shapes."""
import copy
import os
import unittest
import warnings

import torch

import opforge
from opforge import models

SMALL = dict(batch=2, image=32, seq=16, vocab=128, d=64, heads=4, layers=2)

# The on-chip share of ATen calls each run reached with the default kernels (chip calls /
# all calls); the remaining ones are named in the printed table.
MIN_SHARE = {
    ("resnet18", "forward"): 1.0,
    ("mobilenet_v3_small", "forward"): 1.0,
    ("gpt2", "forward"): 1.0,
    ("dlrm", "forward"): 1.0,
    ("gpt2", "training"): 1.0,
    ("dlrm", "training"): 1.0,
}


def close_to_either(out, ref, wide):
    """The judge's verdict on one output (docs/verification.md, "One call, one verdict"),
    for a whole net in bfloat16: every element within the dtype's default tolerances of the
    CPU's bfloat16 result or of the float64 result rounded to bfloat16; else the tensor as a
    whole when its RMS error against the float64 result is at most 2x (kFloat64RmsMultiplier)
    the CPU bfloat16 result's own. `wide` is the float64 result."""
    rtol, atol = 1.6e-2, 1e-5  # torch.testing's bfloat16 defaults
    o, r, w = out.double(), ref.double(), wide.to(out.dtype).double()
    ok = (o - r).abs() <= atol + rtol * r.abs()
    ok |= (o - w).abs() <= atol + rtol * w.abs()
    ok |= torch.isnan(o) & torch.isnan(r)
    if bool(ok.all()):
        return
    rms = lambda t: t.pow(2).mean().sqrt().item()  # noqa: E731
    mine, cpus = rms(o - wide.double()), rms(r - wide.double())
    if mine <= 2.0 * cpus:
        return
    bad = (~ok).nonzero()
    i = tuple(bad[0].tolist())
    raise AssertionError(f"{len(bad)} of {o.numel()} elements differ from both references "
                         f"(first at {i}: {o[i].item()} vs {r[i].item()} bfloat16, {w[i].item()} "
                         f"float64 rounded) and the RMS error against float64 is {mine:.3g}, "
                         f"more than 2x the CPU's {cpus:.3g}")


def to_device(example):
    return tuple(e.to("opforge") for e in example)


def cast(example, dtype):
    return tuple(e.to(dtype) if e.is_floating_point() else e for e in example)


def coverage(title, p):
    """The profile's coverage table: per overload and dtype, ATen calls on the chip and on
    the CPU and the kernel cycles; then the totals. Returns the on-chip share of calls."""
    calls = p.chip_calls + p.fallbacks
    rows = sorted(p.ops, key=lambda r: (-r["fallbacks"], -r["cycles"], r["op"]))
    width = max([len(r["op"]) for r in rows] + [10])
    lines = [f"\n{title}: {p.chip_calls}/{calls} ATen calls on the chip, {p.cycles} kernel cycles",
             f"  {'op':<{width}} {'dtype':<9} {'chip':>5} {'cpu':>5} {'cycles':>10}"]
    for r in rows:
        lines.append(f"  {r['op']:<{width}} {r['dtype']:<9} {r['chip_calls']:>5} "
                     f"{r['fallbacks']:>5} {r['cycles']:>10}")
    print("\n".join(lines))
    return p.chip_calls / calls if calls else 0.0


class Models(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        warnings.simplefilter("ignore")
        opforge.init(arch="mtia-2i", timing="functional",
                     library=os.environ.get("OPFORGE_TEST_LIBRARY") or None)

    def forward(self, name, dtype):
        net, example = models.build(name, **SMALL)
        net = net.to(dtype)
        example = cast(example, dtype)
        with torch.no_grad():
            ref = net(*example)
            dev = copy.deepcopy(net).to("opforge")
            with opforge.profile() as p:
                out = dev(*to_device(example)).cpu()
        if dtype == torch.bfloat16:
            # The judge's rule for one call (docs/verification.md, "float64 second look"),
            # for a whole net, against the same net (its bfloat16 weights and inputs) in
            # float64: a deep net's bfloat16 roundings land on other values when its ops
            # round where ATen's float32-accumulating kernels do not, and differences grow
            # layer by layer.
            with torch.no_grad():
                wide = copy.deepcopy(net).double()(*cast(example, torch.float64))
            close_to_either(out, ref, wide)
        else:
            torch.testing.assert_close(out, ref)
        on_chip = coverage(f"{name} {dtype} forward", p)
        self.assertGreater(p.cycles, 0)
        self.assertGreaterEqual(on_chip, MIN_SHARE[(name, "forward")] - 1e-9)
        return p

    def test_resnet18_float32(self):
        self.forward("resnet18", torch.float32)

    def test_resnet18_bfloat16(self):
        self.forward("resnet18", torch.bfloat16)

    def test_mobilenet_v3_small_float32(self):
        self.forward("mobilenet_v3_small", torch.float32)

    def test_mobilenet_v3_small_bfloat16(self):
        self.forward("mobilenet_v3_small", torch.bfloat16)

    def test_gpt2_float32(self):
        self.forward("gpt2", torch.float32)

    def test_gpt2_bfloat16(self):
        self.forward("gpt2", torch.bfloat16)

    def test_dlrm_float32(self):
        self.forward("dlrm", torch.float32)

    def test_dlrm_bfloat16(self):
        self.forward("dlrm", torch.bfloat16)

    def train_step(self, name):
        net, example = models.build(name, **SMALL)
        net.train()
        dev = copy.deepcopy(net).to("opforge")
        results = []
        for model, inputs in ((net, example), (dev, to_device(example))):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            opt.zero_grad()
            with opforge.profile() as p:
                loss = models.loss(name, model, inputs)
                loss.backward()
                opt.step()
            results.append((loss.detach().cpu(), [q.detach().cpu() for q in model.parameters()], p))
        (ref_loss, ref_params, _), (loss, params, p) = results
        torch.testing.assert_close(loss, ref_loss)
        for a, b in zip(params, ref_params):
            torch.testing.assert_close(a, b)
        on_chip = coverage(f"{name} training step", p)
        self.assertGreater(p.cycles, 0)
        self.assertGreaterEqual(on_chip, MIN_SHARE[(name, "training")] - 1e-9)

    def test_gpt2_training_step(self):
        self.train_step("gpt2")

    def test_dlrm_training_step(self):
        self.train_step("dlrm")


if __name__ == "__main__":
    unittest.main()
