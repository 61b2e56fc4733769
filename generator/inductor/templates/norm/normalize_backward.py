"""{{SCHEMA}}

Lowered by opforge's inductor provider (norm family, normalize_backward template):
the backward of layer and batch normalization. The input and the output gradient
are viewed as contiguous (rows, cols) matrices whose rows are the normalized
groups (layer norm: the leading dims; batch norm: the channels, after moving them
first); each program takes its row's mean and rstd (batch norm in eval mode: the
running statistics), forms x_hat = (x - mean) * rstd and g = dy * w with the affine
index w_index = (row % w_rows) * w_row_mult + col // w_col_div, sums g, g * x_hat,
dy and dy * x_hat over the row in float32 and writes
dx = rstd * (g - mean(g) - x_hat * mean(g * x_hat)) (eval mode: dx = g * rstd),
rounded once. Batch norm's weight and bias gradients are the row sums of
dy * x_hat and dy; layer norm's are column sums (one lane per column, rows in
order). Outputs output_mask leaves out are None, as ATen returns them undefined.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def norm_backward_rows_kernel(dy_ptr, x_ptr, mean_ptr, rstd_ptr, w_ptr, dx_ptr, sum_dy_ptr, sum_dyx_ptr, n_cols,
                              eps, w_rows, w_row_mult, w_col_div, HAS_W: tl.constexpr, RSTD_FROM_VAR: tl.constexpr,
                              TRAIN: tl.constexpr, WRITE_DX: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = row.to(tl.int64) * n_cols
    mean = tl.load(mean_ptr + row).to(tl.float32)
    if RSTD_FROM_VAR:
        rstd = 1.0 / tl.sqrt(tl.load(rstd_ptr + row).to(tl.float32) + eps)
    else:
        rstd = tl.load(rstd_ptr + row).to(tl.float32)
    w_base = (row % w_rows) * w_row_mult
    acc_dy = tl.zeros([BLOCK], dtype=tl.float32)
    acc_dyx = tl.zeros([BLOCK], dtype=tl.float32)
    acc_g = tl.zeros([BLOCK], dtype=tl.float32)
    acc_gx = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        dy = tl.load(dy_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        xh = (tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32) - mean) * rstd
        w = 1.0
        if HAS_W:
            w = tl.load(w_ptr + w_base + cols // w_col_div, mask=mask, other=0).to(tl.float32)
        g = dy * w
        acc_dy += dy
        acc_dyx += tl.where(mask, dy * xh, 0.0)
        acc_g += g
        acc_gx += tl.where(mask, g * xh, 0.0)
    tl.store(sum_dy_ptr + row, tl.sum(acc_dy, axis=0))
    tl.store(sum_dyx_ptr + row, tl.sum(acc_dyx, axis=0))
    if WRITE_DX:
        mean_g = tl.sum(acc_g, axis=0) / n_cols
        mean_gx = tl.sum(acc_gx, axis=0) / n_cols
        for start in range(0, n_cols, BLOCK):
            cols = start + offs
            mask = cols < n_cols
            dy = tl.load(dy_ptr + base + cols, mask=mask, other=0).to(tl.float32)
            w = 1.0
            if HAS_W:
                w = tl.load(w_ptr + w_base + cols // w_col_div, mask=mask, other=0).to(tl.float32)
            g = dy * w
            if TRAIN:
                xh = (tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32) - mean) * rstd
                dx = rstd * (g - mean_g - xh * mean_gx)
            else:
                dx = g * rstd
            tl.store(dx_ptr + base + cols, dx, mask=mask)


@triton.jit
def norm_backward_columns_kernel(dy_ptr, x_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, n_rows, n_cols,
                                 BLOCK: tl.constexpr):
    # layer norm's weight and bias gradients: per column, sums over the rows in order
    cols = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    acc_w = tl.zeros([BLOCK], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, n_rows):
        base = r * n_cols
        mean = tl.load(mean_ptr + r).to(tl.float32)
        rstd = tl.load(rstd_ptr + r).to(tl.float32)
        dy = tl.load(dy_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        x = tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        acc_w += dy * ((x - mean) * rstd)
        acc_b += dy
    tl.store(dw_ptr + cols, acc_w, mask=mask)
    tl.store(db_ptr + cols, acc_b, mask=mask)


def _block(n):
    b = triton.next_power_of_2(n)
    return 1024 if b > 1024 else b


def _rows_backward(dy, x, mean, rstd, weight, n_rows, n_cols, eps, w_rows, w_row_mult, w_col_div, rstd_from_var,
                   train, write_dx):
    # dy, x: contiguous (n_rows, n_cols); returns float32 (dx [n_rows*n_cols], sum_dy [n_rows], sum_dyx [n_rows])
    dx = torch.empty([n_rows * n_cols if write_dx else 0], dtype=torch.float32, device=x.device)
    sum_dy = torch.zeros([n_rows], dtype=torch.float32, device=x.device)
    sum_dyx = torch.zeros([n_rows], dtype=torch.float32, device=x.device)
    if n_rows == 0 or n_cols == 0:
        if write_dx:
            dx = torch.zeros([n_rows * n_cols], dtype=torch.float32, device=x.device)
        return dx, sum_dy, sum_dyx
    w = x if weight is None else weight.contiguous()
    norm_backward_rows_kernel[(n_rows, )](dy, x, mean.contiguous(), rstd.contiguous(), w, dx if write_dx else x,
                                          sum_dy, sum_dyx, n_cols, float(eps), w_rows, w_row_mult, w_col_div,
                                          HAS_W=weight is not None, RSTD_FROM_VAR=rstd_from_var, TRAIN=train,
                                          WRITE_DX=write_dx, BLOCK=_block(n_cols))
    return dx, sum_dy, sum_dyx


def _layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    axis = input.dim() - len(normalized_shape)
    n_cols = 1
    for s in normalized_shape:
        n_cols *= s
    n_rows = 1
    for d in range(axis):
        n_rows *= input.shape[d]
    x = input.contiguous()
    dy = grad_out.contiguous()
    dx = None
    dw = None
    db = None
    if output_mask[0]:
        d, _, _ = _rows_backward(dy, x, mean, rstd, weight, n_rows, n_cols, 0.0, 1, 0, 1, False, True, True)
        dx = d.reshape(input.shape).to(input.dtype)
    if output_mask[1] or output_mask[2]:
        gw = torch.zeros([n_cols], dtype=torch.float32, device=input.device)
        gb = torch.zeros([n_cols], dtype=torch.float32, device=input.device)
        if n_rows > 0 and n_cols > 0:
            BLOCK = 128
            norm_backward_columns_kernel[(triton.cdiv(n_cols, BLOCK), )](dy, x, mean.contiguous(), rstd.contiguous(),
                                                                         gw, gb, n_rows, n_cols, BLOCK=BLOCK)
        if output_mask[1] and weight is not None:
            dw = gw.reshape(weight.shape).to(weight.dtype)
        if output_mask[2] and bias is not None:
            db = gb.reshape(bias.shape).to(bias.dtype)
    return dx, dw, db


def _batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
                         output_mask):
    n = input.shape[0]
    c = input.shape[1]
    inner = input.numel() // (n * c) if n * c > 0 else 0
    # channels first: (C, N * inner) rows
    x = input.reshape([n, c, inner]).permute([1, 0, 2]).contiguous()
    dy = grad_out.reshape([n, c, inner]).permute([1, 0, 2]).contiguous()
    if train:
        mean = save_mean
        stat = save_invstd
    else:
        mean = running_mean
        stat = running_var
    cols = n * inner
    d, sum_dy, sum_dyx = _rows_backward(dy, x, mean, stat, weight, c, cols, eps, c, 1, cols if cols > 0 else 1,
                                        not train, train, output_mask[0])
    dx = None
    dw = None
    db = None
    if output_mask[0]:
        dx = d.reshape([c, n, inner]).permute([1, 0, 2]).reshape(input.shape).to(input.dtype)
    wdt = input.dtype if weight is None else weight.dtype
    if output_mask[1]:
        dw = sum_dyx.to(wdt)
    if output_mask[2]:
        db = sum_dy.to(wdt)
    return dx, dw, db


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
