"""{{SCHEMA}}

Lowered by opforge's inductor provider (norm family, softmax template): the
softmax dim is permuted to the end and made contiguous; each program takes one
row in three passes (max, sum of exp(x - max), write), in float32, and rounds
once to the result dtype. SAFE (_safe_softmax) writes 0 for a row that is all
-inf; the backward (_softmax_backward_data) takes a row of grad and output in two
passes: s = sum(grad * output), then output * (grad - s).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, out_ptr, n_cols, LOG: tl.constexpr, ROUND16: tl.constexpr, SAFE: tl.constexpr,
                        BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = row.to(tl.int64) * n_cols
    m = tl.zeros([BLOCK], dtype=tl.float32) - float('inf')
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        v = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=-float('inf')).to(tl.float32)
        m = tl.where((v > m) | (v != v), v, m)
    row_max = tl.max(m, axis=0)
    row_max = tl.where(tl.max((m != m).to(tl.int32), axis=0) != 0, float('nan'), row_max)
    # an all -inf row: exp(x - max) would be NaN; ATen gives NaN there too, so keep the max
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        v = tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        s += tl.where(mask, tl.exp(v - row_max), 0.0)
    total = tl.sum(s, axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        v = tl.load(x_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        if LOG and ROUND16:
            # 16-bit floats: ATen rounds x - max and log(sum) to the input dtype before subtracting
            dt = x_ptr.dtype.element_ty
            r = (v - row_max).to(dt).to(tl.float32) - tl.log(total.to(dt).to(tl.float32)).to(dt).to(tl.float32)
        elif LOG:
            r = (v - row_max) - tl.log(total)
        else:
            r = tl.exp(v - row_max) / total
        if SAFE:
            r = tl.where(row_max == -float('inf'), 0.0, r)
        tl.store(out_ptr + base + cols, r, mask=mask)


@triton.jit
def softmax_backward_rows_kernel(g_ptr, y_ptr, out_ptr, n_cols, LOG: tl.constexpr, BLOCK: tl.constexpr):
    # softmax: y * (g - sum(g * y)); log_softmax (y = log p): g - exp(y) * sum(g)
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    base = row.to(tl.int64) * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        g = tl.load(g_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        y = tl.load(y_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        if LOG:
            acc += g
        else:
            acc += g * y
    total = tl.sum(acc, axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        mask = cols < n_cols
        g = tl.load(g_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        y = tl.load(y_ptr + base + cols, mask=mask, other=0).to(tl.float32)
        if LOG:
            tl.store(out_ptr + base + cols, g - tl.exp(y) * total, mask=mask)
        else:
            tl.store(out_ptr + base + cols, y * (g - total), mask=mask)


def _dim(dim, ndim):
    rank = ndim if ndim > 0 else 1
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(dim) + ")")
    return dim % rank


def _rows(x, dim):
    # x with `dim` permuted last and made contiguous, and the permutation that undoes it
    perm = [d for d in range(x.dim()) if d != dim] + [dim]
    inverse = [0] * x.dim()
    for i, d in enumerate(perm):
        inverse[d] = i
    return x.permute(perm).contiguous(), inverse


def _block(n_cols):
    BLOCK = triton.next_power_of_2(n_cols)
    if BLOCK > 1024:
        BLOCK = 1024
    return BLOCK


def _softmax_backward(grad_output, output, dim, input_dtype, log=False):
    ndim = grad_output.dim()
    dim = _dim(dim, ndim)
    if grad_output.numel() == 0:
        return torch.empty(grad_output.shape, dtype=input_dtype, device=grad_output.device)
    g = grad_output
    y = output
    if ndim == 0:
        g = g.reshape([1])
        y = y.reshape([1])
    gp, inverse = _rows(g, dim)
    yp, inverse = _rows(y.expand(g.shape), dim)
    n_cols = g.shape[dim]
    n_rows = g.numel() // n_cols
    r = torch.empty(gp.shape, dtype=torch.float32, device=g.device)
    softmax_backward_rows_kernel[(n_rows, )](gp, yp, r, n_cols, LOG=log, BLOCK=_block(n_cols))
    out = r.permute(inverse).to(input_dtype)
    if ndim == 0:
        return out.reshape([])
    return out


def _softmax_rows(self, dim, half_to_float, log, safe=False):
    if half_to_float:
        out_dtype = torch.float32
    elif self.is_floating_point():
        out_dtype = self.dtype
    else:
        out_dtype = torch.float32
    ndim = self.dim()
    dim = _dim(dim, ndim)
    if self.numel() == 0:
        return torch.empty(self.shape, dtype=out_dtype, device=self.device)
    x = self
    if ndim == 0:
        x = self.reshape([1])
    xp, inverse = _rows(x, dim)
    n_cols = x.shape[dim]
    n_rows = x.numel() // n_cols
    y = torch.empty(xp.shape, dtype=torch.float32, device=self.device)
    BLOCK = _block(n_cols)
    softmax_rows_kernel[(n_rows, )](xp, y, n_cols, LOG=log, ROUND16=self.dtype == torch.bfloat16 or self.dtype == torch.float16, SAFE=safe, BLOCK=BLOCK)
    out = y.permute(inverse).to(out_dtype)
    if ndim == 0:
        return out.reshape([])
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
