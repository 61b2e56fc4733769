"""{{SCHEMA}}

Lowered by opforge's inductor provider (indexing family, masked_scatter
template): a copy of self (broadcast with mask) where the k-th true element of the broadcast mask
(row-major order) takes source's k-th element. One program walks the tensor
block by block; a running count of true mask elements plus the block's
exclusive prefix sum (tl.cumsum) gives each element its source index.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def masked_scatter_kernel(x_ptr, m_ptr, src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    taken = tl.zeros([BLOCK], dtype=tl.int64)
    for start in range(0, n, BLOCK):
        i = start + offs
        mask = i < n
        m = tl.load(m_ptr + i, mask=mask, other=0).to(tl.int64)
        k = taken + tl.cumsum(m, axis=0) - m
        x = tl.load(x_ptr + i, mask=mask, other=0)
        s = tl.load(src_ptr + k, mask=mask & (m != 0), other=0)
        tl.store(out_ptr + i, tl.where(m != 0, s, x), mask=mask)
        taken = taken + tl.sum(m, axis=0)


def {{WRAPPER}}({{SIGNATURE}}):
    if mask.dtype != torch.bool:
        raise RuntimeError("masked_scatter_: expected BoolTensor for mask")
    # the out-of-place form broadcasts self and mask together
    shape = torch.broadcast_shapes(self.shape, mask.shape)
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    n = out.numel()
    if n == 0:
        return out
    x = self.expand(shape).contiguous()
    m = mask.expand(shape).to(torch.int32).contiguous()
    src = source.to(self.dtype).contiguous()
    masked_scatter_kernel[(1, )](x, m, src, out, n, BLOCK=256)
    return out
