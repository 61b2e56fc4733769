"""{{SCHEMA}}

Lowered by opforge's inductor provider (search family, search template):
binary search of values in sorted rows (searchsorted, bucketize) with ATen's
comparisons (left: first element not below the value, right: first element
above it; an optional sorter permutes each row), membership tests (isin) by
walking the test elements, and histc with one lane per bin counting the
elements whose bin index, computed as ATen computes it, is that bin.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def search_kernel(seq_ptr, val_ptr, sorter_ptr, out_ptr, n, inner, seq_len, iters, RIGHT: tl.constexpr,
                  ONE_ROW: tl.constexpr, HAS_SORTER: tl.constexpr, BLOCK: tl.constexpr):
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    v = tl.load(val_ptr + k, mask=mask, other=0)
    if ONE_ROW:
        row = k * 0
    else:
        row = (k // inner) * seq_len
    lo = tl.zeros([BLOCK], dtype=tl.int64)
    hi = tl.zeros([BLOCK], dtype=tl.int64) + seq_len
    for it in range(0, iters):
        active = mask & (lo < hi)
        mid = lo + (hi - lo) // 2
        if HAS_SORTER:
            pos = tl.load(sorter_ptr + row + mid, mask=active, other=0) + row
        else:
            pos = row + mid
        m = tl.load(seq_ptr + pos, mask=active, other=0)
        if RIGHT:
            go_right = (m > v) == 0
        else:
            go_right = (m >= v) == 0
        lo = tl.where(active & go_right, mid + 1, lo)
        hi = tl.where(active & (go_right == 0), mid, hi)
    tl.store(out_ptr + k, lo.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def isin_kernel(x_ptr, t_ptr, out_ptr, n, m, INVERT: tl.constexpr, BLOCK: tl.constexpr):
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    x = tl.load(x_ptr + k, mask=mask, other=0)
    found = tl.zeros([BLOCK], dtype=tl.int32)
    for j in range(0, m):
        t = tl.load(t_ptr + j + k * 0, mask=mask, other=0)
        found = found | (x == t).to(tl.int32)
    if INVERT:
        found = 1 - found
    tl.store(out_ptr + k, found.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def histc_kernel(x_ptr, out_ptr, n, bins, lo, hi, FROM_DATA: tl.constexpr, ROUND: tl.constexpr,
                 BLOCK: tl.constexpr):
    b = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = b < bins
    left = tl.zeros([BLOCK], dtype=tl.float32) + lo
    right = tl.zeros([BLOCK], dtype=tl.float32) + hi
    if ROUND:
        # the bin edges are a linspace in self's dtype
        left = left.to(out_ptr.dtype.element_ty).to(tl.float32)
        right = right.to(out_ptr.dtype.element_ty).to(tl.float32)
    if FROM_DATA:
        # min == max: the data's extrema, widened by one each way when they are equal
        left = tl.load(x_ptr + b * 0, mask=mask, other=0).to(tl.float32)
        right = left
        for j in range(1, n):
            x = tl.load(x_ptr + j + b * 0, mask=mask, other=0).to(tl.float32)
            left = tl.minimum(left, x)
            right = tl.maximum(right, x)
        same = left == right
        left = tl.where(same, left - 1.0, left)
        right = tl.where(same, right + 1.0, right)
        if ROUND:
            left = left.to(out_ptr.dtype.element_ty).to(tl.float32)
            right = right.to(out_ptr.dtype.element_ty).to(tl.float32)
    width = right - left
    if ROUND:
        width = width.to(out_ptr.dtype.element_ty).to(tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    bf = bins.to(tl.float32)
    if ROUND:
        bf = bf.to(out_ptr.dtype.element_ty).to(tl.float32)
    for j in range(0, n):
        x = tl.load(x_ptr + j + b * 0, mask=mask, other=0).to(tl.float32)
        inside = (x >= left) & (x <= right)
        # ATen: (x - left) / (right - left) * bins, each operation in self's dtype
        d = x - left
        if ROUND:
            d = d.to(out_ptr.dtype.element_ty).to(tl.float32)
        q = d / width
        if ROUND:
            q = q.to(out_ptr.dtype.element_ty).to(tl.float32)
        q = q * bf
        if ROUND:
            q = q.to(out_ptr.dtype.element_ty).to(tl.float32)
        pos = tl.where(inside, q, 0.0).to(tl.int64)
        pos = tl.where(pos == bins, bins - 1, pos)
        hit = inside & (pos == b)
        cnt = cnt + tl.where(hit, 1.0, 0.0)
        if ROUND:
            cnt = cnt.to(out_ptr.dtype.element_ty).to(tl.float32)
    tl.store(out_ptr + b, cnt.to(out_ptr.dtype.element_ty), mask=mask)


def _iters(length):
    it = 1
    while (1 << (it - 1)) <= length:
        it += 1
    return it


def _searchsorted(sorted_sequence, self, out_int32, right, side, sorter):
    if side is not None:
        if side != "left" and side != "right":
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got " + str(side))
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    out_dt = torch.int32 if out_int32 else torch.int64
    vals = self
    scalar = not torch.is_tensor(self)
    if scalar:
        vals = torch.full([], self, dtype=sorted_sequence.dtype, device=sorted_sequence.device)
    out = torch.empty(vals.shape, dtype=out_dt, device=sorted_sequence.device)
    n = out.numel()
    if n == 0:
        return out
    one_row = sorted_sequence.dim() == 1
    if not one_row:
        if sorted_sequence.dim() != vals.dim():
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                               "dimensions of boundaries tensor and input value tensor must match")
        for d in range(vals.dim() - 1):
            if sorted_sequence.shape[d] != vals.shape[d]:
                raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                                   "dimensions of boundaries tensor and input value tensor must match")
    seq_len = sorted_sequence.shape[sorted_sequence.dim() - 1]
    inner = 1 if vals.dim() == 0 else vals.shape[vals.dim() - 1]
    dt = torch.promote_types(sorted_sequence.dtype, vals.dtype)
    seq = sorted_sequence.to(dt).contiguous()
    v = vals.to(dt).contiguous()
    srt = seq if sorter is None else sorter.contiguous()
    BLOCK = 128
    search_kernel[(triton.cdiv(n, BLOCK), )](seq, v, srt, out, n, inner, seq_len, _iters(seq_len), RIGHT=right,
                                             ONE_ROW=one_row, HAS_SORTER=sorter is not None, BLOCK=BLOCK)
    return out


def _bucketize(self, boundaries, out_int32, right):
    if boundaries.dim() != 1:
        raise RuntimeError("boundaries tensor must be 1 dimension, but got dim(" + str(boundaries.dim()) + ")")
    return _searchsorted(boundaries, self, out_int32, right, None, None)


def _isin(elements, test_elements, invert):
    e = elements if torch.is_tensor(elements) else torch.full([], elements, dtype=test_elements.dtype)
    t = test_elements if torch.is_tensor(test_elements) else torch.full([], test_elements, dtype=e.dtype)
    dt = torch.promote_types(e.dtype, t.dtype)
    out = torch.empty(e.shape, dtype=torch.bool, device=e.device)
    n = out.numel()
    if n == 0:
        return out
    x = e.to(dt).contiguous()
    tt = t.to(dt).contiguous()
    res = torch.empty(e.shape, dtype=torch.int32, device=e.device)
    BLOCK = 128
    isin_kernel[(triton.cdiv(n, BLOCK), )](x, tt, res, n, tt.numel(), INVERT=invert, BLOCK=BLOCK)
    out.copy_(res)
    return out


def _histc(self, bins, min, max):
    if bins <= 0:
        raise RuntimeError("torch.histc(): bins must be > 0, but got " + str(bins) + " for dimension 0")
    out = torch.zeros([bins], dtype=self.dtype, device=self.device)
    n = self.numel()
    lo = float(min)
    hi = float(max)
    from_data = lo == hi and n > 0
    if lo == hi and n == 0:
        lo -= 1.0
        hi += 1.0
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if n == 0:
        return out
    rnd = self.dtype == torch.bfloat16 or self.dtype == torch.float16
    x = self.contiguous()
    BLOCK = 128
    histc_kernel[(triton.cdiv(bins, BLOCK), )](x, out, n, bins, lo, hi, FROM_DATA=from_data, ROUND=rnd, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
