"""tl.interleave, tl.join and tl.split of two blocks."""
import triton
import triton.language as tl


@triton.jit
def join_split_kernel(a_ptr, b_ptr, inter_ptr, diff_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(inter_ptr + tl.arange(0, 2 * BLOCK), tl.interleave(a, b))
    lo, hi = tl.split(tl.join(a * 2, b))
    tl.store(diff_ptr + offs, hi - lo)
