"""aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor

ISA-extension variant of the inductor provider's softmax template
(generator/inductor/templates/norm/softmax.py rendered for aten::_log_softmax,
LOG=True), used when an extension defining intrinsic `expscale`
(isa/ext/vfexpscale.ext) is registered: the sum pass takes exp(x - max) as
tl.extra.mtia.expscale(x - max, 1.0) (vfexpscale.vf); the rest is the template.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, out_ptr, n_cols, LOG: tl.constexpr, ROUND16: tl.constexpr, BLOCK: tl.constexpr):
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
        s += tl.where(mask, tl.extra.mtia.expscale(v - row_max, 1.0), 0.0)
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
            r = tl.extra.mtia.expscale(v - row_max, 1.0 / total)
        tl.store(out_ptr + base + cols, r, mask=mask)


def _softmax_rows(self, dim, half_to_float, log):
    if half_to_float:
        out_dtype = torch.float32
    elif self.is_floating_point():
        out_dtype = self.dtype
    else:
        out_dtype = torch.float32
    ndim = self.dim()
    rank = ndim if ndim > 0 else 1
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(dim) + ")")
    dim = dim % rank
    if self.numel() == 0:
        return torch.empty(self.shape, dtype=out_dtype, device=self.device)
    x = self
    if ndim == 0:
        x = self.reshape([1])
    perm = [d for d in range(x.dim()) if d != dim] + [dim]
    inverse = [0] * x.dim()
    for i, d in enumerate(perm):
        inverse[d] = i
    xp = x.permute(perm).contiguous()
    n_cols = x.shape[dim]
    n_rows = x.numel() // n_cols
    y = torch.empty(xp.shape, dtype=torch.float32, device=self.device)
    BLOCK = triton.next_power_of_2(n_cols)
    if BLOCK > 1024:
        BLOCK = 1024
    softmax_rows_kernel[(n_rows, )](xp, y, n_cols, LOG=log, ROUND16=self.dtype == torch.bfloat16 or self.dtype == torch.float16, BLOCK=BLOCK)
    out = y.permute(inverse).to(out_dtype)
    if ndim == 0:
        return out.reshape([])
    return out


def _log_softmax(self, dim, half_to_float):
    return _softmax_rows(self, dim, half_to_float, True)
