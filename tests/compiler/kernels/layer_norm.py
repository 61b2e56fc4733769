"""Layer-norm forward (Triton tutorial 05): one program per row, mean/var reductions; a
persistent variant (programs loop over rows) for rows that fit one block."""
import torch
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_fused(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride,  # how much to increase the pointer when moving by 1 row
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Compute mean
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Compute variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # Write mean / rstd
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize and apply linear transformation
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
def _layer_norm_fwd_rows(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride,  # how much to increase the pointer when moving by 1 row
    M,  # number of rows in X
    N,  # number of columns in X (N <= BLOCK_SIZE)
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    # Persistent form for rows that fit one block: each program normalizes
    # rows pid, pid + num_programs, ...; the weights and biases are loaded once.
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    for row in tl.range(tl.program_id(0), M, tl.num_programs(0)):
        x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)
        mean = tl.sum(x, axis=0) / N
        xc = tl.where(mask, x - mean, 0.)
        var = tl.sum(xc * xc, axis=0) / N
        rstd = 1 / tl.sqrt(var + eps)
        tl.store(Mean + row, mean)
        tl.store(Rstd + row, rstd)
        y = (x - mean) * rstd * w + b
        tl.store(Y + row * stride + cols, y, mask=mask)


def native_layer_norm_default(input, normalized_shape, weight, bias, eps):
    assert len(normalized_shape) == 1, "only the last dimension is normalized"
    assert weight is not None and bias is not None, "weight and bias are required"
    x = input.contiguous()
    N = x.shape[-1]
    x_arg = x.reshape(-1, N)
    M = x_arg.shape[0]
    y = torch.empty_like(x)
    mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
    stat_shape = list(x.shape[:-1]) + [1]
    if M == 0:
        return y, mean.reshape(stat_shape), rstd.reshape(stat_shape)
    # Less than 64KB per feature: enqueue fused kernel
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if N <= BLOCK_SIZE:
        # A row fits one block: persistent programs, one per PE at most.
        num_programs = min(M, 64)
        _layer_norm_fwd_rows[(num_programs, )](
            x_arg, y, weight, bias, mean, rstd,
            x_arg.stride(0), M, N, eps,
            BLOCK_SIZE=BLOCK_SIZE)
    else:
        _layer_norm_fwd_fused[(M, )](
            x_arg, y, weight, bias, mean, rstd,
            x_arg.stride(0), N, eps,
            BLOCK_SIZE=BLOCK_SIZE)
    return y, mean.reshape(stat_shape), rstd.reshape(stat_shape)
