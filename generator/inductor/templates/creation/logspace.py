"""{{SCHEMA}}

Lowered by opforge's inductor provider (creation family, logspace template):
base ** e for exponents evenly spaced from start to end, in ATen's symmetric
form (from start for the first half, from end for the second). start and end
are first converted to the output dtype as ATen does (truncated for integers,
rounded for float16/bfloat16); integer outputs truncate the power, which is
snapped to an exact integer when it lies within float32 rounding of one.
"""
import math
import torch
import triton
import triton.language as tl


@triton.jit
def logspace_kernel(out_ptr, steps, start, end, log2_base, ROUND: tl.constexpr, IS_FLOAT: tl.constexpr,
                    BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < steps
    s0 = tl.zeros([BLOCK], dtype=tl.float32) + start
    s = s0
    e = tl.zeros([BLOCK], dtype=tl.float32) + end
    if ROUND:
        s = s.to(out_ptr.dtype.element_ty).to(tl.float32)
        e = e.to(out_ptr.dtype.element_ty).to(tl.float32)
        diff = (e - s).to(out_ptr.dtype.element_ty).to(tl.float32)
    else:
        diff = e - s
    n1 = (steps - 1).to(tl.float32)
    step = diff / tl.where(steps > 1, n1, 1.0)
    fi = i.to(tl.float32)
    half = steps // 2
    x = tl.where(i < half, s + step * fi, e - step * (n1 - fi))
    # one step: base ** start with start as given (ATen fills pow(base, double(start)))
    x = tl.where(steps == 1, s0, x)
    v = tl.exp2(x * log2_base)
    if IS_FLOAT:
        tl.store(out_ptr + i, v.to(out_ptr.dtype.element_ty), mask=mask)
    else:
        r = tl.floor(v + 0.5)
        near = tl.abs(v - r) <= 4e-6 * tl.maximum(tl.abs(v), 1.0)
        v = tl.where(near, r, v)
        tl.store(out_ptr + i, v.to(tl.int64).to(out_ptr.dtype.element_ty), mask=mask)


def {{WRAPPER}}({{SIGNATURE}}):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    out_dtype = torch.float32 if dtype is None or isinstance(dtype, int) else dtype
    out = torch.empty([steps], dtype=out_dtype)
    if steps == 0:
        return out
    is_float = out.is_floating_point()
    s = float(start)
    e = float(end)
    if not is_float:
        s = float(int(s))
        e = float(int(e))
    lb = math.log2(base) if base > 0 else float("nan")
    BLOCK = 128
    logspace_kernel[(triton.cdiv(steps, BLOCK), )](out, steps, s, e, lb,
                                                   ROUND=out_dtype == torch.bfloat16 or out_dtype == torch.float16,
                                                   IS_FLOAT=is_float, BLOCK=BLOCK)
    return out
