"""torch.compile(model, backend="opforge"): TorchInductor generates Triton kernels for the
opforge device during the test; opforge compiles them and runs the output module's call()
on the chip (GEMM and convolution through the kernel library). Outputs are checked against
the same computation on the CPU (torch.testing.assert_close at the dtype's tolerances; in
bfloat16 the judge's float64 second look, as test_models does), for small functions and
for the models of opforge.models (float32 and bfloat16 inference, and a training step),
with the coverage shares printed beside Triton for MTIA's figures. A kernel opforge cannot
compile makes its graph run eagerly, with a warning naming the construct, kernel and line.
"""
import copy
import os
import re
import unittest
import warnings

import torch
import torch.nn.functional as F

import opforge
from opforge import inductor, models
from test_models import cast, close_to_either, to_device
from test_training import CONVNET_SHAPES, close, step, train_mode
from test_training import SHAPES as TRAIN_SHAPES


# 16x16 images: the convnets' compiled forwards stay well under a minute each in CI.
SMALL = dict(batch=2, image=16, seq=16, vocab=128, d=64, heads=4, layers=1)


def compiled(fn):
    torch._dynamo.reset()
    return torch.compile(fn, backend="opforge")


class Compile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        warnings.simplefilter("ignore")
        opforge.init(arch="mtia-2i", timing="functional",
                     library=os.environ.get("OPFORGE_TEST_LIBRARY") or None)

    def setUp(self):
        inductor.reset_coverage()

    def test_fused_pointwise_reduction_and_matmul(self):
        def f(x, y, w):
            h = F.gelu(x @ y + 1.0)
            return h.sum(dim=1), torch.softmax(x, -1), F.layer_norm(x, (64,), w, w), x.var(0)

        g = torch.Generator().manual_seed(0)
        args = [torch.randn(64, 64, generator=g), torch.randn(64, 64, generator=g),
                torch.randn(64, generator=g)]
        ref = f(*args)
        with opforge.profile() as p:
            out = compiled(f)(*to_device(args))
        for a, b in zip(out, ref):
            torch.testing.assert_close(a.cpu(), b, rtol=2e-5, atol=2e-5)
        cov = inductor.coverage()
        print(inductor.format_coverage(cov, "fused function"))
        triton_ops = [o for o in p.ops if o["op"].startswith("triton::")]
        self.assertGreaterEqual(len(triton_ops), 2)
        self.assertTrue(all(o["cycles"] > 0 for o in triton_ops), triton_ops)
        self.assertEqual(p.fallbacks, 0)
        self.assertGreater(cov["nodes"]["triton"], 0)
        self.assertGreater(cov["cycles"]["library"], 0)  # the mm: extern_kernels.mm
        self.assertEqual(cov["nodes"]["cpu"], 0)
        self.assertEqual(cov["eager_graphs"], [])

    def test_bfloat16_pointwise_and_reduction(self):
        def f(x):
            return (torch.sigmoid(x) * x).sum(-1), torch.tanh(x).amax(0)

        x = torch.randn(32, 48, generator=torch.Generator().manual_seed(1)).bfloat16()
        ref = f(x)
        out = compiled(f)(x.to("opforge"))
        for a, b in zip(out, ref):
            torch.testing.assert_close(a.cpu(), b)
        self.assertGreater(inductor.coverage()["nodes"]["triton"], 0)

    def compiled_matches(self, f, args, rtol, atol):
        # Every output of f compiled for opforge equals the CPU's, with no graph run eagerly
        # and no node on the CPU; returns the helpers the kernels called.
        ref = f(*args)
        out = compiled(f)(*to_device(args))
        for i, (a, b) in enumerate(zip(out, ref)):
            torch.testing.assert_close(a.cpu(), b, rtol=rtol, atol=atol, msg=lambda m: f"output {i}: {m}")
        cov = inductor.coverage()
        self.assertEqual(cov["eager_graphs"], [])
        self.assertEqual(cov["nodes"]["cpu"], 0, cov)
        source = "".join(m[0] for m in inductor.captured_modules())
        return set(re.findall(r"triton_helpers\.(\w+)", source))

    def test_scans_and_index_reductions(self):
        # Scans (cumsum, cummax: tl.associative_scan and triton_helpers.select_one), arg
        # reductions, welford, any/all, prod and logsumexp in one looped reduction.
        def f(x):
            return (torch.cumsum(x, 1), x.argmax(1), x.argmin(0), torch.var_mean(x, 1),
                    (x > 2).any(1), (x > -3).all(0), x.sum(), torch.where(x > 0, x, x.exp() - 1).mean(0),
                    torch.logsumexp(x, 1), x.prod(1), torch.cummax(x, 1)[0], torch.special.erf(x),
                    F.softplus(x), x.clamp(-1, 1) ** 3, torch.remainder(x, 0.7))

        x = torch.randn(8, 2048, generator=torch.Generator().manual_seed(0)) * 0.1 + 0.01
        helpers = self.compiled_matches(lambda x: torch.utils._pytree.tree_leaves(f(x)), [x], 1e-4, 1e-4)
        self.assertLessEqual({"select_one", "max_with_index", "min_with_index", "welford", "prod"}, helpers)

    def test_sort_search_and_bit_helpers(self):
        # torch.sort, bucketize/searchsorted (with a sorter too), nextafter, frexp (subnormals too) and arg
        # reductions with ties: bit-exact. (frexp of a bfloat16 input tensor: Inductor drops the
        # rounding of x.bfloat16() and takes frexp of the float32 value.)
        def f(x, b, y, xb, shuffled, order):
            tiny = x * 1e-39
            return (torch.bucketize(x, b), torch.bucketize(x, b, right=True), torch.searchsorted(b, x),
                    torch.searchsorted(shuffled, x, sorter=order, right=True),
                    torch.nextafter(x, y), torch.nextafter(x.bfloat16(), y.bfloat16()),
                    *torch.frexp(x), *torch.frexp(tiny), *torch.frexp(xb),
                    *torch.sort(x, dim=1, stable=True), torch.sort(x.round(), dim=1, descending=True, stable=True)[1],
                    x.round().argmax(1), x.round().argmin(1))

        g = torch.Generator().manual_seed(0)
        x = torch.randn(8, 64, generator=g) * 3
        y = torch.randn(8, 64, generator=g)
        x[0, :5] = torch.tensor([0.0, -0.0, float("inf"), 1.0, 2.0])
        y[0, :5] = torch.tensor([-0.0, 1.0, 0.0, 1.0, -float("inf")])
        x[1, :3] = torch.tensor([-2.0, 0.5, 4.0])  # on boundaries
        b = torch.linspace(-4, 4, 17)
        shuffled = b[torch.randperm(17, generator=g)]
        helpers = self.compiled_matches(f, [x, b, y, x.bfloat16(), shuffled, torch.argsort(shuffled)], 0, 0)
        self.assertLessEqual({"sort_with_index", "bucketize_binary_search", "nextafter", "frexp"}, helpers)

    def test_mode_and_options_reach_inductor(self):
        # torch.compile hands mode= and options= to a named backend as keyword arguments
        # (mode="max-autotune" raised TypeError from compile_fx before they became config
        # patches).
        def f(x, y):
            return torch.relu(x @ y) + 1.0

        x = torch.randn(32, 32, generator=torch.Generator().manual_seed(4))
        for kwargs in (dict(mode="max-autotune"), dict(options={"max_autotune": False})):
            torch._dynamo.reset()
            out = torch.compile(f, backend="opforge", **kwargs)(x.to("opforge"), x.to("opforge"))
            torch.testing.assert_close(out.cpu(), f(x, x))
        self.assertEqual(inductor.coverage()["eager_graphs"], [])

    def test_dropout_draws_its_mask_on_the_chip(self):
        # Inductor seeds its random kernels with aten.randint.low_out(-2**63, 2**63, ...)
        # in the output module; the graph must run compiled, not eagerly.
        def f(x):
            return torch.nn.functional.dropout(x, 0.5, training=True) * 3.0

        x = torch.rand(64, 64, generator=torch.Generator().manual_seed(3)) + 1.0
        out = compiled(f)(x.to("opforge")).cpu()
        cov = inductor.coverage()
        self.assertEqual(cov["eager_graphs"], [])
        self.assertGreater(cov["nodes"]["triton"], 0)
        kept = out != 0
        torch.testing.assert_close(out[kept], (x * 6.0)[kept])
        self.assertGreater(kept.float().mean().item(), 0.4)
        self.assertLess(kept.float().mean().item(), 0.6)

    def forward(self, name, dtype):
        net, example = models.build(name, **SMALL)
        net = net.to(dtype)
        example = cast(example, dtype)
        with torch.no_grad():
            ref = net(*example)
            dev = copy.deepcopy(net).to("opforge")
            out = compiled(dev)(*to_device(example)).cpu()
        if dtype == torch.bfloat16:
            with torch.no_grad():
                wide = copy.deepcopy(net).double()(*cast(example, torch.float64))
            close_to_either(out, ref, wide)
        else:
            torch.testing.assert_close(out, ref)
        cov = inductor.coverage()
        print(inductor.format_coverage(cov, f"{name} {dtype} compiled forward"))
        self.assertGreater(cov["node_share"]["triton"], 0.0)
        self.assertEqual(cov["nodes"]["cpu"], 0, cov)
        self.assertEqual(cov["eager_graphs"], [])
        return cov

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

    def train_step(self, name, dtype=torch.float32):
        # test_training's step and verdict (the dtype's tolerances of the CPU step or of the
        # float64 step, else the RMS rule), with the loss function compiled.
        shapes = dict(TRAIN_SHAPES, **CONVNET_SHAPES.get(name, {}))
        net, example = models.build(name, **shapes)
        train_mode(net)
        net = net.to(dtype)
        example = cast(example, dtype)
        dev = copy.deepcopy(net).to("opforge")
        wide = copy.deepcopy(net).double()
        ref_loss, ref_grads = step(name, net, example)
        wide_loss, wide_grads = step(name, wide, cast(example, torch.float64))
        torch._dynamo.reset()
        fn = torch.compile(lambda *a: models.loss(name, dev, a), backend="opforge")
        dev.zero_grad()
        loss = fn(*to_device(example))
        loss.backward()
        close(loss.detach().cpu(), ref_loss, wide_loss, f"{name} compiled loss")
        for (n, q), r, w in zip(dev.named_parameters(), ref_grads, wide_grads):
            close(q.grad.cpu(), r, w, f"{name} compiled gradient of {n}")
        for (n, b), r, w in zip(dev.named_buffers(), net.buffers(), wide.buffers()):
            if b.is_floating_point():
                close(b.cpu(), r, w, f"{name} compiled buffer {n}")
        cov = inductor.coverage()
        print(inductor.format_coverage(cov, f"{name} compiled training step"))
        self.assertGreaterEqual(cov["calls"], 2)  # the forward and the backward graph
        self.assertGreater(cov["node_share"]["triton"], 0.0)
        self.assertEqual(cov["nodes"]["cpu"], 0, cov)
        self.assertEqual(cov["eager_graphs"], [])

    def test_gpt2_training_step(self):
        self.train_step("gpt2")

    def test_dlrm_training_step(self):
        self.train_step("dlrm")

    def test_gpt2_training_step_bfloat16(self):
        self.train_step("gpt2", torch.bfloat16)

    def test_dlrm_training_step_bfloat16(self):
        self.train_step("dlrm", torch.bfloat16)

    def test_resnet18_training_step(self):
        self.train_step("resnet18")

    def test_mobilenet_v3_small_training_step(self):
        self.train_step("mobilenet_v3_small")

    def test_a_kernel_opforge_cannot_compile_runs_its_graph_eagerly(self):
        # An Inductor construct opforge does not have, put into the first kernel of the
        # module Inductor writes: the graph runs eagerly, with a warning naming it.
        def bad(source):
            return source.replace("tmp0 = tl.load(", "tmp0 = tl.unknown_builtin(0) + tl.load(", 1)

        def f(x):
            return torch.relu(x) * 2.0

        x = torch.randn(16, 16, generator=torch.Generator().manual_seed(2))
        inductor._source_filter = bad
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = compiled(f)(x.to("opforge")).cpu()
        finally:
            inductor._source_filter = None
        torch.testing.assert_close(out, f(x))
        cov = inductor.coverage()
        self.assertEqual(len(cov["eager_graphs"]), 1, cov)
        reason = cov["eager_graphs"][0]["reason"]
        print(reason)
        self.assertIn("unknown_builtin", reason)
        self.assertIn("triton_poi_fused", reason)  # the kernel
        self.assertRegex(reason, r":\d+")  # the line
        self.assertTrue(any("runs eagerly" in str(w.message) for w in caught))


if __name__ == "__main__":
    unittest.main()
