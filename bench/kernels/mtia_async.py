# tl.extra.mtia language extensions (docs/compiler/mtia-extensions.md): the
# kernels of tests/compiler/chip_mtia_ext_test.cpp, mtia_ext_test.cpp and of
# bench_kernels' async_copy line. row_sumsq_async double-buffers with
# async_copy (tile i+1 is on its way while tile i is computed);
# row_sumsq_plain is its twin with tl.load.
import triton
import triton.language as tl


@triton.jit
def row_sumsq_plain(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * n_cols
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(base + cols, mask=cols < n_cols, other=0.0)
        acc += tl.exp(x) * x
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def row_sumsq_async(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * n_cols
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    tok = tl.extra.mtia.async_copy(base + offs, mask=offs < n_cols, other=0.0)
    for start in range(0, n_cols, BLOCK):
        x = tl.extra.mtia.wait(tok)
        cols = start + BLOCK + offs
        tok = tl.extra.mtia.async_copy(base + cols, mask=cols < n_cols, other=0.0)
        acc += tl.exp(x) * x
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def mtia_ops(x_ptr, a_ptr, b_ptr, sfu_out, dot_out, hist_ptr, n, BLOCK: tl.constexpr,
             T: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # a 1-D masked copy, and a 2-D tile pair for the DPE
    tx = tl.extra.mtia.async_copy(x_ptr + offs, mask=mask, other=1.0)
    r = tl.arange(0, T)
    tile = r[:, None] * T + r[None, :]
    ta = tl.extra.mtia.async_copy(a_ptr + pid * T * T + tile)
    tb = tl.extra.mtia.async_copy(b_ptr + tile)
    x = tl.extra.mtia.wait(tx)
    e = tl.extra.mtia.sfu("exp", x) - tl.extra.mtia.sfu("tanh", x)
    y = e * tl.extra.mtia.sfu("rsqrt", tl.abs(x) + 1.0)
    tl.store(sfu_out + offs, y, mask=mask)
    acc = tl.full([T, T], 1.0, tl.float32)
    c = tl.extra.mtia.dot(tl.extra.mtia.wait(ta), tl.extra.mtia.wait(tb), acc)
    tl.store(dot_out + pid * T * T + tile, c)
    # every program counts its active elements into bins by x's sign
    bins = (x > 0).to(tl.int32)
    tl.extra.mtia.atomic_add(hist_ptr + bins, mask.to(tl.int32), mask=mask, sem="relaxed")
    tl.extra.mtia.barrier()
