"""{{SCHEMA}}

Lowered by opforge's inductor provider (loss family, margin template): the
multi-class and multi-label margin losses as ATen's CPU kernels compute them.
One lane per sample walks its classes in order and sums max(0, margin -
x[target] + x[d]) (squared for p = 2, scaled by the target's weight) over the
classes d that are not targets, divided by the number of classes; a second
one-lane kernel adds the samples in order for the sum and mean reductions.
multilabel_margin_loss_forward also returns the is_target mask (targets are
read up to the first negative one).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def multi_margin_kernel(x_ptr, t_ptr, w_ptr, out_ptr, nframe, dim, margin, P: tl.constexpr, HAS_W: tl.constexpr,
                        BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < nframe
    tgt = tl.load(t_ptr + i, mask=mask, other=0)
    xt = tl.load(x_ptr + i * dim + tgt, mask=mask, other=0).to(tl.float32)
    wt = tl.full([BLOCK], 1.0, tl.float32)
    if HAS_W:
        wt = tl.load(w_ptr + tgt, mask=mask, other=0).to(tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for d in range(0, dim):
        z = margin - xt + tl.load(x_ptr + i * dim + d, mask=mask, other=0).to(tl.float32)
        h = z
        if P == 2:
            h = z * z
        if HAS_W:
            h = h * wt
        s = s + tl.where((d != tgt) & (z > 0.0), h, 0.0)
    tl.store(out_ptr + i, s / dim.to(tl.float32), mask=mask)


@triton.jit
def multilabel_margin_kernel(x_ptr, t_ptr, out_ptr, tgt_ptr, nframe, dim, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < nframe
    # is_target: the targets up to the first negative one
    live = mask
    for d in range(0, dim):
        tl.store(tgt_ptr + i * dim + d, tl.zeros([BLOCK], dtype=tl.float32).to(tgt_ptr.dtype.element_ty), mask=mask)
    for j in range(0, dim):
        t = tl.load(t_ptr + i * dim + j, mask=mask, other=-1)
        live = live & (t >= 0)
        tl.store(tgt_ptr + i * dim + t, tl.full([BLOCK], 1.0, tl.float32).to(tgt_ptr.dtype.element_ty), mask=live)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    live = mask
    for j in range(0, dim):
        t = tl.load(t_ptr + i * dim + j, mask=mask, other=-1)
        live = live & (t >= 0)
        xt = tl.load(x_ptr + i * dim + t, mask=live, other=0).to(tl.float32)
        for d in range(0, dim):
            is_t = tl.load(tgt_ptr + i * dim + d, mask=mask, other=0).to(tl.float32)
            z = 1.0 - xt + tl.load(x_ptr + i * dim + d, mask=mask, other=0).to(tl.float32)
            s = s + tl.where(live & (is_t == 0.0) & (z > 0.0), z, 0.0)
    tl.store(out_ptr + i, s / dim.to(tl.float32), mask=mask)


@triton.jit
def sum_in_order_kernel(x_ptr, out_ptr, n, divisor):
    lane = tl.arange(0, 2)
    first = lane < 1
    acc = tl.zeros([2], dtype=tl.float32)
    for k in range(0, n):
        acc = acc + tl.load(x_ptr + k + lane * 0, mask=first, other=0).to(tl.float32)
    tl.store(out_ptr + lane * 0, (acc / divisor).to(out_ptr.dtype.element_ty), mask=first)


def _reduce(per, reduction, dtype, shape, nframe):
    # reduction: 0 none, 1 mean, 2 sum
    if reduction == 0:
        return per.to(dtype).reshape(shape)
    out = torch.empty([], dtype=dtype, device=per.device)
    sum_in_order_kernel[(1, )](per, out, nframe, float(nframe) if reduction == 1 else 1.0)
    return out


def _multi_margin(self, target, p, margin, weight, reduction):
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    dim = 1 if self.dim() == 0 else self.shape[self.dim() - 1]
    nframe = 1 if self.dim() <= 1 else self.shape[0]
    x = self.reshape([nframe, dim]).contiguous()
    t = target.reshape([nframe]).contiguous()
    per = torch.empty([nframe], dtype=torch.float32, device=self.device)
    w = x if weight is None else weight.contiguous()
    BLOCK = 64
    multi_margin_kernel[(triton.cdiv(nframe, BLOCK), )](x, t, w, per, nframe, dim, float(margin), P=int(p),
                                                        HAS_W=weight is not None, BLOCK=BLOCK)
    shape = [] if self.dim() <= 1 else [nframe]
    return _reduce(per, reduction, self.dtype, shape, nframe)


def _multilabel_margin(self, target, reduction):
    dim = 1 if self.dim() == 0 else self.shape[self.dim() - 1]
    nframe = 1 if self.dim() <= 1 else self.shape[0]
    x = self.reshape([nframe, dim]).contiguous()
    t = target.reshape([nframe, dim]).contiguous()
    per = torch.empty([nframe], dtype=torch.float32, device=self.device)
    is_target = torch.empty([nframe, dim], dtype=self.dtype, device=self.device)
    BLOCK = 64
    multilabel_margin_kernel[(triton.cdiv(nframe, BLOCK), )](x, t, per, is_target, nframe, dim, BLOCK=BLOCK)
    shape = [] if self.dim() <= 1 else [nframe]
    return _reduce(per, reduction, self.dtype, shape, nframe), is_target.reshape(self.shape)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
