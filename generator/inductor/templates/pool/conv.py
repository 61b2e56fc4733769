"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, conv template): direct
1-3 d convolution, grouped and transposed, one lane per output element. The
wrapper views input, weight and output as [N, C, D, H, W] (missing spatial
dims of size 1). A lane walks its group's input channels and the kernel
window; in a transposed convolution an output position gathers the input
positions i with o = i * stride - padding + k * dilation. Floats accumulate in
float32 (float16/bfloat16 round once on store), integers in int64; the bias
is added last.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def conv_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n, C_IN, C_OUT, ID, IH, IW, OD, OH, OW, KD, KH, KW, SD, SH, SW, PD,
                PH, PW, DD, DH, DW, CIG, COG, TRANSPOSED: tl.constexpr, HAS_BIAS: tl.constexpr,
                IS_FLOAT: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ow = i % OW
    r = i // OW
    oh = r % OH
    r = r // OH
    od = r % OD
    r = r // OD
    oc = r % C_OUT
    b = r // C_OUT
    g = oc // COG
    if IS_FLOAT:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
    else:
        acc = tl.zeros([BLOCK], dtype=tl.int64)
    if TRANSPOSED:
        # ATen: a GEMM over input channels per kernel offset, then col2im adds the offsets
        for kd in range(0, KD):
            td = od + PD - kd * DD
            xd = td // SD
            vd = (td >= 0) & (td - xd * SD == 0) & (xd < ID)
            for kh in range(0, KH):
                th = oh + PH - kh * DH
                xh = th // SH
                vh = vd & (th >= 0) & (th - xh * SH == 0) & (xh < IH)
                for kw in range(0, KW):
                    tw = ow + PW - kw * DW
                    xw = tw // SW
                    valid = mask & vh & (tw >= 0) & (tw - xw * SW == 0) & (xw < IW)
                    if IS_FLOAT:
                        part = tl.zeros([BLOCK], dtype=tl.float32)
                    else:
                        part = tl.zeros([BLOCK], dtype=tl.int64)
                    for c in range(0, CIG):
                        ic = g * CIG + c
                        woff = (((ic * COG + (oc - g * COG)) * KD + kd) * KH + kh) * KW + kw
                        xv = tl.load(x_ptr + (((b * C_IN + ic) * ID + xd) * IH + xh) * IW + xw, mask=valid, other=0)
                        wv = tl.load(w_ptr + woff, mask=valid, other=0)
                        part = part + xv.to(part.dtype) * wv.to(part.dtype)
                    acc = acc + part
    else:
        for c in range(0, CIG):
            ic = g * CIG + c
            for kd in range(0, KD):
                xd = od * SD - PD + kd * DD
                vd = (xd >= 0) & (xd < ID)
                for kh in range(0, KH):
                    xh = oh * SH - PH + kh * DH
                    vh = vd & (xh >= 0) & (xh < IH)
                    for kw in range(0, KW):
                        xw = ow * SW - PW + kw * DW
                        valid = mask & vh & (xw >= 0) & (xw < IW)
                        woff = (((oc * CIG + c) * KD + kd) * KH + kh) * KW + kw
                        xv = tl.load(x_ptr + (((b * C_IN + ic) * ID + xd) * IH + xh) * IW + xw, mask=valid, other=0)
                        wv = tl.load(w_ptr + woff, mask=valid, other=0)
                        acc = acc + xv.to(acc.dtype) * wv.to(acc.dtype)
    if HAS_BIAS:
        acc = acc + tl.load(b_ptr + oc, mask=mask, other=0).to(acc.dtype)
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _expand3(v, nd, fill):
    v = list(v)
    if len(v) == 1 and nd > 1:
        v = v * nd
    return [fill] * (3 - nd) + v


def _convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    nd = weight.dim() - 2
    if nd < 1 or nd > 3:
        raise RuntimeError("convolution: expected a 3-5 d weight, got " + str(weight.dim()) + "d")
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    N = x.shape[0]
    C_in = x.shape[1]
    st = _expand3(stride, nd, 1)
    pd = _expand3(padding, nd, 0)
    dl = _expand3(dilation, nd, 1)
    op = _expand3(output_padding, nd, 0)
    ks = [1] * (3 - nd) + [weight.shape[d] for d in range(2, weight.dim())]
    isz = [1] * (3 - nd) + [x.shape[d] for d in range(2, x.dim())]
    if transposed:
        C_out = weight.shape[1] * groups
        cig = C_in // groups
        cog = weight.shape[1]
        osz = [(isz[j] - 1) * st[j] - 2 * pd[j] + dl[j] * (ks[j] - 1) + op[j] + 1 for j in range(3)]
    else:
        C_out = weight.shape[0]
        cig = weight.shape[1]
        cog = C_out // groups
        if cig * groups != C_in:
            raise RuntimeError("Given groups=" + str(groups) + ", weight of size " + str(list(weight.shape)) +
                               ", expected input" + str(list(input.shape)) + " to have " + str(cig * groups) +
                               " channels, but got " + str(C_in) + " channels instead")
        osz = [(isz[j] + 2 * pd[j] - dl[j] * (ks[j] - 1) - 1) // st[j] + 1 for j in range(3)]
    for s in osz:
        if s <= 0:
            raise RuntimeError("convolution: computed output size " + str(osz[3 - nd:]) + " is too small")
    dt = input.dtype
    out = torch.empty([N, C_out] + osz[3 - nd:], dtype=dt, device=input.device)
    n = out.numel()
    if n > 0:
        xs = x.contiguous()
        ws = weight.to(dt).contiguous()
        bs = xs if bias is None else bias.to(dt).contiguous()
        BLOCK = 128
        conv_kernel[(triton.cdiv(n, BLOCK), )](xs, ws, bs, out, n, C_in, C_out, isz[0], isz[1], isz[2], osz[0],
                                               osz[1], osz[2], ks[0], ks[1], ks[2], st[0], st[1], st[2], pd[0],
                                               pd[1], pd[2], dl[0], dl[1], dl[2], cig, cog, TRANSPOSED=transposed,
                                               HAS_BIAS=bias is not None, IS_FLOAT=out.is_floating_point(),
                                               BLOCK=BLOCK)
    return out if batched else out.squeeze(0)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
