"""{{SCHEMA}}

Lowered by opforge's inductor provider (norm family, loss template): element-wise
losses and activations of the deep-learning ops (mse, huber, smooth_l1,
soft_margin, binary cross entropy with and without logits, glu, prelu) and the
negative log likelihood gather, computed in float32 and rounded to the input
dtype per element, then summed in float32 by one program for reduction='sum'
or 'mean' (0 none, 1 mean, 2 sum). The negative log likelihood's backward
writes -w[t] * grad (divided by total_weight for 'mean') at each target's
position of a zeroed gradient, as ATen does.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def loss_kernel(x_ptr, t_ptr, w_ptr, pw_ptr, out_ptr, n, param, KIND: tl.constexpr, HAS_W: tl.constexpr,
                HAS_PW: tl.constexpr, BLOCK: tl.constexpr):
    # KIND: 0 mse, 1 huber, 2 smooth_l1, 3 soft_margin, 4 bce, 5 bce with logits, 6 glu, 7 prelu
    offs = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0).to(tl.float32)
    if KIND == 0:
        d = x - t
        r = d * d
    elif KIND == 1:
        d = tl.abs(x - t)
        r = tl.where(d < param, 0.5 * d * d, param * (d - 0.5 * param))
    elif KIND == 2:
        d = tl.abs(x - t)
        if param == 0.0:
            r = d
        else:
            r = tl.where(d < param, 0.5 * d * d / param, d - 0.5 * param)
    elif KIND == 3:
        r = tl.log(1.0 + tl.exp(-t * x))
    elif KIND == 4:
        log_x = tl.maximum(tl.log(x), -100.0)
        log_1mx = tl.maximum(tl.log(1.0 - x), -100.0)
        r = -(t * log_x + (1.0 - t) * log_1mx)
    elif KIND == 5:
        max_val = tl.maximum(-x, 0.0)
        if HAS_PW:
            pw = tl.load(pw_ptr + offs, mask=mask, other=0).to(tl.float32)
            log_weight = (pw - 1.0) * t + 1.0
            r = (1.0 - t) * x + log_weight * (tl.log(tl.exp(-max_val) + tl.exp(-x - max_val)) + max_val)
        else:
            r = (1.0 - t) * x + max_val + tl.log(tl.exp(-max_val) + tl.exp(-x - max_val))
    elif KIND == 6:
        r = x * (1.0 / (1.0 + tl.exp(-t)))
    else:
        r = tl.where(x > 0, x, t * x)
    if HAS_W:
        r = r * tl.load(w_ptr + offs, mask=mask, other=0).to(tl.float32)
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def nll_kernel(x_ptr, t_ptr, w_ptr, out_ptr, wsum_ptr, n, n_classes, spatial, ignore_index, HAS_W: tl.constexpr,
               BLOCK: tl.constexpr):
    # element i = (sample, position): loss = -w[t] * x[sample, t, position]; ignored targets weigh 0
    offs = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t = tl.load(t_ptr + offs, mask=mask, other=0).to(tl.int64)
    keep = mask & (t != ignore_index)
    sample = offs // spatial
    pos = offs % spatial
    x = tl.load(x_ptr + sample * n_classes * spatial + t * spatial + pos, mask=keep, other=0).to(tl.float32)
    w = tl.where(keep, 1.0, 0.0)
    if HAS_W:
        w = tl.load(w_ptr + t, mask=keep, other=0).to(tl.float32)
    tl.store(out_ptr + offs, -w * x, mask=mask)
    tl.store(wsum_ptr + offs, w, mask=mask)


@triton.jit
def nll_backward_kernel(g_ptr, t_ptr, w_ptr, tw_ptr, out_ptr, n, n_classes, spatial, ignore_index,
                        HAS_W: tl.constexpr, PER_ELEMENT: tl.constexpr, MEAN: tl.constexpr, BLOCK: tl.constexpr):
    # element i = (sample, position): grad_input[sample, t, position] = -w[t] * g (g / total_weight for mean)
    offs = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t = tl.load(t_ptr + offs, mask=mask, other=0).to(tl.int64)
    keep = mask & (t != ignore_index)
    sample = offs // spatial
    pos = offs % spatial
    if PER_ELEMENT:
        g = tl.load(g_ptr + offs, mask=mask, other=0).to(tl.float32)
    else:
        g = tl.load(g_ptr + offs * 0, mask=mask, other=0).to(tl.float32)
    if MEAN:
        g = g / tl.load(tw_ptr + offs * 0, mask=mask, other=1).to(tl.float32)
    w = tl.where(keep, 1.0, 0.0)
    if HAS_W:
        w = tl.load(w_ptr + t, mask=keep, other=0).to(tl.float32)
    tl.store(out_ptr + sample * n_classes * spatial + t * spatial + pos, w * (0.0 - g), mask=keep)


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, divisor, BLOCK: tl.constexpr):
    # one program: float32 sum of n values, divided by divisor
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        idx = start + offs
        acc += tl.load(x_ptr + idx, mask=idx < n, other=0).to(tl.float32)
    tl.store(out_ptr, tl.sum(acc, axis=0) / divisor)


def _total(x, divisor, dtype):
    out = torch.empty([], dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(1, )](x.contiguous().reshape([-1]), out, n, float(divisor), BLOCK=256)
    return out.to(dtype)


def _dense(v, shape, dtype):
    return v.to(dtype).expand(shape).contiguous()


def _elementwise(kind, x, t, param=0.0, weight=None, pos_weight=None):
    dtype = torch.promote_types(x.dtype, t.dtype)
    shape = torch.broadcast_shapes(x.shape, t.shape)
    xs = _dense(x, shape, dtype)
    ts = _dense(t, shape, dtype)
    ws = xs if weight is None else _dense(weight, shape, dtype)
    ps = xs if pos_weight is None else _dense(pos_weight, shape, dtype)
    out = torch.empty(shape, dtype=torch.float32, device=x.device)
    n = out.numel()
    if n > 0:
        loss_kernel[(triton.cdiv(n, 256), )](xs, ts, ws, ps, out, n, float(param), KIND=kind,
                                             HAS_W=weight is not None, HAS_PW=pos_weight is not None, BLOCK=256)
    return out.to(dtype)


def _loss(kind, x, t, reduction, param=0.0, weight=None, pos_weight=None):
    r = _elementwise(kind, x, t, param, weight, pos_weight)
    if reduction == 0:
        return r
    n = r.numel()
    if reduction == 1:
        return _total(r, n if n > 0 else 0.0, r.dtype)
    return _total(r, 1.0, r.dtype)


def _glu(self, dim):
    nd = self.dim()
    d = dim % (nd if nd > 0 else 1)
    h = self.shape[d] // 2
    return _elementwise(6, self.narrow(d, 0, h), self.narrow(d, h, h))


def _prelu(self, weight):
    w = weight
    if weight.numel() > 1 and self.dim() > 1:
        shape = [1] * self.dim()
        shape[1] = weight.numel()
        w = weight.reshape(shape)
    elif weight.numel() == 1:
        w = weight.reshape([])
    return _elementwise(7, self, w)


def _nll(self, target, weight, reduction, ignore_index):
    dtype = self.dtype
    if self.dim() == 1:
        x = self.reshape([1, self.shape[0]]).contiguous()
        n_classes = self.shape[0]
        spatial = 1
    else:
        x = self.contiguous()
        n_classes = self.shape[1]
        spatial = 1
        for d in range(2, self.dim()):
            spatial *= self.shape[d]
    t = target.contiguous().reshape([-1])
    n = t.numel()
    losses = torch.empty([n], dtype=torch.float32, device=self.device)
    weights = torch.empty([n], dtype=torch.float32, device=self.device)
    if n > 0:
        w = x if weight is None else weight.contiguous()
        nll_kernel[(triton.cdiv(n, 256), )](x, t, w, losses, weights, n, n_classes, spatial, ignore_index,
                                            HAS_W=weight is not None, BLOCK=256)
    total_weight = _total(weights, 1.0, torch.float32)
    if reduction == 0 and self.dim() == 1:
        # a single sample: ATen reports its weight even without reduction
        return losses.to(dtype).reshape(target.shape), total_weight.to(dtype)
    if reduction == 0:
        return losses.to(dtype).reshape(target.shape), torch.zeros([], dtype=dtype, device=self.device)
    if reduction == 2:
        return _total(losses, 1.0, dtype), total_weight.to(dtype)
    mean = _ratio(_total(losses, 1.0, torch.float32), total_weight)
    return mean.to(dtype), total_weight.to(dtype)


def _nll_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    out = torch.zeros(self.shape, dtype=self.dtype, device=self.device)
    if self.dim() == 1:
        n_classes = self.shape[0]
    else:
        n_classes = self.shape[1]
    spatial = 1
    for d in range(2, self.dim()):
        spatial *= self.shape[d]
    t = target.contiguous().reshape([-1])
    n = t.numel()
    if n == 0:
        return out
    w = out if weight is None else weight.contiguous()
    per_element = reduction == 0 and self.dim() > 1
    g = grad_output.contiguous().reshape([-1])
    nll_backward_kernel[(triton.cdiv(n, 256), )](g, t, w, total_weight.reshape([-1]), out, n, n_classes, spatial,
                                                 ignore_index, HAS_W=weight is not None, PER_ELEMENT=per_element,
                                                 MEAN=reduction == 1, BLOCK=256)
    return out


@triton.jit
def ratio_kernel(a_ptr, b_ptr, out_ptr):
    tl.store(out_ptr, tl.load(a_ptr) / tl.load(b_ptr))


def _ratio(a, b):
    out = torch.empty([], dtype=torch.float32, device=a.device)
    ratio_kernel[(1, )](a, b, out)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
