"""aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor: exp(x - max) / sum along dim.

ISA-extension variant of generator/library/aten/_softmax.py, used when an
extension defining intrinsic `expscale` (isa/ext/vfexpscale.ext) is
registered: the output is tl.extra.mtia.expscale(x - max, 1 / sum), one
vfexpscale.vf pass instead of a division per element.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    # one program per row of a contiguous (rows, n_cols) matrix; the row fits one block
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    base = row.to(tl.int64) * n_cols
    x = tl.load(x_ptr + base + cols, mask=mask, other=-float('inf')).to(tl.float32)
    x_max = tl.max(x, axis=0)
    num = tl.exp(x - x_max)
    num = tl.where(mask, num, 0.0)
    den = tl.sum(num, axis=0)
    # vfexpscale.vf: exp(x - max) * (1 / den) in one SFU pass, no division per element
    tl.store(out_ptr + base + cols, tl.extra.mtia.expscale(x - x_max, 1.0 / den), mask=mask)


def _softmax(self, dim, half_to_float):
    out_dtype = torch.float32 if half_to_float else self.dtype
    ndim = self.dim()
    rank = max(ndim, 1)
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range")
    dim = dim % rank
    if self.numel() == 0:
        return torch.empty(self.shape, dtype=out_dtype, device=self.device)
    if ndim == 0:
        return torch.ones([], dtype=out_dtype, device=self.device)
    perm = [d for d in range(ndim) if d != dim] + [dim]
    inverse = [0] * ndim
    for i, d in enumerate(perm):
        inverse[d] = i
    x = self.permute(perm).contiguous()
    n_cols = self.shape[dim]
    n_rows = self.numel() // n_cols
    y = torch.empty(x.shape, dtype=out_dtype, device=self.device)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    softmax_rows_kernel[(n_rows, )](x, y, n_cols, BLOCK_SIZE=BLOCK_SIZE)
    return y.permute(inverse)
