"""Masks that combine a block mask with a scalar bool (`cols < n` and a flag
computed from a loaded value or the program id), for tl.load, tl.store and
tl.where; each program one row, the flag false for some programs."""
import torch
import triton
import triton.language as tl


@triton.jit
def scalar_and_masks(IDX, X, Y, S, n, BLOCK: tl.constexpr):
    # Y: 8 blocks per row, S: 4 sums per row.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    vm = cols < n
    hit = tl.load(IDX + row) == row  # scalar, from a loaded value
    even = row % 2 == 0  # scalar, from the program id
    base = X + row * BLOCK + cols
    out = Y + row * 8 * BLOCK + cols
    a = tl.load(base, mask=vm & hit, other=-1.)
    tl.store(out, a)
    b = tl.load(base, mask=hit & vm, other=-2.)
    tl.store(out + BLOCK, b)
    c = tl.load(base, mask=vm | even, other=-3.)
    tl.store(out + 2 * BLOCK, c)
    d = tl.load(base, mask=vm & ~hit, other=-4.)
    tl.store(out + 3 * BLOCK, d)
    # Stores under the combined masks (the rest keeps its 7.)
    x = tl.load(base, mask=vm, other=0.)
    tl.store(out + 4 * BLOCK, x + 1., mask=vm & hit)
    tl.store(out + 5 * BLOCK, x + 2., mask=even & vm)
    tl.store(out + 6 * BLOCK, x + 3., mask=vm & ~even)
    tl.store(out + 7 * BLOCK, tl.where(vm & hit, x, 5.) + tl.where(~even | vm, x, 6.))
    # Reductions of loads and wheres under the combined masks.
    tl.store(S + row * 4, tl.sum(tl.load(base, mask=vm & hit, other=0.), axis=0))
    tl.store(S + row * 4 + 1, tl.sum(tl.load(base, mask=even & vm, other=0.), axis=0))
    tl.store(S + row * 4 + 2, tl.sum(tl.where(vm & hit, x, 0.), axis=0))
    tl.store(S + row * 4 + 3, tl.sum(tl.where(vm & ~even, x, 0.), axis=0))


@triton.jit
def gather_rows(IDX, G, OUT, n_idx, dim, BLOCK_D: tl.constexpr):
    # The dense embedding gradient: row r sums the rows j of G with IDX[j] == r,
    # selected by the load mask (no tl.where).
    row = tl.program_id(0)
    d = tl.arange(0, BLOCK_D)
    dmask = d < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for j in range(0, n_idx):
        hit = tl.load(IDX + j) == row
        acc += tl.load(G + j * dim + d, mask=dmask & hit, other=0.)
    tl.store(OUT + row * dim + d, acc, mask=dmask)
    tl.store(OUT + row * dim + d, acc * 0. - 1., mask=dmask & (row == 0))


@triton.jit
def tile_scalar_masks(IDX, X, Y, S, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A 2-D tile mask ANDed with a scalar flag, for a load, a store, a
    # tl.where and a reduction; Y: 3 tiles per program, S: one row sum block.
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    tile = (rows[:, None] < M) & (cols[None, :] < N)
    hit = tl.load(IDX + pid) == pid
    offs = rows[:, None] * BLOCK_N + cols[None, :]
    base = X + pid * BLOCK_M * BLOCK_N + offs
    out = Y + pid * 3 * BLOCK_M * BLOCK_N + offs
    x = tl.load(base, mask=tile & hit, other=-1.)
    tl.store(out, x)
    tl.store(out + BLOCK_M * BLOCK_N, x + 1., mask=hit & tile)
    tl.store(out + 2 * BLOCK_M * BLOCK_N, tl.where(tile & ~hit, x, 4.))
    tl.store(S + pid * BLOCK_M + rows, tl.sum(tl.load(base, mask=tile & hit, other=0.), axis=1))


@triton.jit
def wrapped_rows(IDX, X, Y, M, n, BLOCK: tl.constexpr):
    # Offsets through `% M` (the tail block wraps to the first elements: the
    # wrap split's two DMA pieces) under a range mask ANDed with a flag.
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    offs = (pid * BLOCK + cols) % M
    hit = tl.load(IDX + pid) == pid
    x = tl.load(X + offs, mask=(cols < n) & hit, other=-1.)
    tl.store(Y + pid * BLOCK + cols, x)


def gather_rows_default(idx, g, num_rows):
    # idx: (n_idx,) int32, g: (n_idx, dim) fp32 with dim <= 64; row r of the
    # result sums the rows j of g with idx[j] == r (row 0 is set to -1).
    g = g.contiguous()
    n_idx, dim = g.shape
    out = torch.zeros((num_rows, dim), dtype=torch.float32, device=g.device)
    gather_rows[(num_rows, )](idx.contiguous(), g, out, n_idx, dim, BLOCK_D=64)
    return out
