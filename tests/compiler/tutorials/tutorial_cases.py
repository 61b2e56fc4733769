"""tutorial_cases.py - small-shape inputs for the tutorial kernel files (tests/compiler/tutorials).

ATEN_CHECKS: (tutorial, file, call, overload) - `opforge run FILE --call CALL --check OVERLOAD`
on the IR interpreter and on the chip (run_tutorial_checks.py, one ctest per tutorial and
executor). Calls use `opforge run`'s argument syntax (randn/rand/randint/full, dtype=torch.X).

cases(torch) - the same kernels against real Triton's interpreter (triton_interp_diff.py
--source tutorials; the format of tests/compiler/triton_interp_cases.py). Seeded dropout has no
ATen overload, so real Triton is its only reference.
"""

F16 = "dtype=torch.float16"


def _qkv(z, h, n, d):
    return f"randn({z}, {h}, {n}, {d}, {F16})"


ATEN_CHECKS = [
    ("01", "01_vector_add.py", "add_Tensor(randn(1000), randn(1000))", "aten::add.Tensor"),
    ("01", "01_vector_add.py", f"add_Tensor(randn(3, 100, {F16}), randn(3, 100, {F16}))",
     "aten::add.Tensor"),
    ("02", "02_fused_softmax.py", "_softmax_default(randn(7, 781), 1, False)", "aten::_softmax"),
    ("02", "02_fused_softmax.py", f"_softmax_default(randn(3, 5, 50, {F16}), -1, False)",
     "aten::_softmax"),
    ("03", "03_matmul.py", f"mm_default(randn(96, 80, {F16}), randn(80, 72, {F16}))", "aten::mm"),
    ("03", "03_matmul.py", f"mm_default(randn(33, 17, {F16}), randn(17, 50, {F16}))", "aten::mm"),
    ("05", "05_layer_norm.py",
     "native_layer_norm_default(randn(9, 300), [300], rand(300), rand(300), 1e-5)",
     "aten::native_layer_norm"),
    ("05", "05_layer_norm.py",
     "native_layer_norm_backward_default(randn(9, 300), randn(9, 300), [300], randn(9, 1), "
     "rand(9, 1), rand(300), rand(300), [True, True, True])",
     "aten::native_layer_norm_backward"),
    ("05", "05_layer_norm.py",
     f"native_layer_norm_default(randn(9, 1000, {F16}), [1000], rand(1000, {F16}), "
     f"rand(1000, {F16}), 1e-5)", "aten::native_layer_norm"),
    ("05", "05_layer_norm.py",
     f"native_layer_norm_backward_default(randn(9, 1000, {F16}), randn(9, 1000, {F16}), [1000], "
     f"randn(9, 1, {F16}), rand(9, 1, {F16}), rand(1000, {F16}), rand(1000, {F16}), "
     f"[True, True, True])", "aten::native_layer_norm_backward"),
    ("06", "06_fused_attention.py",
     f"scaled_dot_product_attention_default({_qkv(1, 2, 128, 64)}, {_qkv(1, 2, 128, 64)}, "
     f"{_qkv(1, 2, 128, 64)}, is_causal=True)", "aten::scaled_dot_product_attention"),
    ("06", "06_fused_attention.py",
     f"scaled_dot_product_attention_default({_qkv(2, 1, 128, 64)}, {_qkv(2, 1, 128, 64)}, "
     f"{_qkv(2, 1, 128, 64)}, is_causal=False, scale=0.3)", "aten::scaled_dot_product_attention"),
    ("06", "06_fused_attention.py",
     f"_scaled_dot_product_flash_attention_for_cpu_default({_qkv(1, 2, 128, 64)}, "
     f"{_qkv(1, 2, 128, 64)}, {_qkv(1, 2, 128, 64)}, 0.0, True)",
     "aten::_scaled_dot_product_flash_attention_for_cpu"),
    ("06", "06_fused_attention.py",
     f"_scaled_dot_product_flash_attention_for_cpu_backward_default({_qkv(1, 2, 128, 32)}, "
     f"{_qkv(1, 2, 128, 32)}, {_qkv(1, 2, 128, 32)}, {_qkv(1, 2, 128, 32)}, "
     f"{_qkv(1, 2, 128, 32)}, full((1, 2, 128), 6.0), 0.0, True)",
     "aten::_scaled_dot_product_flash_attention_for_cpu_backward"),
    ("06", "06_fused_attention.py",  # HEAD_DIM 64: the halved blocks that fit local memory
     f"_scaled_dot_product_flash_attention_for_cpu_backward_default({_qkv(1, 1, 128, 64)}, "
     f"{_qkv(1, 1, 128, 64)}, {_qkv(1, 1, 128, 64)}, {_qkv(1, 1, 128, 64)}, "
     f"{_qkv(1, 1, 128, 64)}, full((1, 1, 128), 5.0), 0.0, True, scale=0.125)",
     "aten::_scaled_dot_product_flash_attention_for_cpu_backward"),
]


def cases(torch):
    g = torch.Generator().manual_seed(0)

    def randn(*shape, dtype=torch.float32, scale=1.0):
        return (torch.randn(*shape, generator=g) * scale).to(dtype)

    def rand(*shape, dtype=torch.float32):
        return torch.rand(*shape, generator=g).to(dtype)

    out = []

    def case(file, wrapper, *args, dtype="float32", exact=False, **kwargs):
        out.append(dict(file=file, wrapper=wrapper, args=list(args), kwargs=kwargs, dtype=dtype,
                        exact=exact, extra="", label=f"#{len(out)}"))

    f16 = torch.float16
    case("01_vector_add.py", "add", rand(1000), rand(1000))
    case("02_fused_softmax.py", "softmax", randn(37, 781))
    case("03_matmul.py", "matmul", randn(64, 48, dtype=f16), randn(48, 80, dtype=f16),
         dtype="float16")
    case("03_matmul.py", "matmul", randn(40, 32, dtype=f16), randn(32, 24, dtype=f16),
         "leaky_relu", dtype="float16")
    keep = (torch.rand(300, generator=g) > 0.5).to(torch.int32)
    case("04_dropout.py", "dropout", randn(300), keep, 0.5)
    case("04_dropout.py", "seeded_dropout", randn(300), 0.5, 123, exact=True)
    case("04_dropout.py", "seeded_dropout", randn(2000), 0.3, 512, exact=True)
    case("05_layer_norm.py", "layer_norm_fwd", randn(9, 300, scale=0.5), rand(300), rand(300),
         1e-5)
    mean, rstd = randn(9, scale=0.1), rand(9) + 0.5
    case("05_layer_norm.py", "layer_norm_bwd", randn(9, 300, scale=0.1), randn(9, 300),
         rand(300), mean, rstd)
    q, k, v = (randn(1, 2, 128, 64, dtype=f16, scale=0.5) for _ in range(3))
    case("06_fused_attention.py", "attention_fwd", q, k, v, True, 0.5, dtype="float16")
    case("06_fused_attention.py", "attention_fwd", q, k, v, False, 0.5, dtype="float16")
    q, k, v, do = (randn(1, 2, 128, 32, dtype=f16, scale=0.5) for _ in range(4))
    case("06_fused_attention.py", "attention_fwd_bwd", q, k, v, do, 0.5, dtype="float16")
    return out
