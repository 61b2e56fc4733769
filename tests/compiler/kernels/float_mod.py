"""Remainders as Triton computes them: float `%` and libdevice.fmod are C's fmod (the result
has the dividend's sign, np.fmod in Triton's interpreter), integer `%` truncates (C)."""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def float_mod_kernel(x_ptr, y_ptr, rem_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(rem_ptr + offs, x % y, mask=mask)


# libdevice.fmod has no implementation in Triton's CPU interpreter (the generic libdevice
# module is a stub there); the chip and opforge's interpreter run it.
@triton.jit
def libdevice_fmod_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + offs, libdevice.fmod(x, y), mask=mask)


@triton.jit
def int_mod_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    tl.store(out_ptr + offs, x % y, mask=mask)


def fmod_Tensor(self, other):
    x = self.contiguous()
    y = other.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    if not x.dtype.is_floating_point:
        int_mod_kernel[(triton.cdiv(n, 64), )](x, y, out, n, BLOCK=64)
        return out
    float_mod_kernel[(triton.cdiv(n, 64), )](x, y, out, n, BLOCK=64)
    return out


def fmod_libdevice(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    libdevice_fmod_kernel[(triton.cdiv(n, 64), )](x, y, out, n, BLOCK=64)
    return out
