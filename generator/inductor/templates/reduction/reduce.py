"""{{SCHEMA}}

Lowered by opforge's inductor provider (reduction family, reduce template): the
reduced dims are permuted to the end and made contiguous, so each program reduces
one row of a (rows, cols) matrix; floats accumulate in float32, integers and bool
in int64, and the result is rounded once to the result dtype.
"""
import torch
import triton
import triton.language as tl
import math


@triton.jit
def reduce_rows_kernel(x_ptr, out_ptr, n_cols, p, OP: tl.constexpr, IS_FLOAT: tl.constexpr, BLOCK: tl.constexpr):
    # one program per row of a contiguous (rows, n_cols) matrix; OP picks the reduction:
    # 0 sum, 1 prod, 2 max, 3 min, 4 any (nonzero), 5 all (nonzero), 6 sum|x|, 7 sum x^2, 8 max|x|,
    # 9 min|x|, 10 sum |x|^p, 11 count nonzero, 12 nansum, 13 logsumexp
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * n_cols
    if IS_FLOAT:
        first = tl.load(base).to(tl.float32)
    else:
        first = tl.load(base).to(tl.int64)
    if OP == 2 or OP == 3 or OP == 13:
        acc = tl.zeros([BLOCK], dtype=first.dtype) + first
    elif OP == 8 or OP == 9:
        acc = tl.zeros([BLOCK], dtype=first.dtype) + tl.abs(first)
    elif OP == 1 or OP == 5:
        acc = tl.zeros([BLOCK], dtype=first.dtype) + 1
    else:
        acc = tl.zeros([BLOCK], dtype=first.dtype)
    nan_seen = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        if IS_FLOAT:
            v = tl.load(base + cols, mask=mask, other=0).to(tl.float32)
        else:
            v = tl.load(base + cols, mask=mask, other=0).to(tl.int64)
        if OP == 0:
            acc += v
        elif OP == 1:
            acc = acc * tl.where(mask, v, 1)
        elif OP == 2 or OP == 13:
            v = tl.where(mask, v, first)
            if IS_FLOAT:
                nan_seen = nan_seen | (v != v).to(tl.int32)
            acc = tl.where(v > acc, v, acc)
        elif OP == 3:
            v = tl.where(mask, v, first)
            if IS_FLOAT:
                nan_seen = nan_seen | (v != v).to(tl.int32)
            acc = tl.where(v < acc, v, acc)
        elif OP == 4:
            acc = tl.where(mask & (v != 0), 1, acc)
        elif OP == 5:
            acc = tl.where(mask & (v == 0), 0, acc)
        elif OP == 6:
            acc += tl.abs(v)
        elif OP == 7:
            acc += v * v
        elif OP == 8:
            a = tl.abs(tl.where(mask, v, first))
            if IS_FLOAT:
                nan_seen = nan_seen | (a != a).to(tl.int32)
            acc = tl.where(a > acc, a, acc)
        elif OP == 9:
            a = tl.abs(tl.where(mask, v, first))
            if IS_FLOAT:
                nan_seen = nan_seen | (a != a).to(tl.int32)
            acc = tl.where(a < acc, a, acc)
        elif OP == 10:
            a = tl.abs(v)
            acc += tl.where(mask & (a != 0), tl.exp2(p * tl.log2(a)), 0.0)
        elif OP == 11:
            acc += tl.where(mask & (v != 0), 1, 0).to(acc.dtype)
        elif OP == 12:
            acc += tl.where(v != v, 0.0, v)
    if OP == 0 or OP == 6 or OP == 7 or OP == 10 or OP == 11 or OP == 12:
        total = tl.sum(acc, axis=0)
    elif OP == 1:
        total = tl.reduce(acc, 0, _mul_combine)
    elif OP == 2 or OP == 8 or OP == 13:
        total = tl.max(acc, axis=0)
        if IS_FLOAT:
            total = tl.where(tl.max(nan_seen, axis=0) != 0, float('nan'), total)
    elif OP == 3 or OP == 9:
        total = tl.min(acc, axis=0)
        if IS_FLOAT:
            total = tl.where(tl.max(nan_seen, axis=0) != 0, float('nan'), total)
    elif OP == 4:
        total = tl.max(acc, axis=0)
    else:
        total = tl.min(acc, axis=0)
    if OP == 13:
        # log(sum(exp(x - max))) + max, with an infinite max taken as 0 in the shift
        shift = tl.where(tl.abs(total) == float('inf'), 0.0, total)
        s = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            mask = cols < n_cols
            v = tl.load(base + cols, mask=mask, other=0).to(tl.float32)
            s += tl.where(mask, tl.exp(v - shift), 0.0)
        total = tl.log(tl.sum(s, axis=0)) + shift
    tl.store(out_ptr + row, total)


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def arg_reduce_rows_kernel(x_ptr, val_ptr, idx_ptr, n_cols, IS_MAX: tl.constexpr, IS_FLOAT: tl.constexpr,
                           BLOCK: tl.constexpr):
    # first index of the largest (IS_MAX) or smallest value of each row; NaN counts as the extreme
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * n_cols
    if IS_FLOAT:
        first = tl.load(base).to(tl.float32)
    else:
        first = tl.load(base).to(tl.int64)
    best = tl.zeros([BLOCK], dtype=first.dtype) + first
    best_idx = tl.zeros([BLOCK], dtype=tl.int64)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        v = tl.load(base + cols, mask=mask, other=0)
        if IS_FLOAT:
            v = v.to(tl.float32)
        else:
            v = v.to(tl.int64)
        v = tl.where(mask, v, first)
        if IS_MAX:
            better = v > best
        else:
            better = v < best
        if IS_FLOAT:
            better = better | ((v != v) & (best == best))
        take = better & mask
        best = tl.where(take, v, best)
        best_idx = tl.where(take, cols.to(tl.int64), best_idx)
    if IS_MAX:
        top = tl.max(best, axis=0)
    else:
        top = tl.min(best, axis=0)
    if IS_FLOAT:
        any_nan = tl.max((best != best).to(tl.int32), axis=0) != 0
        hit = tl.where(any_nan, best != best, best == top)
        top = tl.where(any_nan, float('nan'), top)
    else:
        hit = best == top
    idx = tl.min(tl.where(hit, best_idx, n_cols), axis=0)
    tl.store(val_ptr + row, top)
    tl.store(idx_ptr + row, idx)


