"""Tutorial 01 (vector addition) as an opforge test kernel file.

Mirrors triton-lang/triton python/tutorials/01-vector-add.py at commit
545699290b851e70231ee3017481851170f1583d: the same kernel signature (x_ptr, y_ptr, output_ptr,
n_elements, BLOCK_SIZE: tl.constexpr), a 1-D grid from a `meta` lambda, masked loads and store.
Our own code; the host wrappers are in the library's style (named after ATen overloads).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr,  # first input
               y_ptr,  # second input
               output_ptr,  # result
               n_elements,  # elements of each vector
               BLOCK_SIZE: tl.constexpr,  # elements per program (a shape, so constexpr)
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor):
    """The tutorial's host function: one program per BLOCK_SIZE elements."""
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


def add_Tensor(self, other, *, alpha=1):
    assert alpha == 1, "add_Tensor: the tutorial kernel adds without a scale"
    assert self.shape == other.shape and self.dtype == other.dtype, "same shape and dtype"
    return add(self.contiguous(), other.contiguous())
