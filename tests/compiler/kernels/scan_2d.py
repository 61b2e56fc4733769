"""Inclusive scans of a 2-D tile along either axis: tl.cumsum (forward or reverse) and tl.cumprod."""
import torch
import triton
import triton.language as tl


@triton.jit
def scan_2d_kernel(x_ptr, sum_ptr, prod_ptr, M, N, AXIS: tl.constexpr, REVERSE: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    x = tl.load(x_ptr + rows * N + cols, mask=mask, other=0)
    s = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    tl.store(sum_ptr + rows * N + cols, s, mask=mask)
    p = x.cumprod(AXIS)
    tl.store(prod_ptr + rows * N + cols, p, mask=mask)


def cumsum_default(self, dim, *, dtype=None):
    assert dtype is None or dtype == self.dtype, "cumsum: dtype conversion is not supported"
    assert self.dim() == 2, "cumsum: a 2-D tensor of one tile"
    x = self.contiguous()
    M, N = x.shape
    s = torch.empty_like(x)
    p = torch.empty_like(x)
    if x.numel() == 0:
        return s
    scan_2d_kernel[(1, )](x, s, p, M, N, AXIS=dim % 2, REVERSE=False,
                          BLOCK_M=triton.next_power_of_2(M), BLOCK_N=triton.next_power_of_2(N))
    return s
