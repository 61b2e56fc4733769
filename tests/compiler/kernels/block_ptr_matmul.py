"""Matrix multiply with block pointers (tl.make_block_ptr / tl.advance, boundary_check)."""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_block_ptr_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block_ptr = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                                    offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K),
                                    order=(1, 0))
    b_block_ptr = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                                    offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N),
                                    order=(1, 0))
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_block_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block_ptr, boundary_check=(0, 1), padding_option="zero")
        accumulator += tl.dot(a, b)
        a_block_ptr = tl.advance(a_block_ptr, (0, BLOCK_K))
        b_block_ptr = tl.advance(b_block_ptr, (BLOCK_K, 0))
    c = accumulator.to(c_ptr.dtype.element_ty)
    c_block_ptr = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                                    offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                                    block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_block_ptr, c, boundary_check=(0, 1))


def mm_default(self, mat2):
    assert self.dim() == 2 and mat2.dim() == 2, "mm expects 2-D tensors"
    M, K = self.shape
    K2, N = mat2.shape
    assert K == K2, f"mm: shapes {tuple(self.shape)} and {tuple(mat2.shape)} cannot be multiplied"
    c = torch.empty((M, N), device=self.device, dtype=self.dtype)
    if c.numel() == 0:
        return c
    BLOCK_M, BLOCK_N, BLOCK_K = 32, 32, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    matmul_block_ptr_kernel[grid](self, mat2, c, M, N, K,
                                  self.stride(0), self.stride(1), mat2.stride(0), mat2.stride(1),
                                  c.stride(0), c.stride(1),
                                  BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return c
