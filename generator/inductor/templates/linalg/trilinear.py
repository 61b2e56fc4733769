"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, trilinear template):
_trilinear in the form nn.functional.bilinear records, out[n, o] =
sum_k (sum_j x1[n, j] w[o, j, k]) x2[n, k]. As ATen's two sumproduct_pair
steps do, the inner sum over j is finished before it is weighted by x2;
floats accumulate in float32, integers in int64; float16/bfloat16 round the
inner sums to the dtype once (torch 2.x's bmm accumulates 16-bit products in
float32 and rounds each of its results), and the result once.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def bilinear_kernel(x1_ptr, w_ptr, x2_ptr, out_ptr, n, O, J, K, IS_FLOAT: tl.constexpr, ROUND: tl.constexpr,
                    BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    o = i % O
    b = i // O
    if IS_FLOAT:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
    else:
        acc = tl.zeros([BLOCK], dtype=tl.int64)
    for k in range(0, K):
        if IS_FLOAT:
            t = tl.zeros([BLOCK], dtype=tl.float32)
        else:
            t = tl.zeros([BLOCK], dtype=tl.int64)
        for j in range(0, J):
            a = tl.load(x1_ptr + b * J + j, mask=mask, other=0).to(t.dtype)
            w = tl.load(w_ptr + (o * J + j) * K + k, mask=mask, other=0).to(t.dtype)
            t = t + a * w
        if ROUND:
            t = t.to(out_ptr.dtype.element_ty).to(tl.float32)
        acc = acc + t * tl.load(x2_ptr + b * K + k, mask=mask, other=0).to(t.dtype)
    tl.store(out_ptr + i, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _bilinear_form(i1, i2, i3, expand1, expand2, expand3, sumdim):
    if not (i1.dim() == 2 and i2.dim() == 3 and i3.dim() == 2 and list(expand1) == [1, 3] and list(expand2) == [0]
            and list(expand3) == [1, 2] and list(sumdim) == [2, 3]):
        raise NotImplementedError("_trilinear: only the nn.functional.bilinear form is lowered")
    N = i1.shape[0]
    J = i1.shape[1]
    O = i2.shape[0]
    K = i2.shape[2]
    dt = torch.promote_types(torch.promote_types(i1.dtype, i2.dtype), i3.dtype)
    out = torch.empty([N, O], dtype=dt, device=i1.device)
    n = out.numel()
    if n == 0:
        return out
    BLOCK = 128
    bilinear_kernel[(triton.cdiv(n, BLOCK), )](i1.contiguous(), i2.contiguous(), i3.contiguous(), out, n, O, J, K,
                                               IS_FLOAT=out.is_floating_point(),
                                               ROUND=dt == torch.float16 or dt == torch.bfloat16, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
