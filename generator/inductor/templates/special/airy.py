"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, airy template): the
Airy function Ai(x) in float32 in the three ranges ATen's airy_ai_forward uses
(Cephes' rational approximations): below -2.09 the oscillating asymptotic form
(sin/cos of 2/3 (-x)^1.5 + pi/4 with rational corrections in 1/zeta^2), at or
above 2.09 the decaying form exp(-zeta) times a rational function of 1/zeta
(zeta = 2/3 x^1.5; 0 above 103.892), in between the Maclaurin series of the two
auxiliary functions f and g, summed until a term falls below float32's epsilon
relative to f (the sum is frozen from then on, as ATen's loop stops). Infinities
give NaN. Integer and bool inputs give float32.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _airy_negative(x):
    # x < -2.09
    xn = tl.where(x < -2.09, x, -2.09)
    r = tl.sqrt(-xn)
    zeta = -2.0 * xn * r / 3.0
    z = 1.0 / zeta
    zz = z * z
    afn = -1.31696323418331795333e-01
    afn = afn * zz - 6.26456544431912369773e-01
    afn = afn * zz - 6.93158036036933542233e-01
    afn = afn * zz - 2.79779981545119124951e-01
    afn = afn * zz - 4.91900132609500318020e-02
    afn = afn * zz - 4.06265923594885404393e-03
    afn = afn * zz - 1.59276496239262096340e-04
    afn = afn * zz - 2.77649108155232920844e-06
    afn = afn * zz - 1.67787698489114633780e-08
    afd = 1.33560420706553243746e+01
    afd = afd * zz + 3.26825032795224613948e+01
    afd = afd * zz + 2.67367040941499554804e+01
    afd = afd * zz + 9.18707402907259625840e+00
    afd = afd * zz + 1.47529146771666414581e+00
    afd = afd * zz + 1.15687173795188044134e-01
    afd = afd * zz + 4.40291641615211203805e-03
    afd = afd * zz + 7.54720348287414296618e-05
    afd = afd * zz + 4.51850092970580378464e-07
    agn = 1.97339932091685679179e-02
    agn = agn * zz + 3.91103029615688277255e-01
    agn = agn * zz + 1.06579897599595591108e+00
    agn = agn * zz + 9.39169229816650230044e-01
    agn = agn * zz + 3.51465656105547619242e-01
    agn = agn * zz + 6.33888919628925490927e-02
    agn = agn * zz + 5.85804113048388458567e-03
    agn = agn * zz + 2.82851600836737019778e-04
    agn = agn * zz + 6.98793669997260967291e-06
    agn = agn * zz + 8.11789239554389293311e-08
    agn = agn * zz + 3.41551784765923618484e-10
    agd = 9.30892908077441974853e+00
    agd = agd * zz + 1.98352928718312140417e+01
    agd = agd * zz + 1.55646628932864612953e+01
    agd = agd * zz + 5.47686069422975497931e+00
    agd = agd * zz + 9.54293611618961883998e-01
    agd = agd * zz + 8.64580826352392193095e-02
    agd = agd * zz + 4.12656523824222607191e-03
    agd = agd * zz + 1.01259085116509135510e-04
    agd = agd * zz + 1.17166733214413521882e-06
    agd = agd * zz + 4.91834570062930015649e-09
    t = zeta + 0.25 * 3.14159265358979323846
    amp = 5.64189583547756286948e-01 / tl.sqrt(r)
    return amp * (tl.sin(t) * (1.0 + zz * afn / afd) - tl.cos(t) * (z * agn / agd))


@triton.jit
def _airy_positive(x):
    # x >= 2.09
    xp = tl.where(x >= 2.09, x, 2.09)
    zeta = 2.0 * xp * tl.sqrt(xp) / 3.0
    w = 1.0 / zeta
    an = 3.46538101525629032477e-01
    an = an * w + 1.20075952739645805542e+01
    an = an * w + 7.62796053615234516538e+01
    an = an * w + 1.68089224934630576269e+02
    an = an * w + 1.59756391350164413639e+02
    an = an * w + 7.05360906840444183113e+01
    an = an * w + 1.40264691163389668864e+01
    an = an * w + 9.99999999999999995305e-01
    ad = 5.67594532638770212846e-01
    ad = ad * w + 1.47562562584847203173e+01
    ad = ad * w + 8.45138970141474626562e+01
    ad = ad * w + 1.77318088145400459522e+02
    ad = ad * w + 1.64234692871529701831e+02
    ad = ad * w + 7.14778400825575695274e+01
    ad = ad * w + 1.40959135607834029598e+01
    ad = ad * w + 1.00000000000000000470e+00
    return 5.64189583547756286948e-01 * (an / ad) / (2.0 * tl.sqrt(tl.sqrt(xp)) * tl.exp(zeta))


@triton.jit
def _airy_series(x):
    # -2.09 <= x < 2.09: c1 f(x) - c2 g(x)
    xs = tl.where((x >= -2.09) & (x < 2.09), x, 0.0)
    f = 1.0 + xs * 0.0
    g = xs
    k = 1.0 + xs * 0.0
    m = 1.0 + xs * 0.0
    n = xs
    z = xs * xs * xs
    done = xs != xs
    for it in range(0, 40):
        m2 = m * z
        k2 = k + 1.0
        m2 = m2 / k2
        n2 = n * z
        k2 = k2 + 1.0
        n2 = n2 / k2
        m2 = m2 / k2
        f2 = f + m2
        k2 = k2 + 1.0
        n2 = n2 / k2
        g2 = g + n2
        m = tl.where(done, m, m2)
        n = tl.where(done, n, n2)
        k = tl.where(done, k, k2)
        f = tl.where(done, f, f2)
        g = tl.where(done, g, g2)
        done = done | (tl.abs(m / f) <= 1.1920928955078125e-07)
    return 0.355028053887817239260 * f - 0.258819403792806798405 * g


@triton.jit
def airy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    r = tl.where(x < -2.09, _airy_negative(x), tl.where(x >= 2.09, _airy_positive(x), _airy_series(x)))
    r = tl.where(x > 103.892, 0.0, r)
    r = tl.where(tl.abs(x) == float("inf"), float("nan"), r)
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
    airy_kernel[(triton.cdiv(n, BLOCK), )](src, out, n, BLOCK=BLOCK)
    return out
