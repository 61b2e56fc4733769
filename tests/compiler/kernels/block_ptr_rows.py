"""Row sums over column tiles through a block pointer advanced in a loop (boundary-checked),
stored through a 1-D block pointer."""
import torch
import triton
import triton.language as tl


@triton.jit
def block_ptr_rows_kernel(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(x_ptr, (M, N), (stride_m, 1), (pid * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, ), tl.float32)
    for k in range(0, N, BN):
        acc += tl.sum(tl.load(p, boundary_check=(0, 1)), axis=1)
        p = tl.advance(p, (0, BN))
    o = tl.make_block_ptr(out_ptr, (M, ), (1, ), (pid * BM, ), (BM, ), (0, ))
    tl.store(o, acc, boundary_check=(0, ))


def sum_dim_IntList(self, dim, keepdim=False, *, dtype=None):
    assert self.dim() == 2 and list(dim) == [1] and not keepdim and dtype is None, "sum: rows"
    x = self.contiguous()
    M, N = x.shape
    out = torch.empty(M, dtype=torch.float32, device=x.device)
    if M == 0:
        return out
    block_ptr_rows_kernel[(triton.cdiv(M, 8), )](x, out, M, N, x.stride(0), BM=8, BN=16)
    return out
