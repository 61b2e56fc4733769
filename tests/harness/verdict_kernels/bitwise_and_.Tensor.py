"""aten::bitwise_and_.Tensor, borderline on purpose: the result is right but `self` is never written."""
import torch
import triton
import triton.language as tl


@triton.jit
def and_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x & y, mask=mask)


def bitwise_and__Tensor(self, other):
    compute_dtype = torch.int32 if self.dtype == torch.bool else self.dtype
    x = self.to(compute_dtype).contiguous()
    y = other.to(compute_dtype).expand(self.shape).contiguous()
    result = torch.empty(self.shape, dtype=compute_dtype, device=self.device)
    n_elements = result.numel()
    if n_elements > 0:
        grid = (triton.cdiv(n_elements, 1024), )
        and_kernel[grid](x, y, result, n_elements, BLOCK_SIZE=1024)
    return result.to(self.dtype)
