#!/usr/bin/env python3
"""inductor_triton_diff.py - Inductor's modules on opforge against real Triton's interpreter.

torch.compile(backend="opforge") graphs whose kernels call Inductor's triton_helpers (scans,
sort, bucketize, nextafter, frexp, arg reductions, welford, ...) run on the opforge device
(opforge's own triton_helpers, compiled and run by opforge). The same output modules then
run in a child process under real Triton's interpreter (TRITON_INTERPRET=1, CPU tensors)
with torch's own triton_helpers: each kernel launched once per .run() of the module at
one block size per kernel, the module's Python part as Inductor wrote it. The outputs of
the two must agree bit for bit (integers, bools, the bit helpers) or within 1e-5.

  inductor_triton_diff.py            run both sides, exit status 1 on a difference
"""
import os
import pickle
import subprocess
import sys
import tempfile

CASES = ["scans", "bits"]


def case_fn(name):
    import torch
    import torch.nn.functional as F

    if name == "scans":
        def f(x):
            return (torch.cumsum(x, 1), x.argmax(1), x.argmin(0), *torch.var_mean(x, 1), (x > 0.2).any(1),
                    x.prod(1), torch.cummax(x, 1)[0], torch.logsumexp(x, 1), F.softplus(x))
        x = torch.randn(8, 512, generator=torch.Generator().manual_seed(0)) * 0.1 + 0.01
        return f, [x], 1e-5
    if name == "bits":
        def f(x, b, shuffled, order, y):  # the order of first use: the module's arguments
            return (torch.bucketize(x, b), torch.bucketize(x, b, right=True),
                    torch.searchsorted(shuffled, x, sorter=order), torch.nextafter(x, y), *torch.frexp(x),
                    *torch.frexp(x * 1e-39), *torch.sort(x, dim=1, stable=True),
                    torch.sort(x.round(), dim=1, descending=True, stable=True)[1], x.round().argmax(1))
        g = torch.Generator().manual_seed(0)
        x = torch.randn(8, 64, generator=g) * 3
        y = torch.randn(8, 64, generator=g)
        x[0, :4] = torch.tensor([0.0, -0.0, float("inf"), 1.0])
        y[0, :4] = torch.tensor([-0.0, 1.0, 0.0, 1.0])
        b = torch.linspace(-4, 4, 17)
        shuffled = b[torch.randperm(17, generator=g)]
        return f, [x, b, shuffled, torch.argsort(shuffled), y], 0.0
    raise KeyError(name)


def run_opforge(out_path):
    import warnings

    import torch

    import opforge
    from opforge import inductor

    warnings.simplefilter("ignore")
    opforge.init(arch="mtia-2i", timing="functional")
    results = {}
    for name in CASES:
        f, args, tol = case_fn(name)
        torch._dynamo.reset()
        inductor.reset_coverage()
        before = len(inductor.captured_modules())
        out = torch.compile(f, backend="opforge")(*[a.to("opforge") for a in args])
        eager = inductor.coverage()["eager_graphs"]
        modules = [m[0] for m in inductor.captured_modules()[before:]]
        results[name] = dict(out=[o.cpu() for o in out], modules=modules, eager=eager)
    with open(out_path, "wb") as fh:
        pickle.dump(results, fh)


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


class Launcher:
    """One Inductor kernel: `.run(*args, stream=)` launches it in Triton's interpreter."""

    def __init__(self, fn, kind, meta):
        self.fn, self.kind, self.meta = fn, kind, meta

    def run(self, *args, stream=None):
        names = [n for n in self.fn.arg_names if n not in ("XBLOCK", "YBLOCK", "R0_BLOCK")]
        values = dict(zip(names, args))
        xnumel = values.get("xnumel", 1)
        blocks = {}
        if "R0_BLOCK" in self.fn.arg_names:
            blocks["R0_BLOCK"] = min(1024, next_pow2(values["r0_numel"]))
        if "XBLOCK" in self.fn.arg_names:
            blocks["XBLOCK"] = 1 if self.kind != "pointwise" else min(1024, next_pow2(xnumel))
        grid_type = self.meta.get("inductor_meta", {}).get("grid_type", "Grid1D")
        if grid_type != "Grid1D" or "YBLOCK" in self.fn.arg_names:
            raise NotImplementedError(f"grid {grid_type}")
        grid = ((xnumel + blocks.get("XBLOCK", 1) - 1) // blocks.get("XBLOCK", 1),)
        self.fn[grid](*args, **blocks)


class Heuristics:
    """Stands in for triton_heuristics: the decorators keep the jit function and their fields."""

    def __getattr__(self, kind):
        return lambda **meta: (lambda fn: Launcher(fn, kind, meta))


def load_kernel(name, source, device_str=None):
    import torch._inductor.runtime.triton_helpers as triton_helpers

    source = source.replace("from torch._inductor.runtime import triton_helpers, triton_heuristics\n", "")
    source = source.replace("triton_helpers.set_driver_to_gpu()", "")
    source = source.replace("from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math",
                            "from triton.language import math as tl_math")
    path = os.path.join(KERNEL_DIR, name + ".py")  # @triton.jit reads the function's file
    with open(path, "w") as fh:
        fh.write(source)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import inductor_interp_libdevice as libdevice

    scope = {"triton_helpers": triton_helpers, "triton_heuristics": Heuristics(), "libdevice": libdevice,
             "__file__": path}
    exec(compile(source, path, "exec"), scope)
    return scope[name]


def run_triton(in_path):
    import torch

    with open(in_path, "rb") as fh:
        results = pickle.load(fh)
    failed = 0
    for name in CASES:
        f, args, tol = case_fn(name)
        got = results[name]
        if got["eager"]:
            print(f"{name}: FAIL: a graph ran eagerly on opforge: {got['eager']}")
            failed += 1
            continue
        (text,) = got["modules"]
        text = text.replace("device='opforge'", "device='cpu'")
        text = text.replace("async_compile.triton(", "load_kernel(").replace("async_compile.wait(globals())", "")
        text = text.replace("del async_compile", "")
        text = text.replace("from opforge.inductor import get_raw_stream as get_raw_stream",
                            "get_raw_stream = lambda index: 0")
        scope = {"__name__": "inductor_module", "load_kernel": load_kernel}
        exec(compile(text, f"<{name} module>", "exec"), scope)
        want = scope["call"]([a.clone() for a in args])
        print(f"{name}: {len(want)} outputs, kernels: "
              f"{sorted(k for k, v in scope.items() if isinstance(v, Launcher))}")
        for i, (a, b) in enumerate(zip(got["out"], want)):
            try:
                torch.testing.assert_close(a, b, rtol=tol, atol=tol, equal_nan=True)
            except AssertionError as e:
                failed += 1
                print(f"{name}: output {i}: FAIL: " + " ".join(str(e).split("\n")[:4]))
    print("inductor_triton_diff:", "FAILED" if failed else "all outputs agree")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--triton":
        KERNEL_DIR = tempfile.mkdtemp(prefix="opforge_ind_")
        sys.exit(run_triton(sys.argv[2]))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.environ.get("OPFORGE_DIFF_PKL") or os.path.join(tmp, "opforge.pkl")
        run_opforge(path)
        env = dict(os.environ, TRITON_INTERPRET="1")
        sys.exit(subprocess.call([sys.executable, __file__, "--triton", path], env=env))
