"""{{SCHEMA}}

Lowered by opforge's inductor provider (matmul family, bmm template): every
matrix product as a batched (B, M, K) @ (B, K, N) kernel on strided operands,
tl.dot blocks on the DPE for floats, with an optional beta * bias + alpha *
product epilogue (addmm, baddbmm, addmv, addr, addbmm). Vectors and sums over
batches are views of the same product.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, alpha, beta,
               stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
               stride_cb, stride_cm, stride_cn, stride_ib, stride_im, stride_in,
               IS_FLOAT: tl.constexpr, ROUND_EACH_K: tl.constexpr, HAS_BIAS: tl.constexpr, SCALED: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    batch = tl.program_id(axis=2).to(tl.int64)
    a_ptr = a_ptr + batch * stride_ab
    b_ptr = b_ptr + batch * stride_bb
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    if ROUND_EACH_K:
        # sequential accumulation rounded to the output dtype at every k (ATen's float32 dot-product path)
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
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    if SCALED:
        acc = acc * alpha
        if ROUND_EACH_K:
            acc = acc.to(c_ptr.dtype.element_ty).to(tl.float32)
    if HAS_BIAS:
        bias = tl.load(bias_ptr + batch * stride_ib + rm[:, None] * stride_im + rn[None, :] * stride_in, mask=c_mask,
                       other=0)
        if IS_FLOAT:
            bias = bias.to(tl.float32)
        else:
            bias = bias.to(tl.int64)
        if ROUND_EACH_K:
            # 16-bit floats: ATen's small kernels round beta * bias and the sum too
            acc = acc + (bias * beta).to(c_ptr.dtype.element_ty).to(tl.float32)
        else:
            acc = acc + bias * beta
    tl.store(c_ptr + batch * stride_cb + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=c_mask)


def _matmul(a, b, bias=None, beta=1, alpha=1, small_kernel=False):
    # a (B, M, K) @ b (B, K, N), plus beta * bias (broadcast to (B, M, N)) and times alpha; returns (B, M, N)
    nb = a.shape[0]
    M = a.shape[1]
    K = a.shape[2]
    N = b.shape[2]
    if a.shape[0] != b.shape[0] or b.shape[1] != K:
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (" + str(M) + "x" + str(K) + " and " +
                           str(b.shape[1]) + "x" + str(N) + ")")
    dtype = a.dtype
    if bias is not None:
        dtype = torch.promote_types(dtype, bias.dtype)
    out = torch.empty([nb, M, N], dtype=dtype, device=a.device)
    if nb == 0 or M == 0 or N == 0:
        return out
    is_float = a.is_floating_point()
    if not is_float:
        # integer products take integer alpha and beta (ATen truncates them)
        alpha = int(alpha)
        beta = int(beta)
    use_bias = bias is not None and beta != 0
    bias_x = out
    if use_bias:
        bias_x = bias.expand([nb, M, N])
    # ATen's CPU gemm (torch 2.x): 16-bit floats accumulate in float32 and round once, in every
    # layout and in the small batched kernel (torch 1.13 rounded at every k); float32 with only
    # mat2 transposed takes sequential dot products
    mat2_transposed = b.stride(1) == 1 and b.stride(2) >= (K if K > 1 else 1) and N > 1
    self_rows = a.stride(2) == 1 or K == 1
    round_each_k = mat2_transposed and self_rows and a.dtype == torch.float32
    if small_kernel or nb > 1 or bias is not None:
        round_each_k = False
    BLOCK = 16
    grid = (triton.cdiv(M, BLOCK), triton.cdiv(N, BLOCK), nb)
    bmm_kernel[grid](a, b, out, bias_x, M, N, K, alpha, beta, a.stride(0), a.stride(1), a.stride(2), b.stride(0),
                     b.stride(1), b.stride(2), out.stride(0), out.stride(1), out.stride(2), bias_x.stride(0),
                     bias_x.stride(1), bias_x.stride(2), IS_FLOAT=is_float, ROUND_EACH_K=round_each_k,
                     HAS_BIAS=use_bias, SCALED=alpha != 1, BLOCK_M=BLOCK, BLOCK_N=BLOCK, BLOCK_K=BLOCK)
    return out


def _mm(a, b):
    if a.dim() != 2 or b.dim() != 2:
        raise RuntimeError("self must be a matrix")
    return _matmul(a.unsqueeze(0), b.unsqueeze(0))[0]


def _small(a, b):
    # ATen's bmm/baddbmm use a naive kernel below 400 multiply-adds per batch
    return a.shape[1] * a.shape[2] * b.shape[2] < 400


def _bmm(a, b):
    return _matmul(a, b, small_kernel=_small(a, b))


def _addmm(bias, a, b, beta, alpha):
    return _matmul(a.unsqueeze(0), b.unsqueeze(0), bias.expand([a.shape[0], b.shape[1]]).unsqueeze(0), beta,
                   alpha)[0]


def _baddbmm(bias, a, b, beta, alpha):
    return _matmul(a, b, bias.expand([a.shape[0], a.shape[1], b.shape[2]]), beta, alpha, _small(a, b))


def _addbmm(bias, a, b, beta, alpha):
    # sum over batches = one product with the batches laid along K
    nb = a.shape[0]
    M = a.shape[1]
    K = a.shape[2]
    N = b.shape[2]
    a2 = a.permute([1, 0, 2]).contiguous().reshape([1, M, nb * K])
    b2 = b.contiguous().reshape([1, nb * K, N])
    return _matmul(a2, b2, bias.expand([M, N]).unsqueeze(0), beta, alpha)[0]


def _mv(a, v):
    return _matmul(a.unsqueeze(0), v.unsqueeze(1).unsqueeze(0))[0].reshape([a.shape[0]])


def _addmv(bias, a, v, beta, alpha):
    r = _matmul(a.unsqueeze(0), v.unsqueeze(1).unsqueeze(0), bias.expand([a.shape[0]]).unsqueeze(1).unsqueeze(0),
                beta, alpha)
    return r[0].reshape([a.shape[0]])


def _dot(x, y):
    if x.dim() != 1 or y.dim() != 1:
        raise RuntimeError("1D tensors expected, but got " + str(x.dim()) + "D and " + str(y.dim()) + "D tensors")
    return _matmul(x.unsqueeze(0).unsqueeze(0), y.unsqueeze(1).unsqueeze(0))[0].reshape([])


def _addr(bias, v1, v2, beta, alpha):
    M = v1.shape[0]
    N = v2.shape[0]
    return _matmul(v1.unsqueeze(1).unsqueeze(0), v2.unsqueeze(0).unsqueeze(0),
                   bias.expand([M, N]).unsqueeze(0), beta, alpha, True)[0]


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
