"""aten::remainder.Tensor for a tensor and a 0-d tensor, wrong: subtracts instead of taking
the remainder, so verification fails and the feedback must show the operands' values."""
import torch
import triton
import triton.language as tl


@triton.jit
def remainder_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0).to(tl.float32)
    y = tl.load(y_ptr).to(tl.float32)
    tl.store(out_ptr + offsets, x - y, mask=mask)


def remainder_Tensor(self, other):
    x = self.contiguous()
    out = torch.empty_like(x)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    remainder_kernel[grid](x, other, out, n_elements, BLOCK_SIZE=64)
    return out
