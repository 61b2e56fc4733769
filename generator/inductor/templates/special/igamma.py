"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, igamma template): the
regularized lower (KIND 0, igamma) and upper (KIND 1, igammac) incomplete gamma
functions in float32, following the branches of ATen's calc_igamma /
calc_igammac (Cephes): the power series of P(a, x) (DLMF 8.11.4), the series of
Q(a, x) for small x (DLMF 8.7.3) and the continued fraction of Q(a, x) for
x > 1.1, each run for a fixed number of steps with converged lanes frozen.
The uniform asymptotic expansions ATen uses for a > 20 near x = a are not
implemented: those lanes use the series / continued fraction as well.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _lgamma_pos(x):
    # x > 0: lgamma(z) - log(x (x+1) ... (z-1)) with z = x + k >= 8, Stirling's series at z
    z = x
    prod = tl.full(x.shape, 1.0, tl.float32)
    for k in tl.static_range(8):
        small = z < 8.0
        prod = tl.where(small, prod * z, prod)
        z = tl.where(small, z + 1.0, z)
    iz = 1.0 / z
    iz2 = iz * iz
    series = iz * (1.0 / 12.0 - iz2 * (1.0 / 360.0 - iz2 * (1.0 / 1260.0 - iz2 * (1.0 / 1680.0))))
    return (z - 0.5) * tl.log(z) - z + 0.91893853320467274178 + series - tl.log(prod)


@triton.jit
def _expm1(y):
    # exp(y) - 1 without cancellation near 0 (Kahan: (u - 1) * y / log(u))
    u = tl.exp(y)
    d = u - 1.0
    safe = tl.where((d == 0.0) | (d == -1.0), 1.0, d)
    r = safe * y / tl.log(tl.where(d == 0.0, 2.0, u))
    return tl.where(d == 0.0, y, tl.where(d == -1.0, -1.0, r))


@triton.jit
def _fac(a, x):
    # x^a e^-x / Gamma(a)
    ax = a * tl.log(x) - x - _lgamma_pos(a)
    return tl.where(ax < -88.72283905206835, 0.0, tl.exp(ax))


@triton.jit
def _igam_series(a, x, STEPS: tl.constexpr):
    r = a
    c = tl.full(a.shape, 1.0, tl.float32)
    ans = tl.full(a.shape, 1.0, tl.float32)
    done = a != a
    for k in range(0, STEPS):
        r2 = r + 1.0
        c2 = c * x / r2
        ans2 = ans + c2
        r = tl.where(done, r, r2)
        c = tl.where(done, c, c2)
        ans = tl.where(done, ans, ans2)
        done = done | (c2 <= 5.9604644775390625e-08 * ans2)
    return ans * _fac(a, x) / a


@triton.jit
def _igamc_series(a, x, STEPS: tl.constexpr):
    total = tl.zeros(a.shape, dtype=tl.float32)
    term = tl.full(a.shape, 1.0, tl.float32)
    done = a != a
    for k in range(1, STEPS):
        t2 = term * (-x / k)
        s2 = total + t2 / (a + k)
        term = tl.where(done, term, t2)
        total = tl.where(done, total, s2)
        done = done | (tl.abs(t2) <= 5.9604644775390625e-08 * tl.abs(s2))
    logx = tl.log(x)
    lead = -_expm1(a * logx - _lgamma_pos(a + 1.0))
    return lead - tl.exp(a * logx - _lgamma_pos(a)) * total


@triton.jit
def _igamc_fraction(a, x, STEPS: tl.constexpr):
    y = 1.0 - a
    z = x + y + 1.0
    c = tl.zeros(a.shape, dtype=tl.float32)
    pkm2 = tl.full(a.shape, 1.0, tl.float32)
    qkm2 = x
    pkm1 = x + 1.0
    qkm1 = z * x
    ans = pkm1 / qkm1
    done = a != a
    for k in range(0, STEPS):
        c = c + 1.0
        y = y + 1.0
        z = z + 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        nz = qk != 0.0
        r = pk / tl.where(nz, qk, 1.0)
        t = tl.where(nz, tl.abs((ans - r) / r), 1.0)
        ans = tl.where(done | (~nz), ans, r)
        big = tl.abs(pk) > 16777216.0
        scale = tl.where(big, 5.9604644775390625e-08, 1.0)
        pkm2n = pkm1 * scale
        pkm1n = pk * scale
        qkm2n = qkm1 * scale
        qkm1n = qk * scale
        pkm2 = tl.where(done, pkm2, pkm2n)
        pkm1 = tl.where(done, pkm1, pkm1n)
        qkm2 = tl.where(done, qkm2, qkm2n)
        qkm1 = tl.where(done, qkm1, qkm1n)
        done = done | (t <= 5.9604644775390625e-08)
    return ans * _fac(a, x)


@triton.jit
def igamma_kernel(a_ptr, x_ptr, out_ptr, n, KIND: tl.constexpr, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    a0 = tl.load(a_ptr + i, mask=mask, other=1).to(tl.float32)
    x0 = tl.load(x_ptr + i, mask=mask, other=1).to(tl.float32)
    # the series see only positive finite arguments; the special cases are chosen below
    ok = (a0 > 0.0) & (x0 > 0.0) & (a0 < float('inf')) & (x0 < float('inf'))
    a = tl.where(ok, a0, 1.0)
    x = tl.where(ok, x0, 1.0)
    p_series = _igam_series(a, x, STEPS)
    q_series = _igamc_series(a, x, STEPS)
    q_frac = _igamc_fraction(a, x, STEPS)
    nan = float('nan')
    if KIND == 0:
        use_q = (x > 1.0) & (x > a)
        q = tl.where(x > 1.1, tl.where(x < a, 1.0 - p_series, q_frac), q_series)
        r = tl.where(use_q, 1.0 - q, p_series)
        r = tl.where(x0 == float('inf'), 1.0, r)
        r = tl.where(a0 == float('inf'), tl.where(x0 == float('inf'), nan, 0.0), r)
        r = tl.where(x0 == 0.0, 0.0, r)
        r = tl.where(a0 == 0.0, tl.where(x0 > 0.0, 1.0, nan), r)
    else:
        small_a = tl.where(x <= 0.5, -0.4 / tl.log(x) < a, x * 1.1 < a)
        low = tl.where(small_a, 1.0 - p_series, q_series)
        r = tl.where(x > 1.1, tl.where(x < a, 1.0 - p_series, q_frac), low)
        r = tl.where(x0 == float('inf'), 0.0, r)
        r = tl.where(a0 == float('inf'), tl.where(x0 == float('inf'), nan, 1.0), r)
        r = tl.where(x0 == 0.0, 1.0, r)
        r = tl.where(a0 == 0.0, tl.where(x0 > 0.0, 0.0, nan), r)
    r = tl.where((x0 < 0.0) | (a0 < 0.0) | (x0 != x0) | (a0 != a0), nan, r)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def {{WRAPPER}}({{SIGNATURE}}):
    shape = torch.broadcast_shapes(self.shape, other.shape)
    dt = torch.promote_types(self.dtype, other.dtype)
    if not (dt == torch.float32 or dt == torch.float16 or dt == torch.bfloat16):
        dt = torch.float32
    out = torch.empty(shape, dtype=dt, device=self.device)
    n = out.numel()
    if n == 0:
        return out
    a = self.to(torch.float32).expand(shape).contiguous()
    x = other.to(torch.float32).expand(shape).contiguous()
    BLOCK = 128
    igamma_kernel[(triton.cdiv(n, BLOCK), )](a, x, out, n, KIND={{KIND}}, STEPS=200, BLOCK=BLOCK)
    return out
