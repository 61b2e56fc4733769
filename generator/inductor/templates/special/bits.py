"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, bits template):
float32 bit-level ops with exact arithmetic only (no bitcasts). frexp finds
the exponent from log2 and corrects it so the mantissa x * 2^-e lies in
[0.5, 1) (2^k is built exactly from power-of-two constants; subnormals are
scaled by 2^24 first; zero, inf and NaN keep exponent 0); nextafter adds or
subtracts one unit in the last place of x (half a unit below a power of two,
never less than the smallest subnormal). float16/bfloat16 are exact in
float32: frexp rounds the exact mantissa back; bfloat16 steps by its own
8-bit unit.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _pow2(k):
    # 2^k for integer k in [-255, 255], exactly: a product of 2^(+-2^b) constants
    a = tl.abs(k)
    neg = k < 0
    p = tl.full(k.shape, 1.0, tl.float32)
    p = tl.where((a & 1) != 0, p * tl.where(neg, 0.5, 2.0), p)
    p = tl.where((a & 2) != 0, p * tl.where(neg, 0.25, 4.0), p)
    p = tl.where((a & 4) != 0, p * tl.where(neg, 0.0625, 16.0), p)
    p = tl.where((a & 8) != 0, p * tl.where(neg, 0.00390625, 256.0), p)
    p = tl.where((a & 16) != 0, p * tl.where(neg, 1.52587890625e-05, 65536.0), p)
    p = tl.where((a & 32) != 0, p * tl.where(neg, 2.3283064365386963e-10, 4294967296.0), p)
    p = tl.where((a & 64) != 0, p * tl.where(neg, 5.421010862427522e-20, 1.8446744073709552e+19), p)
    c64 = tl.where(neg, 5.421010862427522e-20, 1.8446744073709552e+19)
    p = tl.where((a & 128) != 0, p * c64 * c64, p)
    return p


@triton.jit
def _frexp32(x):
    # (mantissa, exponent) of float32 x; zero, inf and NaN give (x, 0)
    sub = (tl.abs(x) < 1.1754943508222875e-38) & (x != 0.0)
    xs = tl.where(sub, x * 16777216.0, x)
    ax = tl.abs(xs)
    finite = (x == x) & (ax != float("inf")) & (x != 0.0)
    e = tl.floor(tl.log2(tl.where(finite, ax, 1.0))).to(tl.int32) + 1
    # the scale in two halves keeps every factor a normal float
    h = e // 2
    m = xs * _pow2(-h) * _pow2(h - e)
    big = tl.abs(m) >= 1.0
    m = tl.where(big, m * 0.5, m)
    e = tl.where(big, e + 1, e)
    small = tl.abs(m) < 0.5
    m = tl.where(small, m * 2.0, m)
    e = tl.where(small, e - 1, e)
    e = e - tl.where(sub, 24, 0)
    m = tl.where(finite, m, x)
    e = tl.where(finite, e, 0)
    return m, e


@triton.jit
def frexp_kernel(x_ptr, m_ptr, e_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    m, e = _frexp32(x)
    tl.store(m_ptr + i, m.to(m_ptr.dtype.element_ty), mask=mask)
    tl.store(e_ptr + i, e, mask=mask)


@triton.jit
def nextafter_kernel(x_ptr, y_ptr, out_ptr, n, BITS: tl.constexpr, MIN_EXP: tl.constexpr, BLOCK: tl.constexpr):
    # BITS: mantissa bits with the implicit one (24 float32, 8 bfloat16); MIN_EXP: the exponent of the
    # smallest subnormal (-149, -133)
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    y = tl.load(y_ptr + i, mask=mask, other=0).to(tl.float32)
    m, e = _frexp32(x)
    away = (y > x) == (x > 0.0)
    half_below = (tl.abs(m) == 0.5) & (away == 0)
    k = e - BITS - tl.where(half_below, 1, 0)
    k = tl.maximum(k, MIN_EXP)
    h = k // 2
    ulp = _pow2(h) * _pow2(k - h)
    ax = tl.abs(x)
    r = tl.where(away, ax + ulp, ax - ulp)
    r = tl.where(x < 0.0, -r, r)
    tiny = _pow2(tl.zeros_like(e) + MIN_EXP // 2) * _pow2(tl.zeros_like(e) + (MIN_EXP - MIN_EXP // 2))
    r = tl.where(x == 0.0, tl.where(y > 0.0, tiny, -tiny), r)
    r = tl.where(x == y, y, r)
    r = tl.where((x != x) | (y != y), x + y, r)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


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
    if dt != torch.float32 and dt != torch.bfloat16:
        raise NotImplementedError("nextafter: float32 and bfloat16 only, got " + str(dt))
    bf = dt == torch.bfloat16
    BLOCK = 128
    nextafter_kernel[(triton.cdiv(n, BLOCK), )](x, y, out, n, BITS=8 if bf else 24, MIN_EXP=-133 if bf else -149,
                                                BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
