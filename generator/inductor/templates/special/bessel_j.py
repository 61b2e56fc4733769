"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, bessel_j template):
Bessel functions of the first and second kind of orders 0 and 1 and the
spherical j0, ported from ATen's Math.h (Cephes rational approximations),
evaluated in float32 in ATen's operation order; the polynomial steps are fused
multiply-adds when FMA is set, as ATen's compiled loops contract them.
Integer and bool inputs compute in float32. KIND: 0 j0, 1 j1, 2 y0, 3 y1,
4 spherical_j0.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _horner_step(r, z, c, FMA: tl.constexpr):
    if FMA:
        v = tl.math.fma(r, z, c)
    else:
        v = r * z + c
    return v


@triton.jit
def _j0_pp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 0.0007969367292973471
    r = _horner_step(r, z, 0.08283523921074408, FMA)
    r = _horner_step(r, z, 1.239533716464143, FMA)
    r = _horner_step(r, z, 5.447250030587687, FMA)
    r = _horner_step(r, z, 8.74716500199817, FMA)
    r = _horner_step(r, z, 5.303240382353949, FMA)
    r = _horner_step(r, z, 1.0, FMA)
    return r


@triton.jit
def _j0_pq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 0.0009244088105588637
    r = _horner_step(r, z, 0.08562884743544745, FMA)
    r = _horner_step(r, z, 1.2535274390105895, FMA)
    r = _horner_step(r, z, 5.470977403304171, FMA)
    r = _horner_step(r, z, 8.761908832370695, FMA)
    r = _horner_step(r, z, 5.306052882353947, FMA)
    r = _horner_step(r, z, 1.0, FMA)
    return r


@triton.jit
def _j0_qp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + -0.011366383889846916
    r = _horner_step(r, z, -1.2825271867050931, FMA)
    r = _horner_step(r, z, -19.553954425773597, FMA)
    r = _horner_step(r, z, -93.20601521237683, FMA)
    r = _horner_step(r, z, -177.68116798048806, FMA)
    r = _horner_step(r, z, -147.07750515495118, FMA)
    r = _horner_step(r, z, -51.41053267665993, FMA)
    r = _horner_step(r, z, -6.050143506007285, FMA)
    return r


@triton.jit
def _j0_qq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 64.3178256118178
    r = _horner_step(r, z, 856.4300259769806, FMA)
    r = _horner_step(r, z, 3882.4018360540163, FMA)
    r = _horner_step(r, z, 7240.467741956525, FMA)
    r = _horner_step(r, z, 5930.727011873169, FMA)
    r = _horner_step(r, z, 2062.0933166032783, FMA)
    r = _horner_step(r, z, 242.0057402402914, FMA)
    return r


@triton.jit
def _j0_rp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + -4794432209.782018
    r = _horner_step(r, z, 1956174919465.5657, FMA)
    r = _horner_step(r, z, -249248344360967.72, FMA)
    r = _horner_step(r, z, 9708622510473064.0, FMA)
    return r


@triton.jit
def _j0_rq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 499.563147152651
    r = _horner_step(r, z, 173785.4016763747, FMA)
    r = _horner_step(r, z, 48440965.83399621, FMA)
    r = _horner_step(r, z, 11185553704.535683, FMA)
    r = _horner_step(r, z, 2112775201154.892, FMA)
    r = _horner_step(r, z, 310518229857422.56, FMA)
    r = _horner_step(r, z, 3.1812195594320496e+16, FMA)
    r = _horner_step(r, z, 1.7108629408104315e+18, FMA)
    return r


@triton.jit
def _j1_pp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 0.0007621256162081731
    r = _horner_step(r, z, 0.07313970569409176, FMA)
    r = _horner_step(r, z, 1.1271960812968493, FMA)
    r = _horner_step(r, z, 5.112079511468076, FMA)
    r = _horner_step(r, z, 8.424045901417724, FMA)
    r = _horner_step(r, z, 5.214515986823615, FMA)
    r = _horner_step(r, z, 1.0, FMA)
    return r


@triton.jit
def _j1_pq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 0.0005713231280725487
    r = _horner_step(r, z, 0.06884559087544954, FMA)
    r = _horner_step(r, z, 1.105142326340617, FMA)
    r = _horner_step(r, z, 5.073863861286015, FMA)
    r = _horner_step(r, z, 8.399855543276042, FMA)
    r = _horner_step(r, z, 5.209828486823619, FMA)
    r = _horner_step(r, z, 1.0, FMA)
    return r


