"""triton_interp_patches.py - what triton_interp_diff.py changes in real Triton's interpreter.

Real Triton 3.9's interpreter (TRITON_INTERPRET=1) differs from compiled Triton, torch and
opforge in a few places that are not the language's semantics: bf16 conversion by
truncation, comparisons giving int8, bf16 arithmetic on bit patterns, float arguments as
fp64, autotuning that needs a GPU driver. apply() patches each to the language's behaviour
(docs/compiler/semantics.md, "Deliberate differences from Triton"); the driver calls it
before any kernel file is loaded, for the CPU interpreter only.
"""


def bf16_bits(x):
    """float32 values (numpy) as bfloat16 bit patterns (uint16), rounded to nearest even, NaN
    kept quiet."""
    import numpy as np
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))
               >> np.uint32(16)).astype(np.uint16)
    nan = (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    data = np.where(nan, ((bits >> np.uint32(16)) | np.uint32(0x40)).astype(np.uint16), rounded)
    return data.reshape(np.shape(x))


def round_bf16_to_nearest_even():
    """Real Triton 3.9's interpreter converts fp32 to bf16 by truncation (cast_impl calls
    _convert_float without a rounding mode); compiled Triton, torch and opforge round to
    nearest even. Patch the reference to the language's rounding (docs/compiler/semantics.md,
    "Deliberate differences from Triton")."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as ti
    original = ti.InterpreterBuilder.cast_impl

    def cast_impl(self, src, dst_type):
        if src.dtype.scalar == tl.float32 and dst_type.scalar == tl.bfloat16:
            return ti.TensorHandle(bf16_bits(src.data), dst_type.scalar)
        return original(self, src, dst_type)

    ti.InterpreterBuilder.cast_impl = cast_impl


def comparisons_give_int1():
    """Triton 3.9's interpreter labels a comparison's result with its operands' dtype
    (binary_op keeps lhs.dtype; for 64-bit operands it even widens the bool data to int64),
    though the language types it int1. A scalar comparison splatted into a block then becomes
    an integer block, and a mask built from it fails tl.load with 'mask has unsupported dtype'
    (the embedding_bag template's `dmask & (ix != padding_idx)`); compiled Triton types it i1.
    Patch the reference's comparisons to give int1 (docs/compiler/semantics.md, "Deliberate
    differences from Triton")."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as ti
    for name in dir(ti.InterpreterBuilder):
        if not (name.startswith("create_icmp") or name.startswith("create_fcmp")):
            continue
        original = getattr(ti.InterpreterBuilder, name)

        def compare(self, lhs, rhs, _original=original):
            r = _original(self, lhs, rhs)
            return ti.TensorHandle(np.asarray(r.data).astype(np.bool_), tl.int1)

        setattr(ti.InterpreterBuilder, name, compare)


def bf16_arithmetic_on_values():
    """Triton 3.9's interpreter stores bfloat16 as uint16 and runs its element-wise ops on those
    bit patterns as unsigned integers: -1.5 + 1.0 gives -2.6e38, every negative value compares
    above every positive one (a 0-d bf16 bucketize of -8.5 gave 5 for ATen's 0), negation
    wraps. Compiled Triton computes on the values. Patch the reference's binary, unary and fma
    ops on bf16 operands to compute in float32 and round the result to bf16 (nearest even)
    (docs/compiler/semantics.md, "Deliberate differences from Triton")."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as ti

    def values(h):
        return (np.asarray(h.data).astype(np.uint32) << np.uint32(16)).view(np.float32)

    def to_bf16(out):
        if out.dtype == np.bool_:
            return ti.TensorHandle(out, tl.int1)
        return ti.TensorHandle(bf16_bits(out), tl.bfloat16)

    def is_bf16(*hs):
        return all(h.dtype.scalar == tl.bfloat16 for h in hs)

    binary, unary, fma = (ti.InterpreterBuilder.binary_op, ti.InterpreterBuilder.unary_op,
                          ti.InterpreterBuilder.create_fma)

    def binary_op(self, lhs, rhs, op):
        if is_bf16(lhs, rhs):
            return to_bf16(op(values(lhs), values(rhs)))
        return binary(self, lhs, rhs, op)

    def unary_op(self, arg, op):
        if is_bf16(arg):
            return to_bf16(op(values(arg)))
        return unary(self, arg, op)

    def create_fma(self, x, y, z):
        if is_bf16(x, y, z):
            return to_bf16((values(x).astype(np.float64) * values(y) + values(z))
                           .astype(np.float32))
        return fma(self, x, y, z)

    ti.InterpreterBuilder.binary_op = binary_op
    ti.InterpreterBuilder.unary_op = unary_op
    ti.InterpreterBuilder.create_fma = create_fma

    # The reductions' and scans' numpy fast paths (sum, min/max, argmin/argmax, cumsum,
    # cumprod) also run on the bits: bf16 takes the generic path, its combine function
    # through the ops above.
    reduce_impl, scan_impl = ti.ReduceOps.apply_impl, ti.ScanOps.apply_impl

    def reduce_apply_impl(self, input):
        if any(is_bf16(t.handle) for t in input):
            return self.generic_reduce(input)
        return reduce_impl(self, input)

    def scan_apply_impl(self, input):
        if any(is_bf16(t.handle) for t in input):
            saved = self.combine_fn
            try:  # generic_scan, with the reverse handling of apply_impl
                self.combine_fn = _NotAFastPath(saved)
                return scan_impl(self, input)
            finally:
                self.combine_fn = saved
        return scan_impl(self, input)

    ti.ReduceOps.apply_impl = reduce_apply_impl
    ti.ScanOps.apply_impl = scan_apply_impl


def float_arguments_are_fp32():
    """Compiled Triton types a Python float kernel argument fp32 (jit.mangle_type); Triton
    3.9's interpreter passes it on as a Python float (_implicit_cvt converts bools, ints and
    tensors only), so a float argument has no tensor methods there: the upsample template's
    `_rd(scale, RD)` fails with "'float' object has no attribute 'to'" and float arithmetic on
    it runs in float64. Patch the reference to pass float arguments as fp32 scalars, as
    compiled Triton does (docs/compiler/semantics.md, "Deliberate differences from Triton")."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as ti
    original = ti._implicit_cvt

    def implicit_cvt(arg):
        if isinstance(arg, float):
            return tl.tensor(ti.TensorHandle(np.array([arg], dtype=np.float32), tl.float32),
                             tl.float32)
        return original(arg)

    ti._implicit_cvt = implicit_cvt


def autotune_without_a_driver():
    """Triton 3.9's interpreter benchmarks the configs of a @triton.autotune kernel through the
    GPU driver (Autotuner.do_bench is driver.active.get_benchmarker()) and fails without one
    ('0 active drivers'). Patch the reference's benchmark to run each config once, in order,
    and time it by its position, so the first config that runs is the one taken; a config that
    fails (a static_assert on its block sizes) counts as infinitely slow, as a config that does
    not compile does in Triton. Any config gives the same result up to rounding order."""
    from triton.runtime import autotuner

    def bench(self):
        order = iter(range(1 << 30))

        def run_once(kernel_call, quantiles):
            t = float(next(order))
            try:
                kernel_call()
            except Exception:  # noqa: BLE001 - a config that cannot run is skipped
                return [float("inf")] * len(quantiles)
            return [t] * len(quantiles)

        return run_once

    autotuner.Autotuner.do_bench = property(bench)


class _NotAFastPath:
    """A combine function that compares unequal to the fast paths' (tl.standard._sum_combine,
    ...), so the interpreter's scan takes its generic path."""

    def __init__(self, combine_fn):
        self.fn = combine_fn.fn


def apply():
    round_bf16_to_nearest_even()
    comparisons_give_int1()
    bf16_arithmetic_on_values()
    float_arguments_are_fp32()
    autotune_without_a_driver()
