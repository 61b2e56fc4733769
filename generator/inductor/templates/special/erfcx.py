"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, erfcx template): the
scaled complementary error function erfcx(x) = exp(x^2) erfc(x) in float32 from
W. J. Cody's rational approximations (erf on |x| < 0.46875, erfcx directly on
[0.46875, 4] and in 1/x^2 above 4), erfcx(x) = 2 exp(x^2) - erfcx(-x) for x < 0.
KIND 0 is erfcx; KIND 1 is log_ndtr(x) = log(erfc(-x / sqrt(2)) / 2), computed as
ATen does: log(erfcx(-t) / 2) - t^2 for x < -1, log1p(-erfc(t) / 2) otherwise
(t = x / sqrt(2)). Integer and bool inputs give float32.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _erfcx_pos(y):
    # erfcx(y) for y >= 0
    # |y| < 0.46875: exp(y^2) (1 - erf(y)) with erf from Cody's first approximation
    s = y * y
    num = 1.85777706184603153e-1 * s
    den = s
    num = (num + 3.16112374387056560e0) * s
    den = (den + 2.36012909523441209e1) * s
    num = (num + 1.13864154151050156e2) * s
    den = (den + 2.44024637934444173e2) * s
    num = (num + 3.77485237685302021e2) * s
    den = (den + 1.28261652607737228e3) * s
    erf_small = y * (num + 3.20937758913846947e3) / (den + 2.84423683343917062e3)
    small = tl.exp(s) * (1.0 - erf_small)
    # 0.46875 <= y <= 4
    num = 2.15311535474403846e-8 * y
    den = y
    num = (num + 5.64188496988670089e-1) * y
    den = (den + 1.57449261107098347e1) * y
    num = (num + 8.88314979438837594e0) * y
    den = (den + 1.17693950891312499e2) * y
    num = (num + 6.61191906371416295e1) * y
    den = (den + 5.37181101862009858e2) * y
    num = (num + 2.98635138197400131e2) * y
    den = (den + 1.62138957456669019e3) * y
    num = (num + 8.81952221241769090e2) * y
    den = (den + 3.29079923573345963e3) * y
    num = (num + 1.71204761263407058e3) * y
    den = (den + 4.36261909014324716e3) * y
    num = (num + 2.05107837782607147e3) * y
    den = (den + 3.43936767414372164e3) * y
    mid = (num + 1.23033935479799725e3) / (den + 1.23033935480374942e3)
    # y > 4: an expansion in 1 / y^2
    yb = tl.where(y > 4.0, y, 4.0)
    q = 1.0 / (yb * yb)
    num = 1.63153871373020978e-2 * q
    den = q
    num = (num + 3.05326634961232344e-1) * q
    den = (den + 2.56852019228982242e0) * q
    num = (num + 3.60344899949804439e-1) * q
    den = (den + 1.87295284992346725e0) * q
    num = (num + 1.25781726111229246e-1) * q
    den = (den + 5.27905102951428412e-1) * q
    num = (num + 1.60837851487422766e-2) * q
    den = (den + 6.05183413124413191e-2) * q
    r = q * (num + 6.58749161529837803e-4) / (den + 2.33520497626869185e-3)
    big = (5.6418958354775628695e-1 - r) / yb
    return tl.where(y < 0.46875, small, tl.where(y <= 4.0, mid, big))


@triton.jit
def _erfcx(x):
    a = tl.abs(x)
    pos = _erfcx_pos(a)
    neg = 2.0 * tl.exp(x * x) - pos
    return tl.where(x < 0.0, neg, pos)


@triton.jit
def erfcx_kernel(x_ptr, out_ptr, n, KIND: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    if KIND == 0:
        r = _erfcx(x)
        r = tl.where(x != x, x, r)
    else:
        t = x * 0.7071067811865476
        low = tl.log(_erfcx(-t) * 0.5) - t * t
        # erfc(t) = exp(-t^2) erfcx(t) for t >= 0, 2 - erfc(-t) below
        e = tl.exp(-t * t) * _erfcx_pos(tl.abs(t))
        e = tl.where(t < 0.0, 2.0 - e, e)
        z = -0.5 * e
        # log1p(z) = log(u) * z / (u - 1) with u = 1 + z (exact where u rounds to 1)
        u = 1.0 + z
        high = tl.where(u == 1.0, z, tl.log(u) * (z / (u - 1.0)))
        r = tl.where(x < -1.0, low, high)
        r = tl.where(x != x, x, r)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def {{WRAPPER}}({{SIGNATURE}}):
    x = {{INPUT}}
    out_dtype = x.dtype if x.is_floating_point() else torch.float32
    out = torch.empty(x.shape, dtype=out_dtype, device=x.device)
    n = out.numel()
    if n == 0:
        return out
    src = x.contiguous()
    if x.dtype == torch.bool:
        src = src.to(torch.int32)
    BLOCK = 256
    erfcx_kernel[(triton.cdiv(n, BLOCK), )](src, out, n, KIND={{KIND}}, BLOCK=BLOCK)
    return out
