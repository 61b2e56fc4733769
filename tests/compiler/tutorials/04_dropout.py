"""Tutorial 04 (low-memory dropout) as an opforge test kernel file.

Mirrors triton-lang/triton python/tutorials/04-low-memory-dropout.py at commit
7fd4724371b3a1ab786c0610df19c7683cb6a23b: the baseline `_dropout` with an int32 keep mask
(`tl.where(x_keep, x / (1 - p), 0.0)`) and `_seeded_dropout`, whose keep mask comes from
`tl.rand(seed, offsets)` (Philox, bit-identical to Triton's) so that a seed reproduces the
mask. No ATen overload has these semantics; real Triton's interpreter is the reference
(triton_interp_diff.py --source tutorials). Our own code.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _dropout(
    x_ptr,  # input
    x_keep_ptr,  # 0/1 mask of the elements kept
    output_ptr,  # result
    n_elements,  # elements of x
    p,  # probability that an element is zeroed
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.load(x_keep_ptr + offsets, mask=mask)
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def _seeded_dropout(
    x_ptr,
    output_ptr,
    n_elements,
    p,
    seed,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def dropout(x, x_keep, p):
    output = torch.empty_like(x)
    assert x.is_contiguous()
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    _dropout[grid](x, x_keep, output, n_elements, p, BLOCK_SIZE=1024)
    return output


def seeded_dropout(x, p, seed):
    output = torch.empty_like(x)
    assert x.is_contiguous()
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output
