"""aten::bmm, borderline on purpose: treats both inputs as contiguous (ignores their strides)."""
import torch
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, IS_FLOAT: tl.constexpr, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr):
    pid_b = tl.program_id(axis=0)
    pid_m = tl.program_id(axis=1)
    pid_n = tl.program_id(axis=2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if IS_FLOAT:
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    else:
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int64)
    for k in range(0, K):
        a = tl.load(a_ptr + pid_b * M * K + rm * K + k, mask=rm < M, other=0)
        b = tl.load(b_ptr + pid_b * K * N + k * N + rn, mask=rn < N, other=0)
        if IS_FLOAT:
            acc += a.to(tl.float32)[:, None] * b.to(tl.float32)[None, :]
        else:
            acc += a.to(tl.int64)[:, None] * b.to(tl.int64)[None, :]
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + pid_b * M * N + rm[:, None] * N + rn[None, :], acc, mask=c_mask)


def bmm(self, mat2):
    B, M, K = self.shape
    N = mat2.shape[2]
    out = torch.empty([B, M, N], dtype=self.dtype, device=self.device)
    if B == 0 or M == 0 or N == 0:
        return out
    if K == 0:
        return torch.zeros([B, M, N], dtype=self.dtype, device=self.device)
    grid = (B, triton.cdiv(M, 16), triton.cdiv(N, 16))
    bmm_kernel[grid](self, mat2, out, M, N, K, IS_FLOAT=self.is_floating_point(), BLOCK_M=16,
                     BLOCK_N=16)
    return out
