"""Autotuned kernels for the @triton.autotune tests (wrapper interpreter and chip).

Configs come from a module-level function built with a comprehension, as in Triton's
matrix-multiplication tutorial; the sum accumulates with atomic_add, so every trial
launch adds to the output and reset_to_zero must zero it before each one.
"""
import torch
import triton
import triton.language as tl


def get_autotune_config():
    blocks = [16, 64, 256]
    return [triton.Config({'BLOCK_SIZE': b}, num_warps=4) for b in blocks]


@triton.autotune(configs=get_autotune_config(), key=['n_elements'], reset_to_zero=['out_ptr'])
@triton.jit
def sum_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def tuned_sum(x):
    x = x.contiguous()
    out = torch.zeros((1, ), dtype=torch.float32, device=x.device)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    sum_kernel[grid](x, out, n_elements)
    return out


@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': b}) for b in (32, 128, 512)],
                 key=['n_elements'], restore_value=['x_ptr'])
@triton.jit
def add_one_kernel(x_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(x_ptr + offsets, x + 1.0, mask=mask)


def add_one_(x):
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_one_kernel[grid](x, n_elements)
    return x
