"""{{SCHEMA}}

Lowered by opforge's inductor provider (scan family, scan template): the scan
dim is permuted to the end and made contiguous; each program takes a block of
rows (one vector lane per row) and walks the columns in order, so every lane
accumulates sequentially as ATen's CPU kernels do (floats in float32, integers
in int64). OP: 0 cumsum, 1 cumprod, 2 cummax, 3 cummin, 4 logcumsumexp.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def scan_rows_kernel(x_ptr, out_ptr, idx_ptr, n_rows, n_cols, OP: tl.constexpr, IS_FLOAT: tl.constexpr,
                     BLOCK: tl.constexpr):
    rows = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    rmask = rows < n_rows
    base = rows * n_cols
    if IS_FLOAT:
        acc = tl.load(x_ptr + base, mask=rmask, other=0).to(tl.float32)
    else:
        acc = tl.load(x_ptr + base, mask=rmask, other=0).to(tl.int64)
    best_idx = tl.zeros([BLOCK], dtype=tl.int64)
    tl.store(out_ptr + base, acc, mask=rmask)
    if OP == 2 or OP == 3:
        tl.store(idx_ptr + base, best_idx, mask=rmask)
    for c in range(1, n_cols):
        v = tl.load(x_ptr + base + c, mask=rmask, other=0)
        if IS_FLOAT:
            v = v.to(tl.float32)
        else:
            v = v.to(tl.int64)
        if OP == 0:
            acc = acc + v
        elif OP == 1:
            acc = acc * v
        elif OP == 2 or OP == 3:
            if OP == 2:
                take = v >= acc
            else:
                take = v <= acc
            if IS_FLOAT:
                take = (v != v) | ((acc == acc) & take)
            acc = tl.where(take, v, acc)
            best_idx = tl.where(take, c, best_idx)
            tl.store(idx_ptr + base + c, best_idx, mask=rmask)
        else:
            hi = tl.maximum(acc, v)
            lo = tl.minimum(acc, v)
            both_inf = (lo == hi) & (tl.abs(lo) == float('inf'))
            acc = tl.where(both_inf, lo, hi + tl.log(1.0 + tl.exp(lo - hi)))
            acc = tl.where((v != v) | (acc != acc), float('nan'), acc)
        tl.store(out_ptr + base + c, acc, mask=rmask)


def _scan(self, dim, dtype, op):
    # returns (values, indices or None)
    ndim = self.dim()
    rank = ndim if ndim > 0 else 1
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(dim) + ")")
    dim = dim % rank
    x = self.to(dtype)
    if ndim == 0:
        x = x.reshape([1])
    perm = [d for d in range(x.dim()) if d != dim] + [dim]
    inverse = [0] * x.dim()
    for i, d in enumerate(perm):
        inverse[d] = i
    xp = x.permute(perm).contiguous()
    is_float = xp.is_floating_point()
    acc_dtype = torch.float32 if is_float else torch.int64
    vals = torch.empty(xp.shape, dtype=acc_dtype, device=self.device)
    idx = torch.empty(xp.shape, dtype=torch.int64, device=self.device)
    n = xp.numel()
    if n > 0:
        n_cols = xp.shape[xp.dim() - 1]
        n_rows = n // n_cols
        BLOCK = 64
        scan_rows_kernel[(triton.cdiv(n_rows, BLOCK), )](xp, vals, idx, n_rows, n_cols, OP=op, IS_FLOAT=is_float,
                                                         BLOCK=BLOCK)
    out = vals.permute(inverse).to(dtype)
    ind = idx.permute(inverse).contiguous()
    if ndim == 0:
        return out.reshape([]), ind.reshape([])
    return out, ind


def _cum_dtype(self, dtype):
    if dtype is not None:
        return dtype
    if self.is_floating_point():
        return self.dtype
    return torch.int64


def _float_dtype(self):
    return self.dtype if self.is_floating_point() else torch.float32


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
