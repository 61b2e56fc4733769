"""Blocked int8 matrix multiply with an int32 accumulator over a K loop, masked over M, N and K."""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_int8_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C (int32) = A (int8) x B (int8), one BLOCK_M x BLOCK_N tile of C per program."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k), other=0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def mm_int8(self, mat2):
    assert self.dim() == 2 and mat2.dim() == 2, "mm expects 2-D tensors"
    M, K = self.shape
    K2, N = mat2.shape
    assert K == K2, f"mm: shapes {tuple(self.shape)} and {tuple(mat2.shape)} cannot be multiplied"
    c = torch.zeros((M, N), device=self.device, dtype=torch.int32)
    if c.numel() == 0 or K == 0:
        return c
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    matmul_int8_kernel[grid](self, mat2, c, M, N, K,
                             self.stride(0), self.stride(1), mat2.stride(0), mat2.stride(1),
                             c.stride(0), c.stride(1),
                             BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c
