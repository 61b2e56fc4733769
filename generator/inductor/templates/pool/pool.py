"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, pool template): max and
average pooling, fixed-window and adaptive, over 1 to 3 spatial dims. The
wrapper views the input as a contiguous [planes, D, H, W] block (missing
spatial dims have size 1); one lane per output element walks its window in
ATen's order (d, then h, then w). OP 0 is max with the index of the maximum in
the input plane (a NaN wins and the last NaN's index is kept, as ATen's CPU
kernels do); OP 1 is the average: floats accumulate in float32, integers in
int64 and divide truncating (3-d adaptive average of float16 sums in
float16, as ATen does). max_unpool scatters values to their indices. The max
pooling backward runs one lane per input element: it visits the windows that
cover it (output positions in ascending order, as ATen's CPU kernel adds them)
and sums, in float32, the output gradients whose recorded index is this element.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def pool_kernel(x_ptr, out_ptr, idx_ptr, n, OD, OH, OW, ID, IH, IW, SD, SH, SW, PD, PH, PW, DD, DH, DW, KD, KH,
                KW, divisor, OP: tl.constexpr, ADAPTIVE: tl.constexpr, COUNT_PAD: tl.constexpr,
                HAS_DIVISOR: tl.constexpr, IS_FLOAT: tl.constexpr, HALF_ACC: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ow = i % OW
    r = i // OW
    oh = r % OH
    r = r // OH
    od = r % OD
    plane = r // OD
    if ADAPTIVE:
        ds = (od * ID) // OD
        de = ((od + 1) * ID + OD - 1) // OD
        hs = (oh * IH) // OH
        he = ((oh + 1) * IH + OH - 1) // OH
        ws = (ow * IW) // OW
        we = ((ow + 1) * IW + OW - 1) // OW
    else:
        ds = od * SD - PD
        de = ds + (KD - 1) * DD + 1
        hs = oh * SH - PH
        he = hs + (KH - 1) * DH + 1
        ws = ow * SW - PW
        we = ws + (KW - 1) * DW + 1
    base = plane * ID * IH * IW
    if IS_FLOAT:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
    else:
        acc = tl.zeros([BLOCK], dtype=tl.int64)
    best_idx = tl.zeros([BLOCK], dtype=tl.int64)
    found = tl.zeros([BLOCK], dtype=tl.int1)
    for kd in range(0, KD):
        xd = ds + kd * DD
        vd = (xd >= 0) & (xd < ID) & (xd < de)
        for kh in range(0, KH):
            xh = hs + kh * DH
            vh = vd & (xh >= 0) & (xh < IH) & (xh < he)
            for kw in range(0, KW):
                xw = ws + kw * DW
                valid = mask & vh & (xw >= 0) & (xw < IW) & (xw < we)
                sp = (xd * IH + xh) * IW + xw
                v = tl.load(x_ptr + base + sp, mask=valid, other=0)
                if IS_FLOAT:
                    v = v.to(tl.float32)
                else:
                    v = v.to(tl.int64)
                if OP == 0:
                    if IS_FLOAT:
                        take = valid & ((found == 0) | (v > acc) | (v != v))
                    else:
                        take = valid & ((found == 0) | (v > acc))
                    acc = tl.where(take, v, acc)
                    best_idx = tl.where(take, sp, best_idx)
                    found = found | valid
                else:
                    acc = acc + tl.where(valid, v, 0)
                    if HALF_ACC:
                        acc = acc.to(tl.float16).to(tl.float32)
    if OP == 0:
        tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)
        tl.store(idx_ptr + i, best_idx, mask=mask)
    else:
        if HAS_DIVISOR:
            q = acc / divisor
        elif ADAPTIVE:
            q = acc / (de - ds).to(tl.float32)
            q = q / (he - hs).to(tl.float32)
            q = q / (we - ws).to(tl.float32)
        else:
            de2 = tl.minimum(ds + KD, ID + PD)
            he2 = tl.minimum(hs + KH, IH + PH)
            we2 = tl.minimum(ws + KW, IW + PW)
            if COUNT_PAD:
                cnt = (de2 - ds) * (he2 - hs) * (we2 - ws)
            else:
                cnt = (tl.minimum(de2, ID) - tl.maximum(ds, 0)) * (tl.minimum(he2, IH) - tl.maximum(hs, 0)) * (
                    tl.minimum(we2, IW) - tl.maximum(ws, 0))
            if IS_FLOAT:
                q = acc / cnt.to(tl.float32)
            else:
                q = acc // cnt
        tl.store(out_ptr + i, q.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def unpool_kernel(x_ptr, idx_ptr, out_ptr, n, in_plane, out_plane, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    plane = i // in_plane
    j = tl.load(idx_ptr + i, mask=mask, other=0)
    v = tl.load(x_ptr + i, mask=mask, other=0)
    ok = mask & (j >= 0) & (j < out_plane)
    tl.store(out_ptr + plane * out_plane + j, v, mask=ok)


@triton.jit
def max_pool_backward_kernel(g_ptr, idx_ptr, out_ptr, n, OD, OH, OW, ID, IH, IW, SD, SH, SW, PD, PH, PW, DD, DH, DW,
                             KD, KH, KW, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    xw = i % IW
    r = i // IW
    xh = r % IH
    r = r // IH
    xd = r % ID
    plane = r // ID
    sp = (xd * IH + xh) * IW + xw
    obase = plane * OD * OH * OW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    # kernel offsets from the last to the first: the covering windows in ascending output order
    for kd in range(0, KD):
        td = xd + PD - (KD - 1 - kd) * DD
        od = td // SD
        vd = mask & (td >= 0) & (td - od * SD == 0) & (od < OD)
        for kh in range(0, KH):
            th = xh + PH - (KH - 1 - kh) * DH
            oh = th // SH
            vh = vd & (th >= 0) & (th - oh * SH == 0) & (oh < OH)
            for kw in range(0, KW):
                tw = xw + PW - (KW - 1 - kw) * DW
                ow = tw // SW
                valid = vh & (tw >= 0) & (tw - ow * SW == 0) & (ow < OW)
                o = obase + (od * OH + oh) * OW + ow
                j = tl.load(idx_ptr + o, mask=valid, other=-1)
                hit = valid & (j == sp)
                acc += tl.load(g_ptr + o, mask=hit, other=0).to(tl.float32)
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _list(v, nd, name):
    if isinstance(v, int):
        return [v] * nd
    v = list(v)
    if len(v) == 1:
        return [v[0]] * nd
    if len(v) != nd:
        raise RuntimeError(name + " must either be a single int, or a tuple of " + str(nd) + " ints")
    return v


def _out_size(size, k, p, s, d, ceil_mode):
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    o = num // s + 1
    if ceil_mode and (o - 1) * s >= size + p:
        o -= 1
    return o


def _planes(self, nd):
    # self as contiguous [planes, D, H, W] plus the leading (batch, channel) sizes
    if self.dim() != nd + 1 and self.dim() != nd + 2:
        raise RuntimeError("pooling: expected " + str(nd + 1) + "D or " + str(nd + 2) + "D input, got " +
                           str(self.dim()) + "D")
    lead = [self.shape[d] for d in range(self.dim() - nd)]
    sp = [self.shape[d] for d in range(self.dim() - nd, self.dim())]
    planes = 1
    for s in lead:
        planes *= s
    full = [1] * (3 - nd) + sp
    return self.contiguous().reshape([planes] + full), lead, full


def _launch(x, out, idx, full, ofull, st, pd, dl, k, divisor, op, adaptive, count_pad, half_acc=False):
    n = out.numel()
    if n == 0:
        return
    BLOCK = 128
    pool_kernel[(triton.cdiv(n, BLOCK), )](x, out, idx, n, ofull[0], ofull[1], ofull[2], full[0], full[1], full[2],
                                           st[0], st[1], st[2], pd[0], pd[1], pd[2], dl[0], dl[1], dl[2], k[0],
                                           k[1], k[2], 1.0 if divisor is None else divisor, OP=op,
                                           ADAPTIVE=adaptive, COUNT_PAD=count_pad, HAS_DIVISOR=divisor is not None,
                                           IS_FLOAT=x.is_floating_point(), HALF_ACC=half_acc, BLOCK=BLOCK)


def _pool(self, nd, kernel_size, stride, padding, dilation, ceil_mode, op, count_include_pad, divisor_override):
    k = _list(kernel_size, nd, "kernel_size")
    st = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _list(stride, nd, "stride")
    pd = _list(padding, nd, "padding")
    dl = _list(dilation, nd, "dilation")
    for j in range(nd):
        if pd[j] * 2 > k[j]:
            raise RuntimeError("pad should be at most half of effective kernel size")
    x, lead, full = _planes(self, nd)
    osp = [_out_size(self.shape[self.dim() - nd + j], k[j], pd[j], st[j], dl[j], ceil_mode) for j in range(nd)]
    ofull = [1] * (3 - nd) + osp
    out = torch.empty(lead + osp, dtype=self.dtype, device=self.device)
    idx = torch.empty(lead + osp, dtype=torch.int64, device=self.device)
    pad3 = [0] * (3 - nd)
    one3 = [1] * (3 - nd)
    _launch(x, out, idx, full, ofull, one3 + st, pad3 + pd, one3 + dl, one3 + k, divisor_override, op, False,
            count_include_pad)
    if op == 0:
        return out, idx
    return out


def _max_pool(self, nd, kernel_size, stride, padding, dilation, ceil_mode):
    return _pool(self, nd, kernel_size, stride, padding, dilation, ceil_mode, 0, True, None)


def _max_pool_backward(grad_output, self, nd, kernel_size, stride, padding, dilation, ceil_mode, indices):
    k = _list(kernel_size, nd, "kernel_size")
    st = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _list(stride, nd, "stride")
    pd = _list(padding, nd, "padding")
    dl = _list(dilation, nd, "dilation")
    x, lead, full = _planes(self, nd)
    osp = [grad_output.shape[grad_output.dim() - nd + j] for j in range(nd)]
    ofull = [1] * (3 - nd) + osp
    pad3 = [0] * (3 - nd) + pd
    one3 = [1] * (3 - nd)
    st3 = one3 + st
    dl3 = one3 + dl
    k3 = one3 + k
    out = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    n = out.numel()
    if n == 0:
        return out
    BLOCK = 128
    max_pool_backward_kernel[(triton.cdiv(n, BLOCK), )](grad_output.contiguous(), indices.contiguous(), out, n,
                                                        ofull[0], ofull[1], ofull[2], full[0], full[1], full[2],
                                                        st3[0], st3[1], st3[2], pad3[0], pad3[1], pad3[2], dl3[0],
                                                        dl3[1], dl3[2], k3[0], k3[1], k3[2], BLOCK=BLOCK)
    return out


def _avg_pool(self, nd, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    return _pool(self, nd, kernel_size, stride, padding, 1, ceil_mode, 1, count_include_pad, divisor_override)


def _adaptive(self, nd, output_size, op):
    osp = _list(output_size, nd, "output_size")
    x, lead, full = _planes(self, nd)
    ofull = [1] * (3 - nd) + osp
    # the widest window of each dim: ceil(in / out) + 1 covers every adaptive window
    k = [(full[j] + ofull[j] - 1) // ofull[j] + 1 if ofull[j] > 0 else 1 for j in range(3)]
    out = torch.empty(lead + osp, dtype=self.dtype, device=self.device)
    idx = torch.empty(lead + osp, dtype=torch.int64, device=self.device)
    # ATen's 3-d adaptive average sums float16 in float16
    half_acc = op == 1 and nd == 3 and self.dtype == torch.float16
    _launch(x, out, idx, full, ofull, [1, 1, 1], [0, 0, 0], [1, 1, 1], k, None, op, True, True, half_acc)
    if op == 0:
        return out, idx
    return out


def _max_unpool(self, indices, output_size, nd):
    osp = _list(output_size, nd, "output_size")
    lead = [self.shape[d] for d in range(self.dim() - nd)]
    out = torch.zeros(lead + osp, dtype=self.dtype, device=self.device)
    n = self.numel()
    if n == 0:
        return out
    in_plane = 1
    for d in range(self.dim() - nd, self.dim()):
        in_plane *= self.shape[d]
    out_plane = 1
    for s in osp:
        out_plane *= s
    BLOCK = 128
    unpool_kernel[(triton.cdiv(n, BLOCK), )](self.contiguous(), indices.contiguous(), out, n, in_plane, out_plane,
                                             BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
