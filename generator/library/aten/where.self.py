"""aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor: self where condition else other."""
import torch
import triton
import triton.language as tl


@triton.jit
def where_kernel(cond_ptr, x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    c = tl.load(cond_ptr + offsets, mask=mask, other=0)
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(c != 0, x, y), mask=mask)


def where_self(condition, self, other):
    out_dtype = torch.result_type(self, other)
    shape = torch.broadcast_shapes(condition.shape, self.shape, other.shape)
    out = torch.empty(shape, dtype=out_dtype, device=self.device)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    # bool values and conditions travel as int32
    compute_dtype = torch.int32 if out_dtype == torch.bool else out_dtype
    c = condition.to(torch.int32).expand(shape).contiguous()
    x = self.to(compute_dtype).expand(shape).contiguous()
    y = other.to(compute_dtype).expand(shape).contiguous()
    result = torch.empty(shape, dtype=compute_dtype, device=self.device)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    where_kernel[grid](c, x, y, result, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    if compute_dtype != out_dtype:
        out.copy_(result)
        return out
    return result
