"""Element loops guarded by range masks (`cols < n`), by a 2-D mask built from two of
them, and by a data-dependent mask (which is no range mask); each program one row."""
import torch
import triton
import triton.language as tl


@triton.jit
def centered_rows(X, Y, S, n, BLOCK: tl.constexpr):
    # tl.where of the row mask feeding a reduction; the output block is
    # stored whole (masked-off columns get -1), then scattered (a non-affine
    # address: the per-element store path) under the mask.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(X + row * n + cols, mask=mask, other=0.)
    c = tl.where(mask, x - 1.5, 0.)
    tl.store(S + row, tl.sum(c * c, axis=0))
    y = tl.where(mask, c * 2.0, -1.0)
    tl.store(Y + row * 2 * BLOCK + cols, y)
    tl.store(Y + row * 2 * BLOCK + BLOCK + (cols * 5) % BLOCK, y + 0.5, mask=mask)


@triton.jit
def tile_where(X, Y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask=mask, other=1.)
    s = tl.sum(tl.where(mask, x * x, 0.), axis=1)
    tl.store(Y + rows, s, mask=rows < M)


@triton.jit
def positive_rows(X, S, n, BLOCK: tl.constexpr):
    # The mask depends on the data: no range mask, one version of the loop.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * BLOCK + cols)
    tl.store(S + row, tl.sum(tl.where(x > 0., x, 0.), axis=0))


@triton.jit
def suffix_rows(X, Y, S, lo, n, BLOCK: tl.constexpr):
    # A mask true on a suffix (cols >= lo) and one over decreasing indices
    # (BLOCK - 1 - cols < n): no leading run of active elements to split at.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * BLOCK + cols)
    a = tl.where(cols >= lo, x, -2.0)
    b = tl.where(BLOCK - 1 - cols < n, x * 3.0, 0.5)
    tl.store(S + 2 * row, tl.sum(a + b, axis=0))
    tl.store(S + 2 * row + 1, tl.sum(a, axis=0))
    tl.store(Y + row * BLOCK + (cols * 3) % BLOCK, a - b, mask=cols <= n)


def centered_rows_default(x, block):
    # x: (rows, n) fp32 with n <= block; the rows' centered sums of squares.
    x = x.contiguous()
    rows, n = x.shape
    y = torch.zeros((rows, 2 * block), dtype=torch.float32, device=x.device)
    s = torch.empty((rows, ), dtype=torch.float32, device=x.device)
    centered_rows[(rows, )](x, y, s, n, BLOCK=block)
    return s
