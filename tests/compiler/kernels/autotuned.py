"""An autotuned elementwise kernel (x * scale + shift) for a fused mul-add, leaky-relu style."""
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE': 256}, num_warps=4),
        triton.Config({'BLOCK_SIZE': 1024}, num_warps=8),
    ],
    key=['n_elements'],
)
@triton.jit
def scale_shift_kernel(x_ptr, out_ptr, n_elements, scale, shift, negative_slope,
                       BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = x * scale + shift
    y = tl.where(y >= 0, y, y * negative_slope)
    tl.store(out_ptr + offsets, y, mask=mask)


def leaky_relu_default(self, negative_slope=0.01):
    x = self.contiguous()
    out = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return out
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    scale_shift_kernel[grid](x, out, n_elements, 1.0, 0.0, negative_slope)
    return out
