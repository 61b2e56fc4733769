"""inductor_interp_libdevice.py - the libdevice functions of Inductor's kernels, for Triton's interpreter.

Triton's interpreter (TRITON_INTERPRET=1) runs tl.* but not libdevice.*; inductor_triton_diff.py
gives the kernels these instead (float32), written with tl.* only.
"""
import triton
import triton.language as tl


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.jit
def log(x):
    return tl.log(x)


@triton.jit
def erf(x):
    return tl.math.erf(x)


@triton.jit
def rsqrt(x):
    return tl.math.rsqrt(x)


@triton.jit
def log1p(x):
    small = tl.abs(x) < 1e-4
    return tl.where(small, x - x * x / 2 + x * x * x / 3, tl.log(1 + tl.where(small, 0.0, x)))


@triton.jit
def expm1(x):
    return tl.exp(x) - 1


@triton.jit
def tanh(x):
    return 1 - 2 / (tl.exp(2 * x) + 1)


@triton.jit
def signbit(x):
    return x.to(tl.int32, bitcast=True) < 0


@triton.jit
def isnan(x):
    return x != x


@triton.jit
def nearbyint(x):
    r = tl.floor(x + 0.5)
    tie = (r - x) == 0.5
    odd = (r - 2 * tl.floor(r / 2)) != 0
    return tl.where(tie & odd, r - 1, r)
