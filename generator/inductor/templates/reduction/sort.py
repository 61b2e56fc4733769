"""{{SCHEMA}}

Lowered by opforge's inductor provider (reduction family, sort template): sort,
topk, kthvalue, median and nanmedian by a merge sort. The dim is permuted to
the end and made contiguous. First each chunk of CHUNK (<= 64) elements of a
row is sorted by ranking (rank = number of chunk elements ordered before it,
ties broken by position); then sorted runs of width w merge into runs of 2w,
log2(n / CHUNK) passes, each element finding its place in the other run by a
binary search (an element of the left run goes after the right run's elements
ordered strictly before it, an element of the right run after the left run's
elements not ordered after it), so the sort is stable and takes
O(n log^2 n) work instead of ranking all pairs. NaN orders after every number
(before every number when descending), as ATen's sort does. Order statistics
then read the sorted row.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _before(a, b, DESC: tl.constexpr, IS_FLOAT: tl.constexpr):
    # a strictly ordered before b (NaN is the largest value)
    if DESC:
        r = a > b
        if IS_FLOAT:
            r = r | ((a != a) & (b == b))
    else:
        r = a < b
        if IS_FLOAT:
            r = r | ((b != b) & (a == a))
    return r


@triton.jit
def chunk_sort_kernel(x_ptr, val_ptr, idx_ptr, n_cols, DESC: tl.constexpr, IS_FLOAT: tl.constexpr,
                      CHUNK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    base = row * n_cols
    start = tl.program_id(axis=1).to(tl.int64) * CHUNK
    cols = start + tl.arange(0, CHUNK)
    mask = cols < n_cols
    raw = tl.load(x_ptr + base + cols, mask=mask, other=0)
    if IS_FLOAT:
        v = raw.to(tl.float32)
    else:
        v = raw.to(tl.int64)
    uu = v[None, :]
    vv = v[:, None]
    same = uu == vv
    if IS_FLOAT:
        same = same | ((uu != uu) & (vv != vv))
    hit = (_before(uu, vv, DESC, IS_FLOAT) | (same & (cols[None, :] < cols[:, None]))) & mask[None, :]
    rank = tl.sum(hit.to(tl.int64), axis=1)
    tl.store(val_ptr + base + start + rank, raw, mask=mask)
    tl.store(idx_ptr + base + start + rank, cols, mask=mask)


@triton.jit
def merge_kernel(src_val_ptr, src_idx_ptr, dst_val_ptr, dst_idx_ptr, n_cols, width, steps, DESC: tl.constexpr,
                 IS_FLOAT: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    base = row * n_cols
    cols = tl.program_id(axis=1).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    run = cols // width
    left_start = (run - run % 2) * width
    is_left = (run % 2) == 0
    right_start = left_start + width
    left_len = tl.minimum(n_cols - left_start, width)
    right_len = tl.maximum(tl.minimum(n_cols - right_start, width), 0)
    other_start = tl.where(is_left, right_start, left_start)
    other_len = tl.where(is_left, right_len, left_len)
    own_pos = tl.where(is_left, cols - left_start, cols - right_start)
    raw = tl.load(src_val_ptr + base + cols, mask=mask, other=0)
    if IS_FLOAT:
        x = raw.to(tl.float32)
    else:
        x = raw.to(tl.int64)
    lo = tl.zeros([BLOCK], dtype=tl.int64)
    hi = other_len
    for _ in range(steps):
        active = (lo < hi) & mask
        mid = (lo + hi) // 2
        y = tl.load(src_val_ptr + base + other_start + mid, mask=active, other=0)
        if IS_FLOAT:
            y = y.to(tl.float32)
        else:
            y = y.to(tl.int64)
        # left element: skip the right run's elements ordered before x;
        # right element: skip the left run's elements not ordered after x
        take_left = _before(y, x, DESC, IS_FLOAT).to(tl.int32)
        take_right = 1 - _before(x, y, DESC, IS_FLOAT).to(tl.int32)
        go = tl.where(is_left, take_left, take_right)
        lo = tl.where(active & (go != 0), mid + 1, lo)
        hi = tl.where(active & (go == 0), mid, hi)
    out = left_start + own_pos + lo
    tl.store(dst_val_ptr + base + out, raw, mask=mask)
    tl.store(dst_idx_ptr + base + out, tl.load(src_idx_ptr + base + cols, mask=mask, other=0), mask=mask)


@triton.jit
def pick_kernel(val_ptr, idx_ptr, out_val_ptr, out_idx_ptr, n_cols, pos, MODE: tl.constexpr, BLOCK: tl.constexpr):
    # from a row sorted ascending: MODE 0 the element at pos, 1 the lower median (NaN if any),
    # 2 the lower median of the non-NaN elements
    row = tl.program_id(axis=0).to(tl.int64)
    base = row * n_cols
    offs = tl.arange(0, BLOCK)
    p = pos
    if MODE == 1:
        last = tl.load(val_ptr + base + n_cols - 1).to(tl.float32)
        nans = tl.zeros([BLOCK], dtype=tl.int64)
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            v = tl.load(val_ptr + base + cols, mask=cols < n_cols, other=0).to(tl.float32)
            nans += ((v != v) & (cols < n_cols)).to(tl.int64)
        nan_count = tl.sum(nans, axis=0)
        p = tl.where(last != last, n_cols - nan_count, (n_cols - 1) // 2)
    elif MODE == 2:
        nums = tl.zeros([BLOCK], dtype=tl.int64)
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            v = tl.load(val_ptr + base + cols, mask=cols < n_cols, other=0).to(tl.float32)
            nums += ((v == v) & (cols < n_cols)).to(tl.int64)
        count = tl.sum(nums, axis=0)
        p = tl.where(count == 0, 0, (count - 1) // 2)
    tl.store(out_val_ptr + row, tl.load(val_ptr + base + p))
    tl.store(out_idx_ptr + row, tl.load(idx_ptr + base + p))


@triton.jit
def mode_kernel(val_ptr, idx_ptr, out_val_ptr, out_idx_ptr, n_cols, BLOCK: tl.constexpr):
    # from a row sorted ascending: the value of the first longest run of equal elements (ATen's
    # scan: a later run wins only when strictly longer) and the index of one of its elements
    row = tl.program_id(axis=0).to(tl.int64)
    base = row * n_cols
    lanes = tl.arange(0, BLOCK)
    first = lanes < 1
    best_v = tl.load(val_ptr + base + lanes * 0)
    best_i = tl.load(idx_ptr + base + lanes * 0)
    best_n = tl.zeros([BLOCK], dtype=tl.int64)
    run = tl.zeros([BLOCK], dtype=tl.int64)
    for j in range(0, n_cols):
        v = tl.load(val_ptr + base + j + lanes * 0)
        nxt = tl.load(val_ptr + base + j + 1 + lanes * 0, mask=(j + 1 + lanes * 0) < n_cols, other=0)
        run = run + 1
        end = ((j + 1 + lanes * 0) >= n_cols) | (v != nxt)
        better = end & (run > best_n)
        best_n = tl.where(better, run, best_n)
        best_v = tl.where(better, v, best_v)
        best_i = tl.where(better, tl.load(idx_ptr + base + j + lanes * 0), best_i)
        run = tl.where(end, 0, run)
    tl.store(out_val_ptr + row + lanes * 0, best_v, mask=first)
    tl.store(out_idx_ptr + row + lanes * 0, best_i, mask=first)


def _rows_of(self, dim):
    ndim = self.dim()
    rank = ndim if ndim > 0 else 1
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(dim) + ")")
    d = dim % rank
    x = self.reshape([1]) if ndim == 0 else self
    perm = [k for k in range(x.dim()) if k != d] + [d]
    inverse = [0] * x.dim()
    for i, k in enumerate(perm):
        inverse[k] = i
    return x.permute(perm).contiguous(), d, inverse


def _sorted_rows(xp, descending):
    # (values, indices) with the same shape as xp, each row sorted
    vals = torch.empty(xp.shape, dtype=xp.dtype, device=xp.device)
    idx = torch.empty(xp.shape, dtype=torch.int64, device=xp.device)
    n = xp.numel()
    if n == 0:
        return vals, idx
    n_cols = xp.shape[xp.dim() - 1]
    n_rows = n // n_cols
    is_float = xp.is_floating_point()
    CHUNK = triton.next_power_of_2(n_cols)
    if CHUNK > 64:
        CHUNK = 64
    chunk_sort_kernel[(n_rows, triton.cdiv(n_cols, CHUNK))](xp, vals, idx, n_cols, DESC=descending,
                                                            IS_FLOAT=is_float, CHUNK=CHUNK)
    if n_cols <= CHUNK:
        return vals, idx
    other_vals = torch.empty(xp.shape, dtype=xp.dtype, device=xp.device)
    other_idx = torch.empty(xp.shape, dtype=torch.int64, device=xp.device)
    BLOCK = triton.next_power_of_2(n_cols)
    if BLOCK > 256:
        BLOCK = 256
    width = CHUNK
    while width < n_cols:
        steps = 0
        while (1 << steps) <= width:
            steps += 1
        merge_kernel[(n_rows, triton.cdiv(n_cols, BLOCK))](vals, idx, other_vals, other_idx, n_cols, width, steps,
                                                           DESC=descending, IS_FLOAT=is_float, BLOCK=BLOCK)
        vals, other_vals = other_vals, vals
        idx, other_idx = other_idx, idx
        width = width * 2
    return vals, idx


def _sort(self, dim, descending):
    xp, d, inverse = _rows_of(self, dim)
    vals, idx = _sorted_rows(xp, descending)
    vals = vals.permute(inverse).contiguous()
    idx = idx.permute(inverse).contiguous()
    if self.dim() == 0:
        return vals.reshape([]), idx.reshape([])
    return vals, idx


def _topk(self, k, dim, largest, sorted):
    xp, d, inverse = _rows_of(self, dim)
    vals, idx = _sorted_rows(xp, largest)
    last = xp.dim() - 1
    vals = vals.narrow(last, 0, k).permute(inverse).contiguous()
    idx = idx.narrow(last, 0, k).permute(inverse).contiguous()
    if self.dim() == 0:
        return vals.reshape([]), idx.reshape([])
    return vals, idx


def _order_stat(self, dim, keepdim, mode, pos):
    # dim None: over all elements (0-d results)
    if dim is None:
        v, i = _order_stat(self.reshape([-1]), 0, False, mode, pos)
        return v, i
    xp, d, inverse = _rows_of(self, dim)
    vals, idx = _sorted_rows(xp, False)
    n_cols = xp.shape[xp.dim() - 1]
    n_rows = xp.numel() // n_cols if n_cols > 0 else 0
    out_shape = [xp.shape[k] for k in range(xp.dim() - 1)]
    out_v = torch.empty(out_shape, dtype=self.dtype, device=self.device)
    out_i = torch.empty(out_shape, dtype=torch.int64, device=self.device)
    if n_rows > 0:
        BLOCK = triton.next_power_of_2(n_cols)
        if BLOCK > 256:
            BLOCK = 256
        pick_kernel[(n_rows, )](vals, idx, out_v, out_i, n_cols, pos, MODE=mode, BLOCK=BLOCK)
    if keepdim and self.dim() > 0:
        out_v = out_v.unsqueeze(d)
        out_i = out_i.unsqueeze(d)
    return out_v, out_i


def _mode(self, dim, keepdim):
    xp, d, inverse = _rows_of(self, dim)
    n_cols = xp.shape[xp.dim() - 1]
    n_rows = xp.numel() // n_cols if n_cols > 0 else 0
    out_shape = [xp.shape[k] for k in range(xp.dim() - 1)]
    out_v = torch.empty(out_shape, dtype=self.dtype, device=self.device)
    out_i = torch.empty(out_shape, dtype=torch.int64, device=self.device)
    if n_rows > 0:
        vals, idx = _sorted_rows(xp, False)
        mode_kernel[(n_rows, )](vals, idx, out_v, out_i, n_cols, BLOCK=2)
    if keepdim and self.dim() > 0:
        out_v = out_v.unsqueeze(d)
        out_i = out_i.unsqueeze(d)
    return out_v, out_i


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
