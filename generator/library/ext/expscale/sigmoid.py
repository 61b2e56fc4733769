"""aten::sigmoid(Tensor self) -> Tensor: 1 / (1 + e ** -self); integers and bool promote to float32.

ISA-extension variant of generator/library/aten/sigmoid.py, used when an
extension defining intrinsic `expscale` (isa/ext/vfexpscale.ext) is
registered: e ** -x is tl.extra.mtia.expscale(-x, 1.0) (vfexpscale.vf).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = 1.0 / (1.0 + tl.extra.mtia.expscale(-x, 1.0))
    tl.store(out_ptr + offsets, y, mask=mask)


def sigmoid(self):
    out_dtype = self.dtype if self.is_floating_point() else torch.float32
    out = torch.empty(self.shape, dtype=out_dtype, device=self.device)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    x = self.to(out_dtype).contiguous()
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    sigmoid_kernel[grid](x, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
