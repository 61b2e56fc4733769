"""A rank-3 block through a boundary-checked block pointer with NaN padding: doubled into a
contiguous copy, and summed over its middle axis (padding excluded) into a 2-D result."""
import triton
import triton.language as tl


@triton.jit
def block_ptr_3d_kernel(x_ptr, y_ptr, s_ptr, A, B, C, sa, sb, sc, BA: tl.constexpr,
                        BB: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    xp = tl.make_block_ptr(base=x_ptr, shape=(A, B, C), strides=(sa, sb, sc),
                           offsets=(pid * BA, 0, 0), block_shape=(BA, BB, BC), order=(2, 1, 0))
    yp = tl.make_block_ptr(base=y_ptr, shape=(A, B, C), strides=(B * C, C, 1),
                           offsets=(pid * BA, 0, 0), block_shape=(BA, BB, BC), order=(2, 1, 0))
    x = tl.load(xp, boundary_check=(0, 1, 2), padding_option="nan")
    tl.store(yp, x * 2, boundary_check=(0, 1, 2))
    s = tl.sum(tl.where(x == x, x, 0.0), axis=1)
    a = pid * BA + tl.arange(0, BA)[:, None]
    c = tl.arange(0, BC)[None, :]
    tl.store(s_ptr + a * C + c, s, mask=(a < A) & (c < C))
