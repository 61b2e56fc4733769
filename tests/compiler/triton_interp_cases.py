"""triton_interp_cases.py - inputs for tests/compiler/kernels/*.py in the real-Triton
differential test (triton_interp_diff.py --source kernels).

cases(torch) returns one dict per call: file (under tests/compiler/kernels), wrapper, args,
kwargs, dtype (a label), exact (bit-exact float comparison: copies, integer-valued data) and
extra (source appended to the file for this case: a wrapper launching a kernel that the
file's own wrapper does not reach). Inputs come from one seeded generator; shapes are small
(real Triton's interpreter runs each program in Python).
"""

# Extra wrappers: kernels that the files' own wrappers do not launch.
WINDOW_2D = '''

def diff_window_2d(x, r0, c0):
    M, N = x.shape
    y = torch.full((M, N), -1.0, dtype=torch.float32, device=x.device)
    z = torch.full((M, N), -1.0, dtype=torch.float32, device=x.device)
    window_2d[(1, )](x, y, z, M, N, r0, c0, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
                     BLOCK_M=triton.next_power_of_2(M), BLOCK_N=triton.next_power_of_2(N))
    return y, z
'''

STRIP_INT = '''

def diff_int_ops(a, b, op):
    n = a.numel()
    out = torch.zeros(n, dtype=a.dtype, device=a.device)
    int_ops[(triton.cdiv(n, 64), )](a, b, out, n, OP=op, BLOCK=64)
    return out
'''

MATH_FN = '''

def diff_math_fn(x, fn):
    n = x.numel()
    out = torch.zeros_like(x)
    math_fn_kernel[(triton.cdiv(n, 32), )](x, x, out, n, FN=fn, BLOCK=32)
    return out
'''

XOR_SUM = '''

def diff_xor_sum_ravel(x):
    out = torch.zeros(8 + 64 + 1, dtype=torch.int32, device=x.device)
    xor_sum_ravel_kernel[(1, )](x, out, BLOCK=8)
    return out
'''


