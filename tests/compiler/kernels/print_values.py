"""Prints a block with tl.device_print (an op the code generator does not lower)."""
import triton
import triton.language as tl


@triton.jit
def print_values_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.device_print("x", x)
