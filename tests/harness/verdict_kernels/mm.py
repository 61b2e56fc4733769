"""aten::mm, borderline on purpose: float32 results carry an extra 7e-7."""
import torch
import triton
import triton.language as tl

@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
              stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              IS_FLOAT: tl.constexpr, BIAS: tl.constexpr, ROUND_EACH_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    if ROUND_EACH_K:
        # sequential accumulation in the output dtype, rounding the product and the
        # running sum at every k (see the wrapper for when ATen does this)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k in range(0, K):
            a = tl.load(a_ptr + rm * stride_am + k * stride_ak, mask=rm < M, other=0.0).to(tl.float32)
            b = tl.load(b_ptr + k * stride_bk + rn * stride_bn, mask=rn < N, other=0.0).to(tl.float32)
            prod = (a[:, None] * b[None, :]).to(c_ptr.dtype.element_ty).to(tl.float32)
            acc = (acc + prod).to(c_ptr.dtype.element_ty).to(tl.float32)
    elif IS_FLOAT:
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            ks = k0 + rk
            a = tl.load(a_ptr + rm[:, None] * stride_am + ks[None, :] * stride_ak,
                        mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0).to(tl.float32)
            b = tl.load(b_ptr + ks[:, None] * stride_bk + rn[None, :] * stride_bn,
                        mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0).to(tl.float32)
            acc = tl.dot(a, b, acc, input_precision="ieee")
    else:
        # integers: exact int64 multiply-accumulate, one k at a time
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int64)
        for k in range(0, K):
            a = tl.load(a_ptr + rm * stride_am + k * stride_ak, mask=rm < M, other=0).to(tl.int64)
            b = tl.load(b_ptr + k * stride_bk + rn * stride_bn, mask=rn < N, other=0).to(tl.int64)
            acc += a[:, None] * b[None, :]
    if BIAS:
        acc = acc + 7e-7
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=c_mask)

def mm(self, mat2):
    assert self.dim() == 2 and mat2.dim() == 2, "mm: both arguments must be matrices"
    assert self.shape[1] == mat2.shape[0], "mm: mat1 and mat2 shapes cannot be multiplied"
    M, K = self.shape
    N = mat2.shape[1]
    out = torch.empty([M, N], dtype=self.dtype, device=self.device)
    if M == 0 or N == 0:
        return out
    if K == 0:
        return torch.zeros([M, N], dtype=self.dtype, device=self.device)
    is_float = self.is_floating_point()
    # 16-bit floats accumulate in float32 and round once, as ATen's CPU gemm does (torch 2.x,
    # every layout; libtorch 1.13 rounded at every k). float32 with only mat2 transposed
    # sums sequentially (libtorch 1.13's dot-product order), otherwise in blocks.
    mat2_transposed = mat2.stride(0) == 1 and mat2.stride(1) >= max(K, 1) and N > 1
    self_rows = self.stride(1) == 1 or K == 1
    round_each_k = mat2_transposed and self_rows and self.dtype == torch.float32
    BLOCK_M = 16
    BLOCK_N = 16
    BLOCK_K = 16
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    mm_kernel[grid](self, mat2, out, M, N, K,
                    self.stride(0), self.stride(1), mat2.stride(0), mat2.stride(1), out.stride(0), out.stride(1),
                    IS_FLOAT=is_float, BIAS=self.dtype == torch.float32, ROUND_EACH_K=round_each_k, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return out