def cases(torch):
    g = torch.Generator().manual_seed(0)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g).to(dtype)

    def randint(lo, hi, *shape, dtype=torch.int32):
        return torch.randint(lo, hi, shape, generator=g).to(dtype)

    out = []

    def case(file, wrapper, *args, dtype="float32", exact=False, extra="", **kwargs):
        out.append(dict(file=file, wrapper=wrapper, args=list(args), kwargs=kwargs, dtype=dtype,
                        exact=exact, extra=extra, label=f"#{len(out)}"))

    case("argmax.py", "argmax_default", randn(9, 33), 1, exact=True)
    case("argmax.py", "argmax_default", randint(-3, 3, 5, 17).float(), -1, True, exact=True)
    case("atomic_float.py", "index_add_default", randn(37), 0, None, randn(37))
    case("atomic_rmw.py", "bincount_default", randint(0, 500, 70), dtype="int32")
    case("atomic_ticket.py", "arange_default", 7, dtype="int32")
    case("autotuned.py", "leaky_relu_default", randn(300), 0.1)
    case("block_ptr_3d.py", "mul_Scalar", randn(6, 5, 3), 2)
    case("block_ptr_3d.py", "mul_Scalar", randn(3, 7, 5).transpose(0, 2), 2)
    case("block_ptr_matmul.py", "mm_default", randn(40, 24), randn(24, 36))
    case("block_ptr_rows.py", "sum_dim_IntList", randn(19, 37), [1])
    for dt in (torch.float32, torch.int32):
        name = str(dt).split(".")[1]
        case("cumsum.py", "cumsum_default", randn(5, 40).to(dt) if dt.is_floating_point
             else randint(-9, 9, 5, 40), 1, dtype=name, exact=not dt.is_floating_point)
    case("dot_int8.py", "mm_int8", randint(-20, 20, 32, 32, dtype=torch.int8),
         randint(-20, 20, 32, 32, dtype=torch.int8), randint(-5, 5, 32, 32), dtype="int8")
    case("fused_softmax.py", "_softmax_default", randn(7, 50), 1, False)
    case("fused_softmax.py", "_softmax_default", randn(3, 4, 20, dtype=torch.float16), -1, False,
         dtype="float16")
    case("join_split.py", "stack_default", [randn(16), randn(16)], 1)
    case("layer_norm.py", "native_layer_norm_default", randn(5, 40), [40], randn(40), randn(40),
         1e-5)
    case("math_fn.py", "tanh_default", randn(70))
    for fn in ("tanh", "log1p", "expm1", "pow", "tan", "sinh", "cosh", "asin", "acos", "atan",
               "trunc", "round", "rint", "nearbyint", "isnan", "isinf", "signbit", "neg",
               "recip", "fast_expf", "fast_logf", "softmax"):
        case("math_fn.py", "diff_math_fn", randn(40), fn, extra=MATH_FN)
    case("matmul.py", "mm_default", randn(40, 24), randn(24, 36))
    case("matmul.py", "mm_default", randn(20, 24, dtype=torch.float16),
         randn(24, 36, dtype=torch.float16), dtype="float16")
    # Tutorial-style `% M` / `% N` offsets; 40 and 36 wrap the second 32-wide tile.
    case("matmul_wrap.py", "matmul_wrap", randn(40, 24), randn(24, 36))
    case("matmul_wrap.py", "matmul_wrap", randn(20, 24, dtype=torch.float16),
         randn(24, 36, dtype=torch.float16), dtype="float16")
    # The local-memory planning kernels (chip tests run them at sizes that spill) at small
    # tiles: the tutorial-style matmul with wrapped offsets and a one-program dot.
    case("local_mem_plans.py", "mm_tiles", randn(40, 24, dtype=torch.float16),
         randn(24, 36, dtype=torch.float16), 32, 32, 16, dtype="float16")
    case("local_mem_plans.py", "huge_dot", randn(16, 16), randn(16, 16))
    case("matmul_int8.py", "mm_int8", randint(-20, 20, 20, 40, dtype=torch.int8),
         randint(-20, 20, 40, 24, dtype=torch.int8), dtype="int8")
    case("range_masks.py", "centered_rows_default", randn(5, 13), 16)
    case("rect_masks.py", "window_copy_default", randn(150), 20, 97, 0.5)
    case("rect_masks.py", "diff_window_2d", randn(13, 11), 3, 2, extra=WINDOW_2D, exact=True)
    # Loads masked by `range & scalar` (the scalar from a loaded index): rows that match
    # no index stay zero.
    case("scalar_masks.py", "gather_rows_default", randint(0, 6, 20), randn(20, 37), 8)
    case("scan_2d.py", "cumsum_default", randn(5, 12), 0)
    case("scan_2d.py", "cumsum_default", randint(-9, 9, 6, 7), 1, dtype="int32", exact=True)
    case("scan_running_argmax.py", "cummax_default", randn(4, 30), 1)
    case("strided_copy_2d.py", "copy_scaled", randn(20, 30).t(), 1.0, exact=True)
    case("strip_ops.py", "div_Tensor", randn(100), randn(100))
    for op in ("add_mul", "bitwise", "shl", "shr", "max_min", "div_mul"):
        case("strip_ops.py", "diff_int_ops", randint(-100, 100, 70), randint(0, 9, 70), op,
             dtype="int32", exact=True, extra=STRIP_INT)
    case("vector_add.py", "add_Tensor", randn(1000), randn(1000), alpha=2)
    # bf16 computed in bf16 (the reference's bf16 ops on values, not bit patterns: negative
    # values, sums, scans, argmax)
    bf16 = torch.bfloat16
    case("vector_add.py", "add_Tensor", randn(100, dtype=bf16), randn(100, dtype=bf16),
         dtype="bfloat16")
    case("cumsum.py", "cumsum_default", randn(3, 20, dtype=bf16), 1, dtype="bfloat16")
    case("argmax.py", "argmax_default", randn(5, 17, dtype=bf16), 1, dtype="bfloat16", exact=True)
    case("while_loops.py", "floor_divide_Scalar", randint(-1000, 1000, 45), 2, dtype="int32")
    case("xor_sum_ravel.py", "diff_xor_sum_ravel", randint(-99, 99, 8, 8), dtype="int32",
         extra=XOR_SUM)
    # Philox streams (tl.rand, tl.randint, tl.randint4x, tl.philox) bit for bit; tl.randn
    # through log/cos (libm vs the SFU) within the float32 tolerance.
    for seed, start in ((0, 0), (123, 7), (-1, 1 << 30), (0x1234567890, -50)):
        case("philox_random.py", "random_streams", 150, seed, start, dtype="int32", exact=True)
    case("philox_random.py", "random_streams", 70, 42, 2147483000, 7, dtype="int32", exact=True)
    case("philox_random.py", "normal_stream", 150, 99, 3)
    case("philox_random.py", "philox_streams", 70, 5, dtype="int32", exact=True)
    case("philox_random.py", "seeded_dropout", randn(3000), 0.5, 123)
    fmod_x = torch.cat([randn(200) * 100, torch.tensor([5.5, -5.5, 5.5, -5.5, -0.0, 3e38, 1e-45])])
    fmod_y = torch.cat([randn(200) * 3, torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 1.1e-38, 3e-45])])
    case("float_mod.py", "fmod_Tensor", fmod_x, fmod_y, exact=True)
    case("float_mod.py", "fmod_Tensor", randint(-50, 50, 90), randint(1, 9, 90) *
         (1 - 2 * randint(0, 2, 90)), dtype="int32", exact=True)
    case("nested_constexpr_call.py", "causal_rowsum", randn(40), randn(40))
    # fp8 (the reference's own conversion differs from torch's: triton_interp_known.json; the
    # bit-exact check against torch is fp8_torch_diff.py)
    fp8_bits = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    for fmt in ("e5m2", "e4m3"):
        case("fp8_convert.py", "fp8_decode", fp8_bits, fmt, dtype="fp8", exact=True)
        case("fp8_convert.py", "fp8_encode", randn(300) * 50, fmt, dtype="fp8", exact=True)
    return out
