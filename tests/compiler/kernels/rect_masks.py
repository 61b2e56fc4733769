"""Masked tiles whose masks select a rectangle (two-sided, reversed, strided, 2-D
windows of any dtype, wrapping offsets in 1-D and 2-D) and one whose mask does not
(a triangle)."""
import torch
import triton
import triton.language as tl


@triton.jit
def window_copy(x_ptr, y_ptr, n, lo, hi, other, BLOCK: tl.constexpr):
    # Elements in [lo, hi) are read, the rest of the tile holds `other`; the
    # whole tile up to n is written.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=(offs >= lo) & (offs < hi), other=other)
    tl.store(y_ptr + offs, x * 2.0, mask=offs < n)


@triton.jit
def reversed_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Indices that decrease along the tile: y[i] = x[n - 1 - i].
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = n - 1 - i
    x = tl.load(x_ptr + r, mask=(r >= 0) & (i < n), other=7.0)
    tl.store(y_ptr + i, x, mask=i < n)


@triton.jit
def strided_gather(x_ptr, y_ptr, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    # Every STEP-th element of x: the compare's index moves by STEP.
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    src = i * STEP
    x = tl.load(x_ptr + src, mask=src < n, other=-3.0)
    tl.store(y_ptr + i, x, mask=src < n)


@triton.jit
def window_2d(x_ptr, y_ptr, z_ptr, M, N, r0, c0, stride_xm, stride_xn, stride_ym, stride_yn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A 2-D tile masked on both axes from both sides; x and y may be
    # transposed. y gets the window only, z (row-major) the whole tile.
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inside = (rm[:, None] >= r0) & (rm[:, None] < M) & (rn[None, :] > c0) & (rn[None, :] <= N - 1)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=inside, other=0.5)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, x - 1.0, mask=inside)
    out = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(z_ptr + rm[:, None] * N + rn[None, :], x + 1.0, mask=out)


@triton.jit
def wrapping_offsets(x_ptr, y_ptr, base, BLOCK: tl.constexpr):
    # base + i wraps past the largest i32 inside the tile: only the elements
    # before the wrap satisfy `offs >= base` (the run-time check sends this
    # tile down the element path).
    offs = base + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + (offs - base), mask=offs >= base, other=-1.0)
    tl.store(y_ptr + tl.arange(0, BLOCK), x)


@triton.jit
def wrapping_2d(x_ptr, y_ptr, z_ptr, base, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A 2-D tile whose row index wraps past the largest i32: only the rows
    # before the wrap are read (the rest hold `other`) and, through a masked
    # store, written to z; y gets the whole tile.
    rows = base + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    keep = (rows[:, None] >= base) & (cols[None, :] < n)
    offs = (rows - base)[:, None] * BLOCK_N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=keep, other=-1.0)
    tl.store(y_ptr + offs, x)
    tl.store(z_ptr + offs, x + 1.0, mask=keep)


@triton.jit
def window_2d_copy(x_ptr, y_ptr, M, N, r0, c0, other, stride_xm, stride_xn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A 2-D window of x (any dtype, maybe transposed) with `other` outside,
    # the whole tile copied to y (row-major).
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inside = (rm[:, None] >= r0) & (rm[:, None] < M) & (rn[None, :] >= c0) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=inside,
                other=other)
    out = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], x, mask=out)


@triton.jit
def lower_triangle(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # A mask that depends on both axes at once: not a rectangle.
    r = tl.arange(0, BLOCK)
    keep = (r[None, :] <= r[:, None]) & (r[:, None] < n) & (r[None, :] < n)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :], mask=keep, other=0.0)
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], x)


def window_copy_default(x, lo, hi, other):
    # 2 * x inside [lo, hi), 2 * other outside.
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y
    window_copy[(triton.cdiv(n, 64), )](x, y, n, lo, hi, other, BLOCK=64)
    return y
