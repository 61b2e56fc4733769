"""Tutorial 05 (layer normalization, forward and backward) as an opforge test kernel file.

Mirrors triton-lang/triton python/tutorials/05-layer-norm.py at commit
545699290b851e70231ee3017481851170f1583d: `_layer_norm_fwd_fused` (one program per row, mean
and variance loops over BLOCK_SIZE columns, Mean/Rstd stores), `_layer_norm_bwd_dx_fused`
(dx per row and partial dw/db sums into GROUP_SIZE_M buffers guarded by a spin lock:
`while tl.atomic_cas(Lock, 0, 1) == 1: pass`, a first-writer Count flag set with
`tl.atomic_xchg`, `tl.debug_barrier()`, release by `tl.atomic_xchg(Lock, 0)`) and
`_layer_norm_bwd_dwdb` (2-D block reduction of the partial sums). The tutorial's
torch.autograd.Function becomes ATen-style wrappers for native_layer_norm and
native_layer_norm_backward (2-D input, normalized over the last dimension). Our own code.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_fused(
    X,  # input
    Y,  # output
    W,  # weights
    B,  # biases
    Mean,  # per-row mean
    Rstd,  # per-row 1/std
    stride,  # elements between rows
    N,  # columns of X
    eps,  # added to the variance
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _layer_norm_bwd_dx_fused(DX,  # input gradient
                             DY,  # output gradient
                             DW,  # partial sums of the weights gradient
                             DB,  # partial sums of the biases gradient
                             X,  # input
                             W,  # weights
                             Mean,  # per-row mean
                             Rstd,  # per-row 1/std
                             Lock,  # GROUP_SIZE_M locks, then GROUP_SIZE_M first-writer counts
                             stride,  # elements between rows
                             N,  # columns of X
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW,  # partial sums of the weights gradient
                         DB,  # partial sums of the biases gradient
                         FINAL_DW,  # weights gradient
                         FINAL_DB,  # biases gradient
                         M,  # rows of partial sums (GROUP_SIZE_M at most)
                         N,  # columns
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def _block_size(x, N):
    # The tutorial's rule: a row of at most 64 KB is one block.
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if N > BLOCK_SIZE:
        raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
    return BLOCK_SIZE


def layer_norm_fwd(x, weight, bias, eps):
    """The tutorial's forward: y, mean, rstd (mean/rstd float32, one per row)."""
    y = torch.empty_like(x)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
    BLOCK_SIZE = _block_size(x, N)
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    _layer_norm_fwd_fused[(M, )](  #
        x_arg, y, weight, bias, mean, rstd,  #
        x_arg.stride(0), N, eps,  #
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)
    return y, mean, rstd


def layer_norm_bwd(dy, x, w, m, v):
    """The tutorial's backward: dx, dw, db from the saved mean m and 1/std v."""
    N = w.shape[0]
    GROUP_SIZE_M = 64
    if N <= 8192: GROUP_SIZE_M = 96
    if N <= 4096: GROUP_SIZE_M = 128
    if N <= 1024: GROUP_SIZE_M = 256
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=w.device)
    _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    dw = torch.empty((N, ), dtype=w.dtype, device=w.device)
    db = torch.empty((N, ), dtype=w.dtype, device=w.device)
    dx = torch.empty_like(dy)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    BLOCK_SIZE = _block_size(x, N)
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    _layer_norm_bwd_dx_fused[(M, )](  #
        dx, dy, _dw, _db, x, w, m, v, locks,  #
        x_arg.stride(0), N,  #
        BLOCK_SIZE_N=BLOCK_SIZE,  #
        GROUP_SIZE_M=GROUP_SIZE_M,  #
        num_warps=num_warps)
    grid = lambda meta: (triton.cdiv(N, meta['BLOCK_SIZE_N']), )
    _layer_norm_bwd_dwdb[grid](
        _dw, _db, dw, db, min(GROUP_SIZE_M, M), N,  #
        BLOCK_SIZE_M=32,  #
        BLOCK_SIZE_N=128, num_ctas=1)
    return dx, dw, db


def native_layer_norm_default(input, normalized_shape, weight, bias, eps):
    assert input.dim() == 2 and len(normalized_shape) == 1, "2-D input, last dimension"
    assert weight is not None and bias is not None, "weight and bias are required"
    x = input.contiguous()
    y, mean, rstd = layer_norm_fwd(x, weight.contiguous(), bias.contiguous(), eps)
    M = x.shape[0]
    # ATen's mean and rstd have the input's dtype (float32 in the kernel, as the tutorial's)
    return y, mean.reshape(M, 1).to(x.dtype), rstd.reshape(M, 1).to(x.dtype)


def native_layer_norm_backward_default(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                                       output_mask):
    assert input.dim() == 2 and len(normalized_shape) == 1, "2-D input, last dimension"
    assert weight is not None and bias is not None, "weight and bias are required"
    x = input.contiguous()
    M = x.shape[0]
    dx, dw, db = layer_norm_bwd(grad_out.contiguous(), x, weight.contiguous(),
                                mean.reshape(M).to(torch.float32),
                                rstd.reshape(M).to(torch.float32))
    return dx, dw, db
