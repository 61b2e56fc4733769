"""One-tile int8 matmul with int32 accumulation (C = A @ B + C0), masked at the edges."""
import torch
import triton
import triton.language as tl


@triton.jit
def dot_int8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0)
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :],
                mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0)
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    c0 = tl.load(c_ptrs, mask=c_mask, other=0)
    c = tl.dot(a, b, c0)
    tl.store(c_ptrs, c, mask=c_mask)


def mm_int8(a, b, c0):
    M, K = a.shape
    K, N = b.shape
    c = c0.clone()
    dot_int8_kernel[(1, )](a, b, c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c