@triton.jit
def moments_rows_kernel(x_ptr, var_ptr, mean_ptr, n_cols, correction, TAKE_SQRT: tl.constexpr, BLOCK: tl.constexpr):
    # two-pass mean and variance of each row (divisor n - correction), float32
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        acc += tl.load(base + cols, mask=cols < n_cols, other=0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        d = tl.load(base + cols, mask=mask, other=0).to(tl.float32) - mean
        acc2 += tl.where(mask, d * d, 0.0)
    divisor = tl.maximum(n_cols - correction, 0.0)
    var = tl.sum(acc2, axis=0) / divisor
    if TAKE_SQRT:
        var = tl.sqrt(var)
    tl.store(var_ptr + row, var)
    tl.store(mean_ptr + row, mean)


def _reduced_dims(ndim, dim):
    # dims as a sorted list of distinct non-negative dims; None or [] means all
    if dim is None:
        return list(range(ndim))
    if isinstance(dim, int):
        dim = [dim]
    if len(dim) == 0:
        return list(range(ndim))
    rank = ndim if ndim > 0 else 1
    dims = []
    for d in dim:
        if d < -rank or d >= rank:
            raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                             str(rank - 1) + "], but got " + str(d) + ")")
        d = d % rank
        if ndim > 0 and d not in dims:
            dims.append(d)
    return sorted(dims)


