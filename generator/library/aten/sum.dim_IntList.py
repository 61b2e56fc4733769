"""aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def sum_rows_kernel(x_ptr, out_ptr, n_cols, IS_FLOAT: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # one program per row of a contiguous (rows, n_cols) matrix
    row = tl.program_id(axis=0)
    offsets = tl.arange(0, BLOCK_SIZE)
    row_ptr = x_ptr + row.to(tl.int64) * n_cols
    if IS_FLOAT:
        acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + offsets
            v = tl.load(row_ptr + cols, mask=cols < n_cols, other=0.0)
            acc += v.to(tl.float32)
    else:
        acc = tl.zeros([BLOCK_SIZE], dtype=tl.int64)
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + offsets
            v = tl.load(row_ptr + cols, mask=cols < n_cols, other=0)
            acc += v.to(tl.int64)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + row, total)


def _reduced_dims(ndim, dim):
    if dim is None or len(dim) == 0:
        return list(range(ndim))
    dims = []
    for d in dim:
        rank = max(ndim, 1)
        if d < -rank or d >= rank:
            raise IndexError("Dimension out of range")
        d = d % rank
        if ndim > 0 and d not in dims:
            dims.append(d)
    return dims


def sum_dim_IntList(self, dim, keepdim=False, *, dtype=None):
    if dtype is None:
        if self.is_floating_point():
            dtype = self.dtype
        else:
            dtype = torch.int64
    ndim = self.dim()
    dims = _reduced_dims(ndim, dim)
    kept = [d for d in range(ndim) if d not in dims]
    if keepdim:
        out_shape = [1 if d in dims else self.shape[d] for d in range(ndim)]
    else:
        out_shape = [self.shape[d] for d in kept]
    n_rows = 1
    for d in kept:
        n_rows *= self.shape[d]
    n_cols = 1
    for d in dims:
        n_cols *= self.shape[d]
    if n_rows == 0:
        return torch.empty(out_shape, dtype=dtype, device=self.device)
    if n_cols == 0:
        return torch.zeros(out_shape, dtype=dtype, device=self.device)
    x = self.to(dtype)
    if ndim > 0:
        x = x.permute(kept + dims)
    x = x.contiguous()
    is_float = x.is_floating_point()
    # accumulate in float32 (floats) or int64 (integers), then round to dtype
    acc_dtype = torch.float32 if is_float else torch.int64
    partial = torch.empty([n_rows], dtype=acc_dtype, device=self.device)
    BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 1024)
    sum_rows_kernel[(n_rows, )](x, partial, n_cols, IS_FLOAT=is_float, BLOCK_SIZE=BLOCK_SIZE)
    return partial.to(dtype).reshape(out_shape)
