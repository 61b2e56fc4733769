"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, grid_sample template):
grid_sampler_2d / grid_sampler_3d as ATen's CPU kernels define them, in
float32 and rounded once on store. Each lane takes one output element, reads
its grid point, unnormalizes it per dim (align_corners: (g + 1) / 2 * (size - 1),
else ((g + 1) * size - 1) / 2) and applies the padding mode (0 zeros, 1 border:
clip, 2 reflection: reflect about the edges, then clip). Interpolation 0
bilinear (2 taps per dim), 1 nearest (round half to even), 2 bicubic (4 taps
per dim at floor - 1 .. floor + 2, each tap padded on its own, A = -0.75; the
op grid_sampler_3d accepts mode 2 too, and its recorded calls match the same
taps in three dims).
Taps outside the input contribute 0.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _reflect(c, size, ALIGN: tl.constexpr):
    if ALIGN:
        lo2 = 0.0
        hi2 = 2.0 * (size - 1)
    else:
        lo2 = -1.0
        hi2 = 2.0 * size - 1.0
    mn = lo2 * 0.5
    span = (hi2 - lo2) * 0.5
    safe = tl.where(span > 0.0, span, 1.0)
    a = tl.abs(c - mn)
    flips = tl.floor(a / safe)
    extra = a - flips * safe
    odd = (flips - 2.0 * tl.floor(flips * 0.5)) != 0.0
    r = tl.where(odd, span - extra + mn, extra + mn)
    return tl.where(span > 0.0, r, 0.0)


@triton.jit
def _pad(c, size, PAD: tl.constexpr, ALIGN: tl.constexpr):
    if PAD == 1:
        c = tl.minimum(tl.maximum(c, 0.0), size - 1.0)
    elif PAD == 2:
        c = _reflect(c, size, ALIGN)
        c = tl.minimum(tl.maximum(c, 0.0), size - 1.0)
    return c


@triton.jit
def _unnormalize(g, size, ALIGN: tl.constexpr):
    if ALIGN:
        r = (g + 1.0) * 0.5 * (size - 1.0)
    else:
        r = ((g + 1.0) * size - 1.0) * 0.5
    return r


@triton.jit
def _cubic1(x):
    return ((-0.75 + 2.0) * x - (-0.75 + 3.0)) * x * x + 1.0


@triton.jit
def _cubic2(x):
    return ((-0.75 * x - 5.0 * -0.75) * x + 8.0 * -0.75) * x - 4.0 * -0.75


@triton.jit
def _tap(g, size, j: tl.constexpr, MODE: tl.constexpr, PAD: tl.constexpr, ALIGN: tl.constexpr):
    # (input index, weight) of tap j along one dim
    s = _unnormalize(g, size, ALIGN)
    if MODE == 0:
        s = _pad(s, size, PAD, ALIGN)
        f = tl.floor(s)
        t = s - f
        if j == 0:
            idx = f
            w = 1.0 - t
        else:
            idx = f + 1.0
            w = t
    elif MODE == 1:
        s = _pad(s, size, PAD, ALIGN)
        r = tl.floor(s + 0.5)
        # round half to even
        half = (r - s) == 0.5
        odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
        idx = tl.where(half & odd, r - 1.0, r)
        w = tl.full(s.shape, 1.0, tl.float32)
    else:
        f = tl.floor(s)
        t = s - f
        idx = _pad(f - 1.0 + j, size, PAD, ALIGN)
        if j == 0:
            w = _cubic2(t + 1.0)
        elif j == 1:
            w = _cubic1(t)
        elif j == 2:
            w = _cubic1(1.0 - t)
        else:
            w = _cubic2(2.0 - t)
    ok = (idx >= 0.0) & (idx < size) & (s == s)
    ii = tl.where(ok, idx, 0.0).to(tl.int64)
    return ii, w, ok


@triton.jit
def grid_sample_kernel(x_ptr, g_ptr, out_ptr, n, C, OD, OH, OW, ID, IH, IW, MODE: tl.constexpr, PAD: tl.constexpr,
                       ALIGN: tl.constexpr, THREE: tl.constexpr, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ow = i % OW
    r = i // OW
    oh = r % OH
    r = r // OH
    od = r % OD
    r = r // OD
    c = r % C
    b = r // C
    ncoord = 3 if THREE else 2
    gbase = (((b * OD + od) * OH + oh) * OW + ow) * ncoord
    gx = tl.load(g_ptr + gbase, mask=mask, other=0).to(tl.float32)
    gy = tl.load(g_ptr + gbase + 1, mask=mask, other=0).to(tl.float32)
    if THREE:
        gz = tl.load(g_ptr + gbase + 2, mask=mask, other=0).to(tl.float32)
    else:
        gz = gx
    plane = (b * C + c) * ID * IH * IW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    TZ: tl.constexpr = TAPS if THREE else 1
    for jz in tl.static_range(TZ):
        if THREE:
            iz, wz, okz = _tap(gz, ID * 1.0, jz, MODE, PAD, ALIGN)
        else:
            iz = tl.zeros([BLOCK], dtype=tl.int64)
            wz = tl.full([BLOCK], 1.0, tl.float32)
            okz = mask
        for jy in tl.static_range(TAPS):
            iy, wy, oky = _tap(gy, IH * 1.0, jy, MODE, PAD, ALIGN)
            for jx in tl.static_range(TAPS):
                ix, wx, okx = _tap(gx, IW * 1.0, jx, MODE, PAD, ALIGN)
                m = mask & okz & oky & okx
                v = tl.load(x_ptr + plane + (iz * IH + iy) * IW + ix, mask=m, other=0).to(tl.float32)
                acc += tl.where(m, v * (wx * wy * wz), 0.0)
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _grid_sample(input, grid, mode, padding_mode, align_corners, three):
    nd = 5 if three else 4
    if input.dim() != nd or grid.dim() != nd:
        raise RuntimeError("grid_sampler: expected " + str(nd) + "-D input and grid")
    N = input.shape[0]
    C = input.shape[1]
    if three:
        ID = input.shape[2]
        IH = input.shape[3]
        IW = input.shape[4]
        OD = grid.shape[1]
        OH = grid.shape[2]
        OW = grid.shape[3]
        shape = [N, C, OD, OH, OW]
    else:
        ID = 1
        IH = input.shape[2]
        IW = input.shape[3]
        OD = 1
        OH = grid.shape[1]
        OW = grid.shape[2]
        shape = [N, C, OH, OW]
    out = torch.empty(shape, dtype=input.dtype, device=input.device)
    n = out.numel()
    if n == 0:
        return out
    taps = 2 if mode == 0 else (1 if mode == 1 else 4)
    BLOCK = 128
    grid_sample_kernel[(triton.cdiv(n, BLOCK), )](input.contiguous(), grid.contiguous(), out, n, C, OD, OH, OW, ID, IH,
                                                  IW, MODE=mode, PAD=padding_mode, ALIGN=align_corners, THREE=three,
                                                  TAPS=taps, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return _grid_sample(input, grid, interpolation_mode, padding_mode, align_corners, {{THREE}})
