"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, poly template): the
orthogonal polynomials of torch.special evaluated as ATen's Math.h does, in
float32: n is truncated to an integer, the special cases at the interval ends
and the closed trigonometric forms for large n come first, otherwise the
three-term recurrence runs n - 1 steps (each lane stops at its own n), each
step one fused multiply-add as in ATen's compiled CPU loops.
KIND: 0-3 Chebyshev T, U, V, W; 4-7 shifted Chebyshev T, U, V, W; 8 Hermite
H; 9 Hermite He; 10 Laguerre L; 11 Legendre P.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _pick(res, done, cond, value):
    # the first special case that holds wins
    take = (done == 0) & cond
    return tl.where(take, value, res), done | cond


@triton.jit
def _asin_core(a):
    # Cephes asinf on |a| <= 1: a polynomial on [0, 0.5], the half-angle reduction above
    big = a > 0.5
    z = tl.where(big, 0.5 * (1.0 - a), a * a)
    w = tl.where(big, tl.sqrt(z), a)
    r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z +
         1.6666752422e-1) * z * w + w
    return tl.where(big, 1.5707963267948966 - (r + r), r)


@triton.jit
def _acos(x):
    # acos from asin: pi/2 - asin(x) in the middle, 2 asin(sqrt((1 -+ x) / 2)) near the ends
    mid = 1.5707963267948966 - tl.where(x < 0.0, -_asin_core(tl.abs(x)), _asin_core(tl.abs(x)))
    hi = 2.0 * _asin_core(tl.sqrt(0.5 * (1.0 - x)))
    lo = 3.141592653589793 - 2.0 * _asin_core(tl.sqrt(0.5 * (1.0 + x)))
    return tl.where(x > 0.5, hi, tl.where(x < -0.5, lo, mid))


