"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, upsample template):
nearest, linear (1-3 dims) and bicubic interpolation as ATen's CPU kernels do
them. The wrapper views the input as a contiguous [planes, D, H, W] block and
computes, per spatial dim, ATen's source-index scale (align_corners, given
scale factors or in/out). One lane per output element finds its source taps
per dim and sums weight * value from the outermost dim inwards in float32:
MODE 0 nearest (1 tap), 3 nearest-exact (1 tap at floor((o + 0.5) * scale)), 1 linear (2 taps), 2 cubic (4 taps, A = -0.75,
indices clamped to the edge). bfloat16 and float16 linear and cubic
interpolation round every operation to the input dtype, as ATen 1.13 does.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _rd(v, RD: tl.constexpr):
    # RD 1/2: round to bfloat16/float16 (ATen computes reduced-precision linear and cubic
    # interpolation in the input dtype, one rounding per operation)
    if RD == 1:
        v = v.to(tl.bfloat16).to(tl.float32)
    elif RD == 2:
        v = v.to(tl.float16).to(tl.float32)
    return v


@triton.jit
def _real_index(o, scale, ALIGN: tl.constexpr, CUBIC: tl.constexpr, RD: tl.constexpr):
    of = o.to(tl.float32)
    if CUBIC:
        sc = scale
    else:
        sc = _rd(scale, RD)
    if ALIGN:
        src = sc * of
    else:
        src = sc * (of + 0.5) - 0.5
        if not CUBIC:
            src = tl.where(src < 0.0, 0.0, src)
    return src


@triton.jit
def _cubic1(x):
    return ((-0.75 + 2.0) * x - (-0.75 + 3.0)) * x * x + 1.0


@triton.jit
def _cubic2(x):
    return ((-0.75 * x - 5.0 * -0.75) * x + 8.0 * -0.75) * x - 4.0 * -0.75