@triton.jit
def _j1_qp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 0.05108625947501766
    r = _horner_step(r, z, 4.982138729512334, FMA)
    r = _horner_step(r, z, 75.82382841325453, FMA)
    r = _horner_step(r, z, 366.7796093601508, FMA)
    r = _horner_step(r, z, 710.8563049989261, FMA)
    r = _horner_step(r, z, 597.4896124006136, FMA)
    r = _horner_step(r, z, 211.68875710057213, FMA)
    r = _horner_step(r, z, 25.207020585802372, FMA)
    return r


@triton.jit
def _j1_qq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 74.23732770356752
    r = _horner_step(r, z, 1056.4488603826283, FMA)
    r = _horner_step(r, z, 4986.410583376536, FMA)
    r = _horner_step(r, z, 9562.318924047562, FMA)
    r = _horner_step(r, z, 7997.041604473507, FMA)
    r = _horner_step(r, z, 2826.1927851763908, FMA)
    r = _horner_step(r, z, 336.0936078106983, FMA)
    return r


@triton.jit
def _j1_rp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + -899971225.7055594
    r = _horner_step(r, z, 452228297998.19403, FMA)
    r = _horner_step(r, z, -72749424522181.83, FMA)
    r = _horner_step(r, z, 3682957328638529.0, FMA)
    return r


@triton.jit
def _j1_rq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 620.8364781180543
    r = _horner_step(r, z, 256987.25675774884, FMA)
    r = _horner_step(r, z, 83514679.14319493, FMA)
    r = _horner_step(r, z, 22151159547.97925, FMA)
    r = _horner_step(r, z, 4749141220799.914, FMA)
    r = _horner_step(r, z, 784369607876235.9, FMA)
    r = _horner_step(r, z, 8.952223361846274e+16, FMA)
    r = _horner_step(r, z, 5.322786203326801e+18, FMA)
    return r


@triton.jit
def _y0_yp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 15592.436785523574
    r = _horner_step(r, z, -14663929.59039716, FMA)
    r = _horner_step(r, z, 5435264770.518765, FMA)
    r = _horner_step(r, z, -982136065717.9115, FMA)
    r = _horner_step(r, z, 87590639439536.7, FMA)
    r = _horner_step(r, z, -3466283033847297.0, FMA)
    r = _horner_step(r, z, 4.4273326857256984e+16, FMA)
    r = _horner_step(r, z, -1.8495080043698668e+16, FMA)
    return r


@triton.jit
def _y0_yq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 1041.2835366425984
    r = _horner_step(r, z, 626107.330137135, FMA)
    r = _horner_step(r, z, 268919633.39381415, FMA)
    r = _horner_step(r, z, 86400248710.3935, FMA)
    r = _horner_step(r, z, 20297961275010.555, FMA)
    r = _horner_step(r, z, 3171577528429750.5, FMA)
    r = _horner_step(r, z, 2.5059625617265306e+17, FMA)
    return r


