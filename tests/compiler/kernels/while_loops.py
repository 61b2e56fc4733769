"""scf.while: a data-dependent loop over a block (halve every element above a limit until
none is left, counting rounds) and a scalar loop with a runtime trip count (possibly zero)."""
import torch
import triton
import triton.language as tl


@triton.jit
def while_loops_kernel(x_ptr, y_ptr, rounds_ptr, z_ptr, n, trips, LIMIT: tl.constexpr,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask, other=0)
    rounds = 0
    while tl.max(v, axis=0) > LIMIT:
        v = tl.where(v > LIMIT, v // 2, v)
        rounds += 1
    tl.store(y_ptr + offs, v, mask=mask)
    tl.store(rounds_ptr + pid, rounds)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    i = 0
    while i < trips:
        acc = acc * 0.5 + v.to(tl.float32)
        i += 1
    tl.store(z_ptr + offs, acc + i, mask=mask)


def floor_divide_Scalar(self, other):
    assert self.dtype == torch.int32 and other == 2, "floor_divide: int32 by 2, repeatedly"
    x = self.contiguous()
    n = x.numel()
    BLOCK = 32
    y = torch.empty_like(x)
    rounds = torch.empty(max(triton.cdiv(n, BLOCK), 1), dtype=torch.int32, device=x.device)
    z = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    if n == 0:
        return y
    while_loops_kernel[(triton.cdiv(n, BLOCK), )](x, y, rounds, z, n, 1, LIMIT=10, BLOCK=BLOCK)
    return y
