"""aten::add_.Tensor for same-shape contiguous inputs: self += alpha * other, in place."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_inplace_kernel(x_ptr, y_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(x_ptr + offsets, x + alpha * y, mask=mask)


def add__Tensor(self, other, *, alpha=1):
    n_elements = self.numel()
    if n_elements == 0:
        return self
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_inplace_kernel[grid](self, other, n_elements, alpha, BLOCK_SIZE=256)
    return self