def _rows(self, dims):
    # (x, n_rows, n_cols, out shape without and with keepdim)
    ndim = self.dim()
    kept = [d for d in range(ndim) if d not in dims]
    n_rows = 1
    for d in kept:
        n_rows *= self.shape[d]
    n_cols = 1
    for d in dims:
        n_cols *= self.shape[d]
    shape = [self.shape[d] for d in kept]
    keep_shape = [1 if d in dims else self.shape[d] for d in range(ndim)]
    x = self
    if ndim > 0:
        x = x.permute(kept + dims)
    return x, n_rows, n_cols, shape, keep_shape


def _reduce(self, dim, keepdim, dtype, op, p=0.0, acc_float=None):
    # op as reduce_rows_kernel's OP; dtype is the result dtype
    dims = _reduced_dims(self.dim(), dim)
    x, n_rows, n_cols, shape, keep_shape = _rows(self, dims)
    out_shape = keep_shape if keepdim else shape
    is_float = x.is_floating_point() if acc_float is None else acc_float
    acc_dtype = torch.float32 if is_float else torch.int64
    if n_rows == 0:
        return torch.empty(out_shape, dtype=dtype, device=self.device)
    if n_cols == 0:
        if op == 1 or op == 5:
            return torch.ones(out_shape, dtype=dtype, device=self.device)
        if op == 2 or op == 3 or op == 8 or op == 9:
            raise IndexError("max(): Expected reduction dim to be specified for input.numel() == 0.")
        if op == 13:
            return torch.full(out_shape, -math.inf, dtype=dtype, device=self.device)
        return torch.zeros(out_shape, dtype=dtype, device=self.device)
    if is_float and not x.is_floating_point():
        x = x.to(torch.float32)
    x = x.contiguous()
    partial = torch.empty([n_rows], dtype=acc_dtype, device=self.device)
    BLOCK = _block(n_cols)
    reduce_rows_kernel[(n_rows, )](x, partial, n_cols, float(p), OP=op, IS_FLOAT=is_float, BLOCK=BLOCK)
    return partial.to(dtype).reshape(out_shape)


def _sum_dtype(self, dtype):
    if dtype is not None:
        return dtype
    if self.is_floating_point():
        return self.dtype
    return torch.int64


def _mean(self, dim, keepdim, dtype):
    if dtype is None:
        dtype = self.dtype
    s = _reduce(self.to(dtype), dim, keepdim, dtype, 0)
    dims = _reduced_dims(self.dim(), dim)
    n = 1
    for d in dims:
        n *= self.shape[d]
    return _scale(s, n)


@triton.jit
def divide_kernel(x_ptr, out_ptr, n, divisor, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.float32)
    tl.store(out_ptr + offs, v / divisor, mask=mask)


def _scale(s, n):
    out = torch.empty(s.shape, dtype=s.dtype, device=s.device)
    total = s.numel()
    if total == 0:
        return out
    x = s.contiguous()
    BLOCK = 256
    divide_kernel[(triton.cdiv(total, BLOCK), )](x, out, total, float(n), BLOCK=BLOCK)
    return out


def _bool_dtype(self):
    return torch.uint8 if self.dtype == torch.uint8 else torch.bool


def _vector_norm(self, p, dim, keepdim, dtype):
    if p is None:
        p = 2.0
    p = float(p)
    if p == 0.0:
        return _reduce(self, dim, keepdim, dtype, 11, acc_float=True)
    if p == 1.0:
        return _reduce(self, dim, keepdim, dtype, 6)
    if p == 2.0:
        sq = _reduce(self, dim, keepdim, torch.float32, 7)
        return _unary(sq, 0, 0.0, dtype)
    if p == math.inf:
        return _reduce(self, dim, keepdim, dtype, 8)
    if p == -math.inf:
        return _reduce(self, dim, keepdim, dtype, 9)
    # torch 2.x sums the powers of 16-bit inputs in float32 (1.13 kept float16 and overflowed)
    s = _reduce(self, dim, keepdim, torch.float32, 10, p)
    return _unary(s, 1, 1.0 / p, dtype)


