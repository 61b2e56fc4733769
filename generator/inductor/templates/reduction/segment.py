"""{{SCHEMA}}

Lowered by opforge's inductor provider (reduction family, segment template):
segment_reduce along an axis with segment lengths or offsets (one row of them
per index of the dims before the axis). One lane per
(segment, inner element) finds its segment's start by adding the lengths
before it, then reduces the segment's rows in order, starting from initial
(or the reduction's identity). max/min propagate NaN; mean divides by the
length (an empty segment gives initial, or NaN without one). float16 and
bfloat16 round every step to the dtype, as ATen's CPU kernel computes in it.
OP: 0 sum, 1 prod, 2 max, 3 min, 4 mean.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def segment_kernel(x_ptr, len_ptr, out_ptr, n, inner, n_seg, axis_len, initial, OP: tl.constexpr, HAS_INIT: tl.constexpr,
                   OFFSETS: tl.constexpr, ROUND: tl.constexpr, BLOCK: tl.constexpr):
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    col = k % inner
    row = k // inner
    seg = row % n_seg
    outer = row // n_seg
    if OFFSETS:
        start = tl.load(len_ptr + outer * (n_seg + 1) + seg, mask=mask, other=0)
        length = tl.load(len_ptr + outer * (n_seg + 1) + seg + 1, mask=mask, other=0) - start
    else:
        start = tl.zeros([BLOCK], dtype=tl.int64)
        for s in range(0, n_seg):
            start = start + tl.where(s < seg, tl.load(len_ptr + outer * n_seg + s, mask=mask, other=0), 0)
        length = tl.load(len_ptr + outer * n_seg + seg, mask=mask, other=0)
    if HAS_INIT:
        acc = tl.zeros([BLOCK], dtype=tl.float32) + initial
    elif OP == 1:
        acc = tl.full([BLOCK], 1.0, tl.float32)
    elif OP == 2:
        acc = tl.full([BLOCK], -float("inf"), tl.float32)
    elif OP == 3:
        acc = tl.full([BLOCK], float("inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
    max_len = tl.max(tl.where(mask, length, 0), axis=0)
    for j in range(0, max_len):
        live = mask & (j < length)
        v = tl.load(x_ptr + (outer * axis_len + start + j) * inner + col, mask=live, other=0).to(tl.float32)
        if OP == 0 or OP == 4:
            r = acc + v
        elif OP == 1:
            r = acc * v
        elif OP == 2:
            r = tl.where((v != v) | (v > acc), v, acc)
        else:
            r = tl.where((v != v) | (v < acc), v, acc)
        if ROUND:
            r = r.to(out_ptr.dtype.element_ty).to(tl.float32)
        acc = tl.where(live, r, acc)
    if OP == 4:
        if HAS_INIT:
            acc = tl.where(length > 0, acc / length.to(tl.float32), acc)
        else:
            acc = tl.where(length > 0, acc / length.to(tl.float32), float("nan"))
    tl.store(out_ptr + k, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _segment_reduce(data, reduce, lengths, offsets, axis, initial):
    ops = {"sum": 0, "prod": 1, "max": 2, "min": 3, "mean": 4}
    if reduce not in ops:
        raise RuntimeError("segment_reduce: unsupported reduction " + str(reduce))
    nd = data.dim()
    ax = axis if axis >= 0 else axis + nd
    use_offsets = lengths is None
    segs = offsets if use_offsets else lengths
    if segs is None:
        raise RuntimeError("segment_reduce: lengths or offsets must be given")
    if segs.dim() != ax + 1:
        raise RuntimeError("segment_reduce: lengths/offsets must have axis + 1 dims")
    last = segs.shape[segs.dim() - 1]
    n_seg = last - 1 if use_offsets else last
    lead = [data.shape[d] for d in range(ax)]
    rest = [data.shape[d] for d in range(ax + 1, nd)]
    out = torch.empty(lead + [n_seg] + rest, dtype=data.dtype, device=data.device)
    n = out.numel()
    if n == 0:
        return out
    inner = 1
    for s in rest:
        inner *= s
    BLOCK = 128
    segment_kernel[(triton.cdiv(n, BLOCK), )](data.contiguous(), segs.to(torch.int64).contiguous(), out, n, inner,
                                              n_seg, data.shape[ax], 0.0 if initial is None else float(initial), OP=ops[reduce],
                                              HAS_INIT=initial is not None, OFFSETS=use_offsets,
                                              ROUND=data.dtype == torch.float16 or data.dtype == torch.bfloat16,
                                              BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
