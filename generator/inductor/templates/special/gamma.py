"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, gamma template): the
gamma-function family in float32. lgamma shifts x up to at least 8 and uses
Stirling's series (reflection for x < 0.5); digamma, trigamma and the Hurwitz
zeta follow ATen's Math.h (Cephes) step for step, polygamma of order n >= 2 is
(-1)^(n+1) n! zeta(n + 1, x), mvlgamma sums lgamma(x - j/2). Integer and bool
inputs compute in float32, float16/bfloat16 in float32 rounded on store.
KIND: 0 lgamma, 1 digamma, 2 polygamma(n), 3 mvlgamma(p), 4 zeta(x, q).
"""
import math
import torch
import triton
import triton.language as tl


@triton.jit
def _sin_pi(x):
    # sin(pi x) with the argument reduced to [-0.5, 0.5] first (exact in float32)
    n = tl.floor(x + 0.5)
    r = x - n
    s = tl.sin(3.141592653589793 * r)
    odd = (n - 2.0 * tl.floor(n * 0.5)) != 0.0
    return tl.where(odd, -s, s)


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
def _lgamma(x):
    xp = tl.where(x >= 0.5, x, 1.0 - x)
    pos = _lgamma_pos(xp)
    s = tl.abs(_sin_pi(x))
    refl = tl.log(3.141592653589793 / s) - pos
    r = tl.where(x >= 0.5, pos, refl)
    r = tl.where((x <= 0.0) & (x == tl.floor(x)), float("inf"), r)
    r = tl.where(tl.abs(x) == float("inf"), float("inf"), r)
    return tl.where(x != x, x, r)


@triton.jit
def _digamma_pos(x):
    # ATen's calc_digamma for x > 0
    result = tl.zeros_like(x)
    for k in tl.static_range(10):
        small = x < 10.0
        result = tl.where(small, result - 1.0 / x, result)
        x = tl.where(small, x + 1.0, x)
    z = 1.0 / (x * x)
    p = tl.zeros_like(x) + 8.33333333333333333333e-2
    p = tl.math.fma(p, z, -2.10927960927960927961e-2)
    p = tl.math.fma(p, z, 7.57575757575757575758e-3)
    p = tl.math.fma(p, z, -4.16666666666666666667e-3)
    p = tl.math.fma(p, z, 3.96825396825396825397e-3)
    p = tl.math.fma(p, z, -8.33333333333333333333e-3)
    p = tl.math.fma(p, z, 8.33333333333333333333e-2)
    y = tl.where(x < 1.0e17, z * p, 0.0)
    r = result + tl.log(x) - (0.5 / x) - y
    return tl.where(x == 10.0, result + 2.25175258906672110764, r)


@triton.jit
def _digamma(x):
    neg = x < 0.0
    xr = x - tl.where(x < 0.0, tl.ceil(x), tl.floor(x))
    pi_over_tan = 3.141592653589793 * tl.cos(3.141592653589793 * xr) / tl.sin(3.141592653589793 * xr)
    r = tl.where(neg, _digamma_pos(tl.where(neg, 1.0 - x, 1.0)) - pi_over_tan, _digamma_pos(tl.where(neg, 1.0, x)))
    r = tl.where(neg & (x == tl.floor(x)), float("nan"), r)
    # +0 -> -inf, -0 -> +inf
    return tl.where(x == 0.0, tl.where(1.0 / x < 0.0, float("inf"), -float("inf")), r)


@triton.jit
def _trigamma(x):
    low = x < 0.5
    s = tl.sin(3.141592653589793 * x)
    result = tl.where(low, -(3.141592653589793 * 3.141592653589793) / (s * s), 0.0)
    x = tl.where(low, 1.0 - x, x)
    for k in tl.static_range(6):
        result = result + 1.0 / (x * x)
        x = x + 1.0
    ixx = 1.0 / (x * x)
    result = result + (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0)))) / x
    return tl.where(low, -result, result)


@triton.jit
def _pow_neg(a, x):
    # a ** -x; a negative base takes the sign of (-1) ** x (x is an integer there). Integral x below
    # 128 multiplies by squaring (a few roundings instead of exp2/log2's error times |x log2 a|)
    ax = tl.abs(a)
    m = tl.exp2(-x * tl.log2(ax))
    integral = (x == tl.floor(x)) & (x > 0.0) & (x < 128.0)
    xi = tl.where(integral, x, 0.0).to(tl.int32)
    p = tl.full(a.shape, 1.0, tl.float32)
    base = ax
    for b in tl.static_range(7):
        p = tl.where(((xi >> b) & 1) != 0, p * base, p)
        base = base * base
    m = tl.where(integral, 1.0 / p, m)
    odd = (x - 2.0 * tl.floor(x * 0.5)) != 0.0
    return tl.where((a < 0.0) & odd, -m, m)


@triton.jit
def _zeta(x, q, steps):
    # the Hurwitz zeta as ATen's Math.h computes it (float32 here)
    s = _pow_neg(q, x)
    a = q
    b = tl.zeros_like(q)
    done = tl.zeros(q.shape, dtype=tl.int1)
    for i in range(0, steps):
        go = (done == 0) & ((i < 9) | (a <= 9.0))
        a = tl.where(go, a + 1.0, a)
        bn = _pow_neg(a, x)
        b = tl.where(go, bn, b)
        s = tl.where(go, s + bn, s)
        done = done | (go == 0) | (go & (-1.1102230246251565e-16 * s < bn) & (bn < 1.1102230246251565e-16 * s))
    early = done & ((a > 9.0) & (b < 1.1102230246251565e-16 * s) & (-1.1102230246251565e-16 * s < b))
    w = a
    s2 = s + b * w / (x - 1.0)
    s2 = s2 - 0.5 * b
    aa = tl.full(q.shape, 1.0, tl.float32)
    k = tl.zeros_like(q)
    fin = tl.zeros(q.shape, dtype=tl.int1)
    for j in tl.static_range(12):
        if j == 0:
            c = 12.0
        elif j == 1:
            c = -720.0
        elif j == 2:
            c = 30240.0
        elif j == 3:
            c = -1209600.0
        elif j == 4:
            c = 47900160.0
        elif j == 5:
            c = -1.8924375803183791606e9
        elif j == 6:
            c = 7.47242496e10
        elif j == 7:
            c = -2.950130727918164224e12
        elif j == 8:
            c = 1.1646782814350067249e14
        elif j == 9:
            c = -4.5979787224074726105e15
        elif j == 10:
            c = 1.8152105401943546773e17
        else:
            c = -7.1661652561756670113e18
        aa = aa * (x + k)
        b = b / w
        t = aa * b / c
        s2 = tl.where(fin, s2, s2 + t)
        fin = fin | (tl.abs(t / s2) < 1.1102230246251565e-16)
        k = k + 1.0
        aa = aa * (x + k)
        b = b / w
        k = k + 1.0
    r = tl.where(early, s, s2)
    r = tl.where((q <= 0.0) & (q == tl.floor(q)), float("inf"), r)
    r = tl.where((q <= 0.0) & (q != tl.floor(q)) & (x != tl.floor(x)), float("nan"), r)
    r = tl.where(x < 1.0, float("nan"), r)
    return tl.where(x == 1.0, float("inf"), r)


@triton.jit
def gamma_kernel(x_ptr, q_ptr, out_ptr, n, order, const, steps, KIND: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    if KIND == 0:
        r = _lgamma(x)
    elif KIND == 1:
        r = _digamma(x)
    elif KIND == 2:
        if order == 0:
            r = _digamma(x)
        elif order == 1:
            r = _trigamma(x)
        else:
            of = order * 1.0
            sign = tl.where(order % 2 == 1, 1.0, -1.0)
            # n! as a product (ATen: exp(lgamma(n + 1)) in double)
            fact = tl.full(x.shape, 1.0, tl.float32)
            for k in range(2, order + 1):
                fact = fact * k
            r = sign * fact * _zeta(tl.zeros_like(x) + of + 1.0, x, steps)
    elif KIND == 3:
        r = tl.zeros_like(x)
        for j in range(0, order):
            r = r + _lgamma(x + (j - order + 1) * 0.5)
        r = r + const
    else:
        q = tl.load(q_ptr + i, mask=mask, other=0).to(tl.float32)
        r = _zeta(x, q, steps)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def _float_out(t):
    return t.dtype if t.is_floating_point() else torch.float32


def _gamma(x, kind, order=0):
    out = torch.empty(x.shape, dtype=_float_out(x), device=x.device)
    n = out.numel()
    if n == 0:
        return out
    const = order * (order - 1) * math.log(math.pi) / 4.0 if kind == 3 else 0.0
    xs = x.contiguous()
    BLOCK = 128
    gamma_kernel[(triton.cdiv(n, BLOCK), )](xs, xs, out, n, order, const, 64, KIND=kind, BLOCK=BLOCK)
    return out


def _zeta_op(x, q):
    xt = x if torch.is_tensor(x) else torch.full([], x, dtype=torch.float32)
    qt = q if torch.is_tensor(q) else torch.full([], q, dtype=torch.float32)
    shape = torch.broadcast_shapes(xt.shape, qt.shape)
    dt = torch.promote_types(xt.dtype, qt.dtype)
    if not (dt == torch.float32 or dt == torch.float16 or dt == torch.bfloat16):
        dt = torch.float32
    out = torch.empty(shape, dtype=dt, device=xt.device)
    n = out.numel()
    if n == 0:
        return out
    xs = xt.to(torch.float32).expand(shape).contiguous()
    qs = qt.to(torch.float32).expand(shape).contiguous()
    BLOCK = 128
    gamma_kernel[(triton.cdiv(n, BLOCK), )](xs, qs, out, n, 0, 0.0, 64, KIND=4, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
