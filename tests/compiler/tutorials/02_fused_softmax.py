"""Tutorial 02 (fused softmax) as an opforge test kernel file.

Mirrors triton-lang/triton python/tutorials/02-fused-softmax.py at commit
fd237c7cf9a7262f32fedbaa5027ab2736ead134: a persistent row loop `tl.range(start, n_rows, step,
num_stages=num_stages)` with `num_stages: tl.constexpr`, one row per BLOCK_SIZE (next power of two
of n_cols) masked with -inf, max/exp/sum/divide, and a launch that passes the constexprs
positionally. The GPU occupancy query (warmup, n_regs, shared memory) has no counterpart on the
chip: the host wrapper launches at most one program per PE (PROGRAMS) instead. Our own code.
"""
import torch
import triton
import triton.language as tl

PROGRAMS = 64  # persistent programs at most (the PEs of an 8x8 mtia-2i grid)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x):
    """The tutorial's host function for a 2-D x (softmax over dim 1)."""
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_stages = 2
    y = torch.empty_like(x)
    num_programs = min(PROGRAMS, n_rows)
    softmax_kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE,
                                         num_stages)
    return y


def _softmax_default(self, dim, half_to_float):
    assert not half_to_float, "half_to_float is not supported"
    assert dim == -1 or dim == self.dim() - 1, "softmax over the last dimension only"
    x = self.contiguous()
    n_cols = x.shape[-1]
    x2 = x.reshape(-1, n_cols)
    if x2.numel() == 0:
        return torch.empty_like(x)
    return softmax(x2).reshape(x.shape)
