# opforge generated kernel: aten::native_layer_norm
# category: normalization/DL
# provider: inductor, model: inductor-templates, attempt: 0, date: 2026-11-29
# verified on mtia-2i (opforge validate --executor chip): every float32 recorded call (26/26);
# 10 of its 26 bfloat16 calls differ from ATen 1.13 rounding, so it is not in the main
# library. The traces call it in float32 only.
"""aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)

Lowered by opforge's inductor provider (norm family, normalize template): layer,
group and batch normalization as one row kernel. The input is viewed as a
contiguous (rows, cols) matrix whose rows are the normalized groups; each
program computes its row's mean and biased variance in float32 (two passes) or
takes them from running statistics, then writes (x - mean) * rstd * w + b with
the affine index w_index = (row % w_rows) * w_row_mult + col // w_col_div.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def normalize_rows_kernel(x_ptr, w_ptr, b_ptr, stat_mean_ptr, stat_var_ptr, out_ptr, mean_ptr, rstd_ptr,
                          n_cols, eps, w_rows, w_row_mult, w_col_div, HAS_W: tl.constexpr, HAS_B: tl.constexpr,
                          USE_STATS: tl.constexpr, FOLD: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = row.to(tl.int64) * n_cols
    if USE_STATS:
        mean = tl.load(stat_mean_ptr + row).to(tl.float32)
        var = tl.load(stat_var_ptr + row).to(tl.float32)
    else:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            acc += tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0).to(tl.float32)
        mean = tl.sum(acc, axis=0) / n_cols
        acc2 = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            mask = cols < n_cols
            d = tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32) - mean
            acc2 += tl.where(mask, d * d, 0.0)
        var = tl.sum(acc2, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w_base = (row % w_rows) * w_row_mult
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        v = tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        widx = w_base + cols // w_col_div
        w = 1.0
        b = 0.0
        if HAS_W:
            w = tl.load(w_ptr + widx, mask=mask, other=0).to(tl.float32)
        if HAS_B:
            b = tl.load(b_ptr + widx, mask=mask, other=0).to(tl.float32)
        if FOLD:
            # batch and group norm: y = x * a + c with a = rstd * w, c = b - mean * a (ATen's order)
            a = rstd * w
            y = tl.fma(v, tl.zeros_like(v) + a, tl.zeros_like(v) + (b - mean * a))
        else:
            # layer norm: (x * rstd - rstd * mean) * w + b
            y = tl.fma(v, tl.zeros_like(v) + rstd, tl.zeros_like(v) - rstd * mean) * w + b
        tl.store(out_ptr + base + cols, y, mask=mask)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def running_update_kernel(run_ptr, stat_ptr, n, momentum, scale, BLOCK: tl.constexpr):
    # run = (1 - momentum) * run + momentum * stat * scale, in place
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = tl.load(run_ptr + offs, mask=mask, other=0).to(tl.float32)
    s = tl.load(stat_ptr + offs, mask=mask, other=0).to(tl.float32)
    tl.store(run_ptr + offs, (1.0 - momentum) * r + momentum * s * scale, mask=mask)


def _block(n):
    b = triton.next_power_of_2(n)
    return 1024 if b > 1024 else b


def _normalize(x, n_rows, n_cols, weight, bias, eps, w_rows, w_row_mult, w_col_div, fold, stat_mean=None, stat_var=None):
    # x: contiguous (n_rows, n_cols); returns float32 (out, mean, rstd) of shapes [n_rows*n_cols], [n_rows], [n_rows]
    out = torch.empty([n_rows * n_cols], dtype=torch.float32, device=x.device)
    mean = torch.empty([n_rows], dtype=torch.float32, device=x.device)
    rstd = torch.empty([n_rows], dtype=torch.float32, device=x.device)
    if n_rows == 0 or n_cols == 0:
        return out, mean, rstd
    w = x if weight is None else weight.contiguous()
    b = x if bias is None else bias.contiguous()
    use_stats = stat_mean is not None
    sm = x if stat_mean is None else stat_mean.contiguous()
    sv = x if stat_var is None else stat_var.contiguous()
    normalize_rows_kernel[(n_rows, )](x, w, b, sm, sv, out, mean, rstd, n_cols, float(eps), w_rows, w_row_mult,
                                      w_col_div, HAS_W=weight is not None, HAS_B=bias is not None,
                                      USE_STATS=use_stats, FOLD=fold, BLOCK=_block(n_cols))
    return out, mean, rstd


def _layer_norm(input, normalized_shape, weight, bias, eps):
    axis = input.dim() - len(normalized_shape)
    n_cols = 1
    for s in normalized_shape:
        n_cols *= s
    n_rows = 1
    for d in range(axis):
        n_rows *= input.shape[d]
    stat_shape = [input.shape[d] for d in range(axis)] + [1] * len(normalized_shape)
    x = input.contiguous()
    out, mean, rstd = _normalize(x, n_rows, n_cols, weight, bias, eps, 1, 0, 1, False)
    dt = input.dtype
    return out.reshape(input.shape).to(dt), mean.reshape(stat_shape).to(dt), rstd.reshape(stat_shape).to(dt)


def _group_norm(input, weight, bias, N, C, HxW, group, eps):
    n_rows = N * group
    n_cols = (C // group) * HxW
    x = input.contiguous()
    out, mean, rstd = _normalize(x, n_rows, n_cols, weight, bias, eps, group, C // group, HxW if HxW > 0 else 1, True)
    dt = input.dtype
    return out.reshape(input.shape).to(dt), mean.reshape([N, group]).to(dt), rstd.reshape([N, group]).to(dt)


def _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    n = input.shape[0]
    c = input.shape[1]
    inner = input.numel() // (n * c) if n * c > 0 else 0
    # channels first: (C, N * inner) rows
    x = input.reshape([n, c, inner]).permute([1, 0, 2]).contiguous()
    dt = input.dtype
    if training:
        out, mean, rstd = _normalize(x, c, n * inner, weight, bias, eps, c, 1, n * inner if n * inner > 0 else 1, True)
    else:
        out, mean, rstd = _normalize(x, c, n * inner, weight, bias, eps, c, 1, n * inner if n * inner > 0 else 1, True,
                                     running_mean, running_var)
    y = out.reshape([c, n, inner]).permute([1, 0, 2]).reshape(input.shape).to(dt)
    if not training:
        return y, torch.empty([0], dtype=dt, device=input.device), torch.empty([0], dtype=dt, device=input.device)
    count = n * inner
    if running_mean is not None and count > 0:
        running_update_kernel[(triton.cdiv(c, 256), )](running_mean, mean, c, float(momentum), 1.0, BLOCK=256)
    if running_var is not None and count > 1:
        var = torch.empty([c], dtype=torch.float32, device=input.device)
        _variance_from_rstd(rstd, var, c, eps)
        running_update_kernel[(triton.cdiv(c, 256), )](running_var, var, c, float(momentum), count / (count - 1.0),
                                                       BLOCK=256)
    return y, mean.to(dt), rstd.to(dt)


@triton.jit
def var_from_rstd_kernel(rstd_ptr, var_ptr, n, eps, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = tl.load(rstd_ptr + offs, mask=mask, other=1)
    tl.store(var_ptr + offs, 1.0 / (r * r) - eps, mask=mask)


def _variance_from_rstd(rstd, var, c, eps):
    var_from_rstd_kernel[(triton.cdiv(c, 256), )](rstd, var, c, float(eps), BLOCK=256)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    return _layer_norm(input, normalized_shape, weight, bias, eps)
