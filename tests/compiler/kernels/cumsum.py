"""Inclusive prefix sum along the last dimension with tl.cumsum, for cumsum.default."""
import torch
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_cols, x_row_stride, y_row_stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0)
    y = tl.cumsum(x, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y, mask=mask)


def cumsum_default(self, dim, *, dtype=None):
    assert dtype is None or dtype == self.dtype, "cumsum: dtype conversion is not supported"
    ndim = self.dim()
    if dim < 0:
        dim += max(ndim, 1)
    assert dim == ndim - 1 or ndim == 0, "cumsum: only the last dimension is supported"
    x = self.contiguous()
    n_cols = x.shape[-1] if ndim > 0 else 1
    x2 = x.reshape(-1, n_cols)
    y = torch.empty_like(x2)
    n_rows = x2.shape[0]
    if x2.numel() == 0:
        return y.reshape(self.shape)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    cumsum_kernel[(n_rows, )](x2, y, n_cols, x2.stride(0), y.stride(0), BLOCK_SIZE=BLOCK_SIZE)
    return y.reshape(self.shape)
