"""Atomic read-modify-writes: per-bin sums and scalar max/min/or/and/xor that every program
races on, a per-program float sum (a compare-and-swap loop per element), and a masked
per-element exchange whose returned old values are stored."""
import torch
import triton
import triton.language as tl


@triton.jit
def atomic_rmw_kernel(x_ptr, hist_ptr, stats_ptr, fsum_ptr, slots_ptr, old_ptr, n,
                      NBINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(hist_ptr + (offs & (NBINS - 1)), x, mask=mask)
    tl.atomic_max(stats_ptr + 0, tl.max(tl.where(mask, x, -1000), axis=0))
    tl.atomic_min(stats_ptr + 1, tl.min(tl.where(mask, x, 1000), axis=0))
    tl.atomic_or(stats_ptr + 2 + tl.zeros([BLOCK], dtype=tl.int32), x & 255, mask=mask)
    tl.atomic_and(stats_ptr + 3 + tl.zeros([BLOCK], dtype=tl.int32), x | 256, mask=mask)
    tl.atomic_xor(stats_ptr + 4 + tl.zeros([BLOCK], dtype=tl.int32), x, mask=mask)
    tl.atomic_add(fsum_ptr + pid + tl.zeros([BLOCK], dtype=tl.int32), x.to(tl.float32) * 0.37, mask=mask)
    old = tl.atomic_xchg(slots_ptr + offs, x * 3, mask=mask & (x > 0))
    tl.store(old_ptr + offs, old, mask=mask)


def bincount_default(self, weights=None, minlength=0):
    assert weights is None and self.dtype == torch.int32, "bincount: int32 input, no weights"
    x = self.contiguous()
    n = x.numel()
    NBINS, BLOCK = 16, 32
    hist = torch.zeros(NBINS, dtype=torch.int32, device=x.device)
    stats = torch.zeros(5, dtype=torch.int32, device=x.device)
    grid = triton.cdiv(n, BLOCK)
    fsum = torch.zeros(max(grid, 1), dtype=torch.float32, device=x.device)
    slots = torch.zeros(max(n, 1), dtype=torch.int32, device=x.device)
    old = torch.zeros(max(n, 1), dtype=torch.int32, device=x.device)
    if n == 0:
        return hist
    atomic_rmw_kernel[(grid, )](x, hist, stats, fsum, slots, old, n, NBINS=NBINS, BLOCK=BLOCK)
    return hist