@triton.jit
def unary_kernel(x_ptr, out_ptr, n, q, OP: tl.constexpr, BLOCK: tl.constexpr):
    # 0: sqrt(x); 1: x ** q (x >= 0)
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.float32)
    if OP == 0:
        r = tl.sqrt(v)
    else:
        r = tl.where(v == 0, 0.0, tl.exp2(q * tl.log2(v)))
    tl.store(out_ptr + offs, r, mask=mask)


def _unary(s, op, q, dtype):
    out = torch.empty(s.shape, dtype=torch.float32, device=s.device)
    total = s.numel()
    if total > 0:
        x = s.contiguous()
        BLOCK = 256
        unary_kernel[(triton.cdiv(total, BLOCK), )](x, out, total, float(q), OP=op, BLOCK=BLOCK)
    return out.to(dtype)


def _arg_reduce(self, dim, keepdim, is_max):
    # (values, indices) of the extreme of each slice along dim (all elements when dim is None)
    if dim is None:
        x = self.reshape([-1])
        v, i = _arg_reduce(x, 0, False, is_max)
        if keepdim:
            shape = [1] * self.dim()
            return v.reshape(shape), i.reshape(shape)
        return v, i
    dims = _reduced_dims(self.dim(), dim)
    x, n_rows, n_cols, shape, keep_shape = _rows(self, dims)
    out_shape = keep_shape if keepdim else shape
    if n_cols == 0:
        raise IndexError("argmax(): Expected reduction dim to be specified for input.numel() == 0.")
    is_float = x.is_floating_point()
    vals = torch.empty([n_rows], dtype=torch.float32 if is_float else torch.int64, device=self.device)
    idx = torch.empty([n_rows], dtype=torch.int64, device=self.device)
    if n_rows > 0:
        x = x.contiguous()
        BLOCK = _block(n_cols)
        arg_reduce_rows_kernel[(n_rows, )](x, vals, idx, n_cols, IS_MAX=is_max, IS_FLOAT=is_float, BLOCK=BLOCK)
    return vals.to(self.dtype).reshape(out_shape), idx.reshape(out_shape)


def _moments(self, dim, correction, keepdim, take_sqrt):
    if correction is None:
        correction = 1
    dims = _reduced_dims(self.dim(), dim)
    x, n_rows, n_cols, shape, keep_shape = _rows(self, dims)
    out_shape = keep_shape if keepdim else shape
    var = torch.empty([n_rows], dtype=torch.float32, device=self.device)
    mean = torch.empty([n_rows], dtype=torch.float32, device=self.device)
    if n_rows > 0 and n_cols > 0:
        x = x.contiguous()
        BLOCK = _block(n_cols)
        moments_rows_kernel[(n_rows, )](x, var, mean, n_cols, float(correction), TAKE_SQRT=take_sqrt, BLOCK=BLOCK)
    elif n_rows > 0:
        var = torch.full([n_rows], math.nan, dtype=torch.float32, device=self.device)
        mean = torch.full([n_rows], math.nan, dtype=torch.float32, device=self.device)
    return var.to(self.dtype).reshape(out_shape), mean.to(self.dtype).reshape(out_shape)


def _aminmax(self, dim, keepdim):
    lo = _reduce(self, dim, keepdim, self.dtype, 3)
    hi = _reduce(self, dim, keepdim, self.dtype, 2)
    return lo, hi


@triton.jit
def sub_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0).to(tl.float32)
    tl.store(out_ptr + offs, a - b, mask=mask)


def _dist(self, other, p):
    # the p-norm of self - other (broadcast), rounded to the promoted dtype
    dtype = torch.promote_types(self.dtype, other.dtype)
    shape = torch.broadcast_shapes(self.shape, other.shape)
    a = self.expand(shape).contiguous()
    b = other.expand(shape).contiguous()
    diff = torch.empty(shape, dtype=torch.float32, device=self.device)
    n = diff.numel()
    if n > 0:
        sub_kernel[(triton.cdiv(n, 256), )](a, b, diff, n, BLOCK=256)
    return _vector_norm(diff, p, None, False, dtype)


def _block(n):
    b = triton.next_power_of_2(n)
    return 1024 if b > 1024 else b



def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