@triton.jit
def _tap(o, size, osize, scale, j: tl.constexpr, MODE: tl.constexpr, ALIGN: tl.constexpr, RD: tl.constexpr):
    # the input index of tap j of output coordinate o along one dim
    if MODE == 3:
        idx = tl.minimum(tl.floor((o.to(tl.float32) + 0.5) * scale).to(tl.int64), size - 1)
    elif MODE == 0:
        idx = tl.floor(o.to(tl.float32) * scale).to(tl.int64)
        idx = tl.minimum(idx, size - 1)
        idx = tl.where(osize == size, o, tl.where(osize == 2 * size, o // 2, idx))
    elif MODE == 1:
        src = _real_index(o, scale, ALIGN, False, RD)
        i0 = src.to(tl.int64)
        if j == 0:
            idx = i0
        else:
            idx = tl.where(i0 < size - 1, i0 + 1, i0)
        idx = tl.where(osize == size, o, idx)
    else:
        src = _real_index(o, scale, ALIGN, True, RD)
        i0 = tl.floor(src).to(tl.int64)
        idx = tl.maximum(tl.minimum(i0 - 1 + j, size - 1), 0)
    return idx


@triton.jit
def _weight(o, size, osize, scale, j: tl.constexpr, MODE: tl.constexpr, ALIGN: tl.constexpr, RD: tl.constexpr):
    if MODE == 0 or MODE == 3:
        w = tl.full(o.shape, 1.0, tl.float32)
    elif MODE == 1:
        src = _real_index(o, scale, ALIGN, False, RD)
        lam = _rd(src - src.to(tl.int64).to(tl.float32), RD)
        if j == 0:
            w = tl.where(osize == size, 1.0, _rd(1.0 - lam, RD))
        else:
            w = tl.where(osize == size, 0.0, lam)
    else:
        src = _real_index(o, scale, ALIGN, True, RD)
        t = _rd(src - tl.floor(src), RD)
        if j == 0:
            w = _cubic2(t + 1.0)
        elif j == 1:
            w = _cubic1(t)
        elif j == 2:
            w = _cubic1(1.0 - t)
        else:
            w = _cubic2(2.0 - t)
        w = _rd(w, RD)
    return w


@triton.jit
def upsample_kernel(x_ptr, out_ptr, n, OD, OH, OW, ID, IH, IW, sd, sh, sw, MODE: tl.constexpr,
                    ALIGN: tl.constexpr, RD: tl.constexpr, TD: tl.constexpr, TH: tl.constexpr, TW: tl.constexpr,
                    BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ow = i % OW
    r = i // OW
    oh = r % OH
    r = r // OH
    od = r % OD
    plane = r // OD
    base = plane * ID * IH * IW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for jd in tl.static_range(TD):
        if TD == 1 and MODE == 3:
            xd = _tap(od, ID, OD, sd, 0, MODE, ALIGN, RD)
            wd = tl.full([BLOCK], 1.0, tl.float32)
        elif TD == 1:
            xd = tl.where(OD == ID, od, tl.minimum(tl.floor(od.to(tl.float32) * sd).to(tl.int64), ID - 1))
            wd = tl.full([BLOCK], 1.0, tl.float32)
        else:
            xd = _tap(od, ID, OD, sd, jd, MODE, ALIGN, RD)
            wd = _weight(od, ID, OD, sd, jd, MODE, ALIGN, RD)
        acc_h = tl.zeros([BLOCK], dtype=tl.float32)
        for jh in tl.static_range(TH):
            if TH == 1 and MODE == 3:
                xh = _tap(oh, IH, OH, sh, 0, MODE, ALIGN, RD)
                wh = tl.full([BLOCK], 1.0, tl.float32)
            elif TH == 1:
                xh = tl.where(OH == IH, oh, tl.minimum(tl.floor(oh.to(tl.float32) * sh).to(tl.int64), IH - 1))
                wh = tl.full([BLOCK], 1.0, tl.float32)
            else:
                xh = _tap(oh, IH, OH, sh, jh, MODE, ALIGN, RD)
                wh = _weight(oh, IH, OH, sh, jh, MODE, ALIGN, RD)
            acc_w = tl.zeros([BLOCK], dtype=tl.float32)
            for jw in tl.static_range(TW):
                xw = _tap(ow, IW, OW, sw, jw, MODE, ALIGN, RD)
                ww = _weight(ow, IW, OW, sw, jw, MODE, ALIGN, RD)
                v = tl.load(x_ptr + base + (xd * IH + xh) * IW + xw, mask=mask, other=0).to(tl.float32)
                acc_w = _rd(acc_w + _rd(v * ww, RD), RD)
            acc_h = _rd(acc_h + _rd(acc_w * wh, RD), RD)
        acc = _rd(acc + _rd(acc_h * wd, RD), RD)
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _scale(size, osize, align_corners, factor):
    # ATen's area_pixel_compute_scale / compute_scales_value
    if align_corners:
        return (size - 1) / (osize - 1) if osize > 1 else 0.0
    if factor is not None and factor > 0:
        return 1.0 / factor
    return size / osize


def _upsample(input, nd, output_size, scale_factors, mode, align_corners, scales=None):
    # scales: the per-dim scales of the sized overloads (upsample_nearest2d(self, output_size,
    # scales_h, scales_w), what torch 2.x's interpolate calls), used with output_size
    if input.dim() != nd + 2:
        raise RuntimeError("upsample: expected a " + str(nd + 2) + "D input, got " + str(input.dim()) + "D")
    sp = [input.shape[d] for d in range(2, input.dim())]
    if output_size is not None and len(output_size) > 0:
        if scale_factors is not None:
            raise RuntimeError("Must specify exactly one of output_size and scale_factors")
        osp = list(output_size)
        factors = list(scales) if scales is not None else [None] * nd
    else:
        if scale_factors is None:
            raise RuntimeError("Must specify exactly one of output_size and scale_factors")
        factors = list(scale_factors)
        osp = [int(sp[j] * factors[j] // 1) for j in range(nd)]
    for j in range(nd):
        if sp[j] <= 0 or osp[j] <= 0:
            raise RuntimeError("Input and output sizes should be greater than 0, but got input (" + str(sp) +
                               ") and output (" + str(osp) + ")")
    planes = input.shape[0] * input.shape[1]
    full = [1] * (3 - nd) + sp
    ofull = [1] * (3 - nd) + osp
    fac = [None] * (3 - nd) + factors
    sc = [_scale(full[j], ofull[j], align_corners, fac[j]) for j in range(3)]
    out = torch.empty([input.shape[0], input.shape[1]] + osp, dtype=input.dtype, device=input.device)
    n = out.numel()
    if n == 0:
        return out
    taps = 1 if mode == 0 or mode == 3 else (2 if mode == 1 else 4)
    tdims = [1] * (3 - nd) + [taps] * nd
    x = input.contiguous().reshape([planes] + full)
    rd = 0
    if (mode == 1 or mode == 2) and input.dtype == torch.bfloat16:
        rd = 1
    elif (mode == 1 or mode == 2) and input.dtype == torch.float16:
        rd = 2
    BLOCK = 128
    upsample_kernel[(triton.cdiv(n, BLOCK), )](x, out, n, ofull[0], ofull[1], ofull[2], full[0], full[1], full[2],
                                               sc[0], sc[1], sc[2], MODE=mode, ALIGN=align_corners, RD=rd, TD=tdims[0],
                                               TH=tdims[1], TW=tdims[2], BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