@triton.jit
def poly_kernel(x_ptr, n_ptr, out_ptr, total, KIND: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < total
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    n = tl.load(n_ptr + i, mask=mask, other=0).to(tl.float32).to(tl.int64)
    nf = n.to(tl.float32)
    even = (n % 2) == 0
    one = tl.full([BLOCK], 1.0, tl.float32)
    res = tl.zeros([BLOCK], dtype=tl.float32)
    done = n < 0
    if KIND >= 4 and KIND <= 7:
        t = x + x - 1.0
        c = t + t
    else:
        t = x
        c = x + x
    if KIND == 0 or KIND == 11:
        res, done = _pick(res, done, tl.abs(x) == 1.0, tl.where((x > 0.0) | even, 1.0, -1.0))
    elif KIND == 1:
        res, done = _pick(res, done, tl.abs(x) == 1.0, tl.where((x > 0.0) | even, nf + 1.0, -(nf + 1.0)))
    elif KIND == 2:
        res, done = _pick(res, done, tl.abs(x) == 1.0,
                          tl.where(x > 0.0, 1.0, tl.where(even, nf + nf + 1.0, -(nf + nf + 1.0))))
    elif KIND == 3:
        res, done = _pick(res, done, tl.abs(x) == 1.0, tl.where(x > 0.0, nf + nf + 1.0, tl.where(even, 1.0, -1.0)))
    elif KIND == 4:
        res, done = _pick(res, done, x == 1.0, one)
        res, done = _pick(res, done, x == 0.0, tl.where(even, 1.0, -1.0))
    elif KIND == 5:
        res, done = _pick(res, done, x == 1.0, nf + 1.0)
        res, done = _pick(res, done, x == 0.0, tl.where(even, nf + 1.0, -(nf + 1.0)))
    elif KIND == 6:
        res, done = _pick(res, done, x == 1.0, one)
        res, done = _pick(res, done, x == 0.0, tl.where(even, nf + nf + 1.0, -(nf + nf + 1.0)))
    elif KIND == 7:
        res, done = _pick(res, done, x == 1.0, nf + nf + 1.0)
        res, done = _pick(res, done, x == 0.0, tl.where(even, 1.0, -1.0))
    elif KIND == 10:
        res, done = _pick(res, done, tl.abs(x) == 0.0, one)
    # closed trigonometric forms for large n inside (-1, 1)
    if KIND <= 7 and KIND != 3 and KIND != 7:
        inside = tl.abs(t) < 1.0
        a = _acos(tl.where(inside, t, 0.0))
        if KIND == 0 or KIND == 4:
            res, done = _pick(res, done, (n > 6) & inside, tl.cos(nf * a))
        elif KIND == 1 or KIND == 5:
            lim = 8 if KIND == 1 else 6
            s = tl.sin(a)
            big = (n > lim) & inside
            res, done = _pick(res, done, big & (s != 0.0), tl.sin((nf + 1.0) * a) / s)
            res, done = _pick(res, done, big, (nf + 1.0) * tl.cos((nf + 1.0) * a) / t)
        else:
            lim = 8 if KIND == 2 else 6
            big = (n > lim) & inside
            res, done = _pick(res, done, big & (tl.sin(a / 2.0) != 1.0), tl.cos((nf + 0.5) * a) / tl.cos(a / 2.0))
            res, done = _pick(res, done, big, tl.where(even, nf + nf + 1.0, -(nf + nf + 1.0)))
    elif KIND == 3 or KIND == 7:
        inside = tl.abs(t) < 1.0
        a = _acos(tl.where(inside, t, 0.0))
        lim = 8 if KIND == 3 else 4
        big = (n > lim) & inside
        res, done = _pick(res, done, big & (tl.cos(a / 2.0) != 1.0), tl.sin((nf + 0.5) * a) / tl.sin(a / 2.0))
        if KIND == 3:
            res, done = _pick(res, done, big & (x > 0.0), nf + nf + 1.0)
        res, done = _pick(res, done, big, tl.where(even, 1.0, -1.0))
    # P_1
    if KIND == 0 or KIND == 4 or KIND == 9 or KIND == 11:
        q = t
    elif KIND == 1 or KIND == 5 or KIND == 8:
        q = c
    elif KIND == 2 or KIND == 6:
        q = c - 1.0
    elif KIND == 3 or KIND == 7:
        q = c + 1.0
    else:
        q = 1.0 - x
    res, done = _pick(res, done, n == 0, one)
    res, done = _pick(res, done, n == 1, q)
    p = one
    steps = tl.max(tl.where(mask & (done == 0), n, 0), axis=0)
    for j in range(1, steps):
        jf = j * 1.0
        # a * q - b as one fused multiply-add, as ATen's compiled loops contract it
        if KIND <= 7:
            r = tl.math.fma(c, q, -p)
        elif KIND == 8:
            r = tl.math.fma(c, q, -((jf + jf) * p))
        elif KIND == 9:
            r = tl.math.fma(x, q, -(jf * p))
        elif KIND == 10:
            r = tl.math.fma((jf + jf) + (1.0 - x), q, -(jf * p)) / (jf + 1.0)
        else:
            r = tl.math.fma((jf + jf + 1.0) * x, q, -(jf * p)) / (jf + 1.0)
        go = j < n
        p = tl.where(go, q, p)
        q = tl.where(go, r, q)
    res = tl.where(done, res, q)
    tl.store(out_ptr + i, res, mask=mask)


def _poly(x, n, kind):
    xt = x if torch.is_tensor(x) else torch.full([], x, dtype=torch.float32)
    nt = n if torch.is_tensor(n) else torch.full([], n, dtype=torch.float32)
    shape = torch.broadcast_shapes(xt.shape, nt.shape)
    out = torch.empty(shape, dtype=torch.float32, device=xt.device)
    total = out.numel()
    if total == 0:
        return out
    xs = xt.to(torch.float32).expand(shape).contiguous()
    ns = nt.to(torch.float32).expand(shape).contiguous()
    BLOCK = 128
    poly_kernel[(triton.cdiv(total, BLOCK), )](xs, ns, out, total, KIND=kind, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
