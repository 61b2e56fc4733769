"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, bits template):
float32 bit-pattern ops through bitcasts. frexp splits x into a mantissa in
[0.5, 1) and a power-of-two exponent (subnormals are scaled by 2^24 first;
zero, inf and NaN keep exponent 0); nextafter steps x's bit pattern one unit
towards y. float16/bfloat16 inputs are exact in float32: frexp computes there
and rounds the (exact) mantissa back; nextafter steps bfloat16 as the upper
16 bits of its float32 pattern.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def frexp_kernel(x_ptr, m_ptr, e_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    sub = (tl.abs(x) < 1.1754943508222875e-38) & (x != 0.0)
    xs = tl.where(sub, x * 16777216.0, x)
    bits = xs.to(tl.int32, bitcast=True)
    biased = (bits >> 23) & 255
    e = biased - 126 - tl.where(sub, 24, 0)
    mbits = (bits & -2139095041) | (126 << 23)
    m = mbits.to(tl.float32, bitcast=True)
    special = (x == 0.0) | (biased == 255)
    m = tl.where(special, x, m)
    e = tl.where(special, 0, e)
    tl.store(m_ptr + i, m.to(m_ptr.dtype.element_ty), mask=mask)
    tl.store(e_ptr + i, e, mask=mask)


@triton.jit
def nextafter32_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0)
    y = tl.load(y_ptr + i, mask=mask, other=0)
    bits = x.to(tl.int32, bitcast=True)
    # away from zero when moving outwards (|y| > |x| on the same side), towards zero otherwise
    up = (y > x) == (x > 0.0)
    stepped = tl.where(up, bits + 1, bits - 1)
    # from zero: the smallest subnormal with y's sign
    tiny = tl.where(y > 0.0, 1, -2147483647)
    r = tl.where(x == 0.0, tiny, stepped).to(tl.float32, bitcast=True)
    r = tl.where(x == y, y, r)
    r = tl.where((x != x) | (y != y), x + y, r)
    tl.store(out_ptr + i, r, mask=mask)


@triton.jit
def nextafter16_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # bfloat16 values are exact in float32; their 16-bit patterns are the upper halves
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    xf = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    yf = tl.load(y_ptr + i, mask=mask, other=0).to(tl.float32)
    xb = (xf.to(tl.int32, bitcast=True) >> 16) & 65535
    up = (yf > xf) == (xf > 0.0)
    mag = xb & 32767
    sign = xb & 32768
    stepped = sign | tl.where(up, mag + 1, mag - 1)
    tiny = tl.where(yf > 0.0, 1, 32769)
    r = tl.where(xf == 0.0, tiny, stepped)
    rf = (r << 16).to(tl.float32, bitcast=True)
    rf = tl.where(xf == yf, yf, rf)
    rf = tl.where((xf != xf) | (yf != yf), xf + yf, rf)
    tl.store(out_ptr + i, rf.to(out_ptr.dtype.element_ty), mask=mask)


def _frexp(self):
    if not self.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    e = torch.empty(self.shape, dtype=torch.int32, device=self.device)
    n = m.numel()
    if n == 0:
        return m, e
    BLOCK = 128
    frexp_kernel[(triton.cdiv(n, BLOCK), )](self.contiguous(), m, e, n, BLOCK=BLOCK)
    return m, e


def _nextafter(self, other):
    shape = torch.broadcast_shapes(self.shape, other.shape)
    dt = torch.promote_types(self.dtype, other.dtype)
    out = torch.empty(shape, dtype=dt, device=self.device)
    n = out.numel()
    if n == 0:
        return out
    x = self.to(dt).expand(shape).contiguous()
    y = other.to(dt).expand(shape).contiguous()
    BLOCK = 128
    if dt == torch.float32:
        nextafter32_kernel[(triton.cdiv(n, BLOCK), )](x, y, out, n, BLOCK=BLOCK)
        return out
    if dt != torch.bfloat16:
        raise NotImplementedError("nextafter: float32 and bfloat16 only, got " + str(dt))
    nextafter16_kernel[(triton.cdiv(n, BLOCK), )](x, y, out, n, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
