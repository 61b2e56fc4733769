"""aten::mul.Tensor(Tensor self, Tensor other) -> Tensor: element-wise product with broadcasting and type promotion."""
import torch
import triton
import triton.language as tl


@triton.jit
def mul_kernel(x_ptr, y_ptr, out_ptr, n_elements, UPCAST: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    if UPCAST:
        x = x.to(tl.float32)
        y = y.to(tl.float32)
    tl.store(out_ptr + offsets, x * y, mask=mask)


def mul_Tensor(self, other):
    out_dtype = torch.result_type(self, other)
    if not torch.is_tensor(other):
        # a Python scalar operand: a 0-d tensor of the result dtype
        other = torch.full([], other, dtype=out_dtype, device=self.device)
    shape = torch.broadcast_shapes(self.shape, other.shape)
    out = torch.empty(shape, dtype=out_dtype, device=self.device)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    # bool multiplies as a logical and: compute in int32, convert back (nonzero -> True)
    compute_dtype = torch.int32 if out_dtype == torch.bool else out_dtype
    x = self.to(compute_dtype).expand(shape).contiguous()
    y = other.to(compute_dtype).expand(shape).contiguous()
    upcast = compute_dtype == torch.float16 or compute_dtype == torch.bfloat16
    result = torch.empty(shape, dtype=compute_dtype, device=self.device)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    mul_kernel[grid](x, y, result, n_elements, UPCAST=upcast, BLOCK_SIZE=BLOCK_SIZE)
    if compute_dtype != out_dtype:
        out.copy_(result)
        return out
    return result