@triton.jit
def _y1_yp(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 1263204747.9017804
    r = _horner_step(r, z, -647355876379.1603, FMA)
    r = _horner_step(r, z, 114509511541823.73, FMA)
    r = _horner_step(r, z, -8127702555013251.0, FMA)
    r = _horner_step(r, z, 2.024394757135949e+17, FMA)
    r = _horner_step(r, z, -7.788771962659501e+17, FMA)
    return r


@triton.jit
def _y1_yq(z, FMA: tl.constexpr):
    r = tl.zeros_like(z) + 594.3015923461282
    r = _horner_step(r, z, 235564.09294306856, FMA)
    r = _horner_step(r, z, 73481194.44597217, FMA)
    r = _horner_step(r, z, 18760131610.870617, FMA)
    r = _horner_step(r, z, 3882312774962.3857, FMA)
    r = _horner_step(r, z, 620557727146953.8, FMA)
    r = _horner_step(r, z, 6.871410873553005e+16, FMA)
    r = _horner_step(r, z, 3.9727060811656064e+18, FMA)
    return r


@triton.jit
def _j0(x, FMA: tl.constexpr):
    x = tl.abs(x)
    z = x * x
    tiny = 1.0 - z / 4.0
    small = (z - 5.78318596294678452118e+00) * (z - 3.04712623436620863991e+01) * _j0_rp(z, FMA) / _j0_rq(z, FMA)
    xs = tl.where(x > 5.0, x, 5.0)
    w = 25.0 / (xs * xs)
    big = (_j0_pp(w, FMA) / _j0_pq(w, FMA) * tl.cos(xs - 0.785398163397448309615660845819875721) -
           5.0 / xs * (_j0_qp(w, FMA) / _j0_qq(w, FMA)) * tl.sin(xs - 0.785398163397448309615660845819875721)
           ) * 0.797884560802865355879892119868763737 / tl.sqrt(xs)
    return tl.where(x <= 5.0, tl.where(x < 0.00001, tiny, small), big)


@triton.jit
def _j1(x, FMA: tl.constexpr):
    a = tl.abs(x)
    z = a * a
    small = _j1_rp(z, FMA) / _j1_rq(z, FMA) * a * (z - 1.46819706421238932572e+01) * (z - 4.92184563216946036703e+01)
    xs = tl.where(a > 5.0, a, 5.0)
    w = 5.0 / xs * (5.0 / xs)
    big = (_j1_pp(w, FMA) / _j1_pq(w, FMA) * tl.cos(xs - 2.356194490192344928846982537459627163) -
           5.0 / xs * (_j1_qp(w, FMA) / _j1_qq(w, FMA)) * tl.sin(xs - 2.356194490192344928846982537459627163)
           ) * 0.797884560802865355879892119868763737 / tl.sqrt(xs)
    r = tl.where(a <= 5.0, small, big)
    return tl.where(x < 0.0, -r, r)


@triton.jit
def _y0(x, FMA: tl.constexpr):
    xp = tl.where(x > 0.0, x, 1.0)
    z = xp * xp
    small = _y0_yp(z, FMA) / _y0_yq(z, FMA) + (0.636619772367581343075535053490057448 * tl.log(xp) * _j0(xp, FMA))
    xs = tl.where(x > 5.0, x, 5.0)
    w = 25.0 / (xs * xs)
    big = (_j0_pp(w, FMA) / _j0_pq(w, FMA) * tl.sin(xs - 0.785398163397448309615660845819875721) +
           5.0 / xs * (_j0_qp(w, FMA) / _j0_qq(w, FMA)) * tl.cos(xs - 0.785398163397448309615660845819875721)
           ) * 0.797884560802865355879892119868763737 / tl.sqrt(xs)
    r = tl.where(x <= 5.0, small, big)
    r = tl.where(x == 0.0, -float("inf"), r)
    return tl.where(x < 0.0, float("nan"), r)


@triton.jit
def _y1(x, FMA: tl.constexpr):
    xp = tl.where(x > 0.0, x, 1.0)
    z = xp * xp
    small = xp * (_y1_yp(z, FMA) / _y1_yq(z, FMA)) + (0.636619772367581343075535053490057448 *
                                                      (_j1(xp, FMA) * tl.log(xp) - 1.0 / xp))
    xs = tl.where(x > 5.0, x, 5.0)
    w = 5.0 / xs * (5.0 / xs)
    big = (_j1_pp(w, FMA) / _j1_pq(w, FMA) * tl.sin(xs - 2.356194490192344928846982537459627163) +
           5.0 / xs * (_j1_qp(w, FMA) / _j1_qq(w, FMA)) * tl.cos(xs - 2.356194490192344928846982537459627163)
           ) * 0.797884560802865355879892119868763737 / tl.sqrt(xs)
    r = tl.where(x <= 5.0, small, big)
    r = tl.where(x == 0.0, -float("inf"), r)
    return tl.where(x < 0.0, float("nan"), r)


@triton.jit
def _spherical_j0(x):
    z = x * x
    series = 1.0 + z * (-1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362880.0 + z * (
        -1.0 / 39916800.0 + z * (1.0 / 6227020800.0))))))
    r = tl.where(tl.abs(x) < 0.5, series, tl.sin(x) / x)
    return tl.where(tl.abs(x) == float("inf"), 0.0, r)


@triton.jit
def bessel_j_kernel(x_ptr, out_ptr, n, KIND: tl.constexpr, FMA: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    if KIND == 0:
        r = _j0(x, FMA)
    elif KIND == 1:
        r = _j1(x, FMA)
    elif KIND == 2:
        r = _y0(x, FMA)
    elif KIND == 3:
        r = _y1(x, FMA)
    else:
        r = _spherical_j0(x)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def _bessel(x, kind, fma):
    out_dt = x.dtype if x.is_floating_point() else torch.float32
    out = torch.empty(x.shape, dtype=out_dt, device=x.device)
    n = out.numel()
    if n == 0:
        return out
    BLOCK = 128
    bessel_j_kernel[(triton.cdiv(n, BLOCK), )](x.contiguous(), out, n, KIND=kind, FMA=fma, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
