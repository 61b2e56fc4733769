"""{{SCHEMA}}

Lowered by opforge's inductor provider (reduction family, sort template): sort,
topk, kthvalue, median and nanmedian by ranking. The dim is permuted to the end
and made contiguous; each program ranks the elements of one row (rank = number
of elements ordered before it, ties broken by position, so the sort is stable;
NaN orders after every number) and writes each element and its index at its
rank. Order statistics then read the sorted row.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def rank_sort_kernel(x_ptr, val_ptr, idx_ptr, n_cols, DESC: tl.constexpr, IS_FLOAT: tl.constexpr,
                     BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    base = row * n_cols
    offs = tl.arange(0, BLOCK)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        v = tl.load(x_ptr + base + cols, mask=mask, other=0)
        if IS_FLOAT:
            v = v.to(tl.float32)
        else:
            v = v.to(tl.int64)
        rank = tl.zeros([BLOCK], dtype=tl.int64)
        for k0 in range(0, n_cols, BLOCK):
            ks = k0 + offs
            u = tl.load(x_ptr + base + ks, mask=ks < n_cols, other=0)
            if IS_FLOAT:
                u = u.to(tl.float32)
            else:
                u = u.to(tl.int64)
            uu = u[None, :]
            vv = v[:, None]
            if DESC:
                before = uu > vv
            else:
                before = uu < vv
            same = uu == vv
            if IS_FLOAT:
                u_nan = uu != uu
                v_nan = vv != vv
                if DESC:
                    before = (before & (vv == vv)) | (u_nan & (vv == vv))
                else:
                    before = (before & (uu == uu)) | (v_nan & (uu == uu))
                same = same | (u_nan & v_nan)
            hit = (before | (same & (ks[None, :] < cols[:, None]))) & (ks[None, :] < n_cols)
            rank += tl.sum(hit.to(tl.int64), axis=1)
        tl.store(val_ptr + base + rank, v, mask=mask)
        tl.store(idx_ptr + base + rank, cols.to(tl.int64), mask=mask)


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
    BLOCK = triton.next_power_of_2(n_cols)
    if BLOCK > 64:
        BLOCK = 64
    rank_sort_kernel[(n // n_cols, )](xp, vals, idx, n_cols, DESC=descending, IS_FLOAT=xp.is_floating_point(),
                                      BLOCK=BLOCK)
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


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
