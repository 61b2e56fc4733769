"""Vector addition (Triton tutorial 01) with an ATen-style wrapper for add.Tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr,  # pointer to the first input
               y_ptr,  # pointer to the second input
               output_ptr,
               n_elements,
               alpha,
               BLOCK_SIZE: tl.constexpr,
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + alpha * y
    tl.store(output_ptr + offsets, output, mask=mask)


def add_Tensor(self, other, *, alpha=1):
    assert self.shape == other.shape, "add_Tensor: shapes must match"
    x = self.contiguous()
    y = other.contiguous()
    output = torch.empty_like(x)
    n_elements = output.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, alpha, BLOCK_SIZE=1024)
    return output
