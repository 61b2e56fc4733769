"""Inclusive scans of a 2-D tile along either axis: tl.cumsum (forward or reverse) and tl.cumprod."""
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
