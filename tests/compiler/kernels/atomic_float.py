"""Float atomics element by element on distinct addresses (deterministic old values):
atomic_add, atomic_max and atomic_min in the pointer's dtype, and atomic_cas."""
import torch
import triton
import triton.language as tl


@triton.jit
def atomic_float_kernel(acc_ptr, mx_ptr, cas_ptr, x_ptr, old_add_ptr, old_max_ptr, old_cas_ptr,
                        n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    a = tl.atomic_add(acc_ptr + offs, x, mask=mask)
    tl.store(old_add_ptr + offs, a, mask=mask)
    m = tl.atomic_max(mx_ptr + offs, x, mask=mask)
    m2 = tl.atomic_min(mx_ptr + offs, x * 0.5, mask=mask)
    tl.store(old_max_ptr + offs, m + m2, mask=mask)
    c = tl.atomic_cas(cas_ptr + offs, tl.where(offs % 2 == 0, x, x + 1), x * 2)
    tl.store(old_cas_ptr + offs, c, mask=mask)


def index_add_default(self, dim, index, source, *, alpha=1):
    assert self.dim() == 1 and dim == 0 and alpha == 1, "index_add: 1-D, identity index"
    acc = self.contiguous()
    n = acc.numel()
    BLOCK = 16
    padded = triton.cdiv(n, BLOCK) * BLOCK
    x = source.contiguous()
    mx = torch.empty_like(acc)
    cas = torch.empty(max(padded, 1), dtype=acc.dtype, device=acc.device)
    old_add = torch.empty_like(acc)
    old_max = torch.empty_like(acc)
    old_cas = torch.empty_like(acc)
    if n == 0:
        return acc
    atomic_float_kernel[(padded // BLOCK, )](acc, mx, cas, x, old_add, old_max, old_cas, n,
                                             BLOCK=BLOCK)
    return acc
