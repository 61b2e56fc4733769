"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, upsample_aa template):
anti-aliased bilinear downsampling/upsampling as ATen's separable CPU kernel
defines it. Per output coordinate and spatial dim: center = scale * (o + 0.5),
support = scale (at least 1), taps xmin .. xmin + xsize - 1 with the triangle
weights max(0, 1 - |(x - center + 0.5) * invscale|) normalized to sum 1 (invscale
= 1 / scale when scale >= 1). One lane per output element sums the product of
the height and width weights times the input in float32.
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _window(o, size, scale, support, invscale):
    center = scale * (o.to(tl.float32) + 0.5)
    lo = (center - support + 0.5).to(tl.int64)
    lo = tl.maximum(lo, 0)
    hi = tl.minimum((center + support + 0.5).to(tl.int64), size)
    return center, lo, hi - lo


@triton.jit
def _tri(x):
    a = tl.abs(x)
    return tl.where(a < 1.0, 1.0 - a, 0.0)


@triton.jit
def upsample_aa_kernel(x_ptr, out_ptr, n, OH, OW, IH, IW, sh, sw, suph, supw, invh, invw, TAPS_H, TAPS_W,
                       BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ow = i % OW
    r = i // OW
    oh = r % OH
    plane = r // OH
    ch, h0, hs = _window(oh, IH, sh, suph, invh)
    cw, w0, ws = _window(ow, IW, sw, supw, invw)
    th = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, TAPS_H):
        th += tl.where(j < hs, _tri(((j + h0).to(tl.float32) - ch + 0.5) * invh), 0.0)
    tw = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, TAPS_W):
        tw += tl.where(j < ws, _tri(((j + w0).to(tl.float32) - cw + 0.5) * invw), 0.0)
    th = tl.where(th != 0.0, th, 1.0)
    tw = tl.where(tw != 0.0, tw, 1.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for jh in range(0, TAPS_H):
        wh = tl.where(jh < hs, _tri(((jh + h0).to(tl.float32) - ch + 0.5) * invh), 0.0) / th
        row = tl.zeros([BLOCK], dtype=tl.float32)
        for jw in range(0, TAPS_W):
            ww = tl.where(jw < ws, _tri(((jw + w0).to(tl.float32) - cw + 0.5) * invw), 0.0) / tw
            m = mask & (jh < hs) & (jw < ws)
            v = tl.load(x_ptr + (plane * IH + h0 + jh) * IW + w0 + jw, mask=m, other=0).to(tl.float32)
            row += v * ww
        acc += row * wh
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _aa_scale(size, osize, align_corners, factor):
    # ATen's area_pixel_compute_scale
    if align_corners:
        return (size - 1) / (osize - 1) if osize > 1 else 0.0
    if factor is not None and factor > 0:
        return 1.0 / factor
    return size / osize


def _upsample_aa(input, output_size, align_corners, scales_h, scales_w):
    if input.dim() != 4:
        raise RuntimeError("upsample_bilinear2d_aa: expected a 4D input, got " + str(input.dim()) + "D")
    ih = input.shape[2]
    iw = input.shape[3]
    oh = output_size[0]
    ow = output_size[1]
    if ih <= 0 or iw <= 0 or oh <= 0 or ow <= 0:
        raise RuntimeError("Input and output sizes should be greater than 0")
    out = torch.empty([input.shape[0], input.shape[1], oh, ow], dtype=input.dtype, device=input.device)
    n = out.numel()
    if n == 0:
        return out
    sh = _aa_scale(ih, oh, align_corners, scales_h)
    sw = _aa_scale(iw, ow, align_corners, scales_w)
    suph = sh if sh >= 1.0 else 1.0
    supw = sw if sw >= 1.0 else 1.0
    invh = 1.0 / sh if sh >= 1.0 else 1.0
    invw = 1.0 / sw if sw >= 1.0 else 1.0
    taps_h = int(math.ceil(suph)) * 2 + 1
    taps_w = int(math.ceil(supw)) * 2 + 1
    x = input.contiguous()
    BLOCK = 128
    upsample_aa_kernel[(triton.cdiv(n, BLOCK), )](x, out, n, oh, ow, ih, iw, float(sh), float(sw), float(suph),
                                                  float(supw), float(invh), float(invw), taps_h, taps_w, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return _upsample_aa(self, output_size, align_corners, scales_h, scales_w)
