#!/usr/bin/env python3
"""triton-crosscheck.py - run opforge's Triton kernel files on real Triton.

opforge compiles and simulates Triton source; this script checks that the same
files are real Triton that real Triton runs unchanged, with the same results
as PyTorch, on a machine with a CUDA GPU, PyTorch and Triton installed.

usage: triton-crosscheck.py [--dir DIR]...   (default: the test kernels and the
       kernel library). Prints one line per call and a 'N passed, N failed' line.
"""
import argparse
import importlib.util
import pathlib
import sys
import traceback

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEV = "cuda"


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem.replace(".", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=DEV, dtype=dtype)


# (file, wrapper, args factory, reference, rtol, atol)
CASES = [
    ("tests/compiler/kernels/vector_add.py", "add_Tensor",
     lambda: (r(1000), r(1000)), lambda x, y: x + y, 0, 0),
    ("tests/compiler/kernels/fused_softmax.py", "_softmax_default",
     lambda: (r(37, 100), 1, False), lambda x, d, h: torch.softmax(x, d), 1e-5, 1e-6),
    ("tests/compiler/kernels/matmul.py", "mm_default",
     lambda: (r(70, 50), r(50, 90)), lambda a, b: a @ b, 1e-2, 1e-2),
    ("tests/compiler/kernels/block_ptr_matmul.py", "mm_default",
     lambda: (r(70, 50), r(50, 90)), lambda a, b: a @ b, 1e-2, 1e-2),
    ("tests/compiler/kernels/layer_norm.py", "native_layer_norm_default",
     lambda: (r(13, 300), [300], r(300), r(300), 1e-5),
     lambda x, s, w, b, e: torch.native_layer_norm(x, s, w, b, e), 1e-4, 1e-5),
    ("tests/compiler/kernels/cumsum.py", "cumsum_default",
     lambda: (r(9, 200), 1), lambda x, d: torch.cumsum(x, d), 1e-4, 1e-4),
    ("tests/compiler/kernels/argmax.py", "argmax_default",
     lambda: (r(9, 200), 1), lambda x, d: torch.argmax(x, d), 0, 0),
    ("tests/compiler/kernels/autotuned.py", "leaky_relu_default",
     lambda: (r(5000), 0.1), lambda x, s: torch.nn.functional.leaky_relu(x, s), 1e-6, 1e-6),
    ("generator/library/aten/add.Tensor.py", "add_Tensor",
     lambda: (r(4, 33), r(33)), lambda x, y: x + y, 0, 0),
    ("generator/library/aten/mul.Tensor.py", "mul_Tensor",
     lambda: (r(4, 33), r(4, 1)), lambda x, y: x * y, 0, 0),
    ("generator/library/aten/exp.py", "exp",
     lambda: (r(300),), torch.exp, 1.3e-6, 1e-5),
    ("generator/library/aten/sigmoid.py", "sigmoid",
     lambda: (r(300),), torch.sigmoid, 1.3e-6, 1e-5),
    ("generator/library/aten/sum.dim_IntList.py", "sum_dim_IntList",
     lambda: (r(7, 50, 3), [1], True), lambda x, d, k: torch.sum(x, d, k), 1e-5, 1e-5),
    ("generator/library/aten/_softmax.py", "_softmax",
     lambda: (r(7, 129), 1, False), lambda x, d, h: torch._softmax(x, d, h), 1e-5, 1e-6),
    ("generator/library/aten/mm.py", "mm",
     lambda: (r(20, 30), r(30, 40)), lambda a, b: a @ b, 1e-4, 1e-4),
    ("generator/library/aten/index_select.py", "index_select",
     lambda: (r(10, 20), 0, torch.tensor([3, 1, 9], device=DEV)),
     lambda x, d, i: torch.index_select(x, d, i), 0, 0),
    ("generator/library/aten/cat.py", "cat",
     lambda: ([r(3, 4), r(2, 4)], 0), lambda t, d: torch.cat(t, d), 0, 0),
    ("generator/library/aten/where.self.py", "where_self",
     lambda: (r(5, 6) > 0, r(5, 6), r(6)), lambda c, a, b: torch.where(c, a, b), 0, 0),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="substring filter on file names")
    args = ap.parse_args()
    torch.manual_seed(0)
    passed = failed = 0
    for rel, fn, make, ref, rtol, atol in CASES:
        if args.only and args.only not in rel:
            continue
        name = f"{rel}:{fn}"
        try:
            mod = load(ROOT / rel)
            call_args = make()
            got = getattr(mod, fn)(*call_args)
            want = ref(*call_args)
            if isinstance(want, tuple):
                for g, w in zip(got, want):
                    torch.testing.assert_close(g, w, rtol=rtol, atol=atol)
            else:
                torch.testing.assert_close(got, want, rtol=rtol, atol=atol)
            print(f"PASS {name}")
            passed += 1
        except Exception:
            print(f"FAIL {name}")
            traceback.print_exc(limit=3)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
