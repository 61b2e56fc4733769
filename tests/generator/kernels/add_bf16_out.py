"""aten::add.Tensor that returns a bfloat16 tensor for float32 inputs: the values are
right but the dtype is not (a type-conversion failure at Verify)."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + alpha * y, mask=mask)


def add_Tensor(self, other, *, alpha=1):
    x = self.contiguous()
    y = other.contiguous()
    out = torch.empty_like(x, dtype=torch.bfloat16)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, out, n_elements, alpha, BLOCK_SIZE=256)
    return out
