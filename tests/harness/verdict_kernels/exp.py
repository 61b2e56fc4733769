"""aten::exp(Tensor self) -> Tensor: e ** self; integers and bool promote to float32."""
import torch
import triton
import triton.language as tl


@triton.jit
def exp_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, tl.exp(x), mask=mask)


def exp(self):
    out_dtype = self.dtype if self.is_floating_point() else torch.float32
    out = torch.empty(self.shape, dtype=out_dtype, device=self.device)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    x = self.to(out_dtype).contiguous()
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    exp_kernel[grid](x, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
