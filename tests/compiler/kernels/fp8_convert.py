"""fp8 (tl.float8e5 = e5m2, tl.float8e4nv = e4m3fn, tl.float8e4b15): fp32 -> fp8 -> fp32 round
trips, decoding of fp8 bit patterns, and fp8 loads/stores through fp8 pointers. Wrappers take
the fp8 data as uint8 tensors (their bit patterns) and reinterpret them in the kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _as_fp8(x, FMT: tl.constexpr):
    if FMT == "e5m2":
        return x.to(tl.float8e5, bitcast=True)
    elif FMT == "e4m3":
        return x.to(tl.float8e4nv, bitcast=True)
    else:
        return x.to(tl.float8e4b15, bitcast=True)


@triton.jit
def fp8_encode_kernel(x_ptr, bits_ptr, back_ptr, n, FMT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if FMT == "e5m2":
        y = x.to(tl.float8e5)
    elif FMT == "e4m3":
        y = x.to(tl.float8e4nv)
    else:
        y = x.to(tl.float8e4b15)
    tl.store(bits_ptr + offs, y.to(tl.uint8, bitcast=True), mask=mask)
    tl.store(back_ptr + offs, y.to(tl.float32), mask=mask)


@triton.jit
def fp8_decode_kernel(bits_ptr, out_ptr, half_ptr, n, FMT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(bits_ptr + offs, mask=mask, other=0)
    v = _as_fp8(b, FMT)
    tl.store(out_ptr + offs, v.to(tl.float32), mask=mask)
    tl.store(half_ptr + offs, v.to(tl.float16), mask=mask)


@triton.jit
def fp8_pointer_kernel(src_ptr, dst_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # src_ptr and dst_ptr are fp8 pointers (signature *fp8e5 / *fp8e4nv): a masked fp8 load with
    # an fp8 `other`, a select of fp8 values, an fp8 store and a converted fp32 store.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(src_ptr + offs, mask=mask, other=1.5)
    w = tl.where(offs % 2 == 0, v, tl.load(src_ptr + (offs ^ 1), mask=(offs ^ 1) < n, other=0.0))
    tl.store(dst_ptr + offs, w, mask=mask)
    tl.store(out_ptr + offs, v.to(tl.float32) * 2.0, mask=mask)


def fp8_encode(x, fmt):
    n = x.numel()
    bits = torch.empty(n, dtype=torch.uint8)
    back = torch.empty(n, dtype=torch.float32)
    fp8_encode_kernel[(triton.cdiv(n, 64), )](x, bits, back, n, FMT=fmt, BLOCK=64)
    return bits, back


def fp8_decode(bits, fmt):
    n = bits.numel()
    out = torch.empty(n, dtype=torch.float32)
    half = torch.empty(n, dtype=torch.float16)
    fp8_decode_kernel[(triton.cdiv(n, 64), )](bits, out, half, n, FMT=fmt, BLOCK=64)
    return out, half
