"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, lu template): LU
factorization with partial pivoting (LAPACK's getf2 order: pick the first
largest |a| in the column, swap whole rows, scale the column below by the
pivot's reciprocal, update the trailing matrix), one program per matrix with
lanes over columns, and the ops built on it: lu_factor, lu/lu_unpack (P, L,
U), lu_solve, solve, inv, det and slogdet (det and slogdet factor A^T
as ATen does for contiguous inputs; solve factors A). Pivots are 1-based int32 as LAPACK
returns them; info is the first zero pivot's order (0 when none).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def lu_kernel(a_ptr, piv_ptr, info_ptr, M, N, K, BLOCK: tl.constexpr):
    # a: m x n row-major, factored in place
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * M * N
    lanes = tl.arange(0, BLOCK)
    info = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, K):
        col = tl.load(a_ptr + base + lanes * N + k, mask=(lanes >= k) & (lanes < M), other=0)
        mag = tl.where((lanes >= k) & (lanes < M), tl.abs(col), -1.0)
        best = tl.max(mag, axis=0)
        p = tl.min(tl.where(mag == best, lanes, BLOCK), axis=0)
        tl.store(piv_ptr + mat * K + k + lanes * 0, (p + 1).to(tl.int32), mask=lanes < 1)
        rk = tl.load(a_ptr + base + k * N + lanes, mask=lanes < N, other=0)
        rp = tl.load(a_ptr + base + p * N + lanes, mask=lanes < N, other=0)
        tl.store(a_ptr + base + k * N + lanes, rp, mask=lanes < N)
        tl.store(a_ptr + base + p * N + lanes, rk, mask=lanes < N)
        tl.debug_barrier()
        pivot = tl.load(a_ptr + base + k * N + k + lanes * 0)
        info = tl.where((pivot == 0.0) & (info == 0), k + 1, info)
        rinv = 1.0 / pivot
        rowk = tl.load(a_ptr + base + k * N + lanes, mask=lanes < N, other=0)
        for i in range(k + 1, M):
            ri = tl.load(a_ptr + base + i * N + lanes, mask=lanes < N, other=0)
            f = tl.load(a_ptr + base + i * N + k + lanes * 0)
            f = tl.where(pivot != 0.0, f * rinv, f)
            ri = tl.where(lanes > k, ri - f * rowk, tl.where(lanes == k, f, ri))
            tl.store(a_ptr + base + i * N + lanes, ri, mask=lanes < N)
        tl.debug_barrier()
    tl.store(info_ptr + mat + lanes * 0, info, mask=lanes < 1)


@triton.jit
def lu_apply_kernel(lu_ptr, piv_ptr, b_ptr, x_ptr, n, k_cols, TRANS: tl.constexpr, BLOCK: tl.constexpr):
    # X = A^-1 B (TRANS: A^-T B) for A = P L U, one batch entry per program; x starts as a copy of b
    m = tl.program_id(axis=0).to(tl.int64)
    abase = m * n * n
    bbase = m * n * k_cols
    cols = tl.arange(0, BLOCK)
    cmask = cols < k_cols
    if not TRANS:
        # row interchanges in order, then L y = P^T b (unit lower), then U x = y
        for i in range(0, n):
            p = tl.load(piv_ptr + m * n + i).to(tl.int64) - 1
            ri = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            rp = tl.load(x_ptr + bbase + p * k_cols + cols, mask=cmask, other=0)
            tl.store(x_ptr + bbase + i * k_cols + cols, rp, mask=cmask)
            tl.store(x_ptr + bbase + p * k_cols + cols, ri, mask=cmask)
            tl.debug_barrier()
        for i in range(0, n):
            acc = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            for t in range(0, i):
                acc = acc - tl.load(lu_ptr + abase + i * n + t + cols * 0) * tl.load(
                    x_ptr + bbase + t * k_cols + cols, mask=cmask, other=0)
            tl.store(x_ptr + bbase + i * k_cols + cols, acc, mask=cmask)
            tl.debug_barrier()
        for s in range(0, n):
            i = n - 1 - s
            acc = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            for t in range(i + 1, n):
                acc = acc - tl.load(lu_ptr + abase + i * n + t + cols * 0) * tl.load(
                    x_ptr + bbase + t * k_cols + cols, mask=cmask, other=0)
            acc = acc / tl.load(lu_ptr + abase + i * n + i + cols * 0)
            tl.store(x_ptr + bbase + i * k_cols + cols, acc, mask=cmask)
            tl.debug_barrier()
    else:
        # U^T y = b, L^T z = y, then the row interchanges in reverse
        for i in range(0, n):
            acc = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            for t in range(0, i):
                acc = acc - tl.load(lu_ptr + abase + t * n + i + cols * 0) * tl.load(
                    x_ptr + bbase + t * k_cols + cols, mask=cmask, other=0)
            acc = acc / tl.load(lu_ptr + abase + i * n + i + cols * 0)
            tl.store(x_ptr + bbase + i * k_cols + cols, acc, mask=cmask)
            tl.debug_barrier()
        for s in range(0, n):
            i = n - 1 - s
            acc = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            for t in range(i + 1, n):
                acc = acc - tl.load(lu_ptr + abase + t * n + i + cols * 0) * tl.load(
                    x_ptr + bbase + t * k_cols + cols, mask=cmask, other=0)
            tl.store(x_ptr + bbase + i * k_cols + cols, acc, mask=cmask)
            tl.debug_barrier()
        for s in range(0, n):
            i = n - 1 - s
            p = tl.load(piv_ptr + m * n + i).to(tl.int64) - 1
            ri = tl.load(x_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
            rp = tl.load(x_ptr + bbase + p * k_cols + cols, mask=cmask, other=0)
            tl.store(x_ptr + bbase + i * k_cols + cols, rp, mask=cmask)
            tl.store(x_ptr + bbase + p * k_cols + cols, ri, mask=cmask)
            tl.debug_barrier()


@triton.jit
def det_kernel(lu_ptr, piv_ptr, out_ptr, log_ptr, n, BLOCK: tl.constexpr):
    # det (sequential product of U's diagonal with the permutation's sign); log: sign and log|det|
    m = tl.program_id(axis=0).to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    first = lanes < 1
    prod = tl.full([BLOCK], 1.0, tl.float32)
    sgn = tl.full([BLOCK], 1.0, tl.float32)
    logabs = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        d = tl.load(lu_ptr + m * n * n + i * n + i + lanes * 0)
        p = tl.load(piv_ptr + m * n + i + lanes * 0)
        prod = prod * d
        sgn = tl.where(p != i + 1, -sgn, sgn)
        sgn = tl.where(d < 0.0, -sgn, tl.where(d == 0.0, 0.0, sgn))
        logabs = logabs + tl.log(tl.abs(d))
    neg = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(0, n):
        p = tl.load(piv_ptr + m * n + i + lanes * 0)
        neg = neg ^ tl.where(p != i + 1, 1, 0)
    tl.store(out_ptr + m + lanes * 0, tl.where(neg != 0, -prod, prod), mask=first)
    tl.store(log_ptr + 2 * m + lanes * 0, sgn, mask=first)
    tl.store(log_ptr + 2 * m + 1 + lanes * 0, logabs, mask=first)


def _t(x):
    return x.transpose(x.dim() - 2, x.dim() - 1)


def _batch(a):
    b = 1
    for d in range(a.dim() - 2):
        b *= a.shape[d]
    return b


def _lu_factor(A):
    M = A.shape[A.dim() - 2]
    N = A.shape[A.dim() - 1]
    K = M if M < N else N
    lead = [A.shape[d] for d in range(A.dim() - 2)]
    lu = torch.empty(A.shape, dtype=A.dtype, device=A.device)
    lu.copy_(A)
    piv = torch.empty(lead + [K], dtype=torch.int32, device=A.device)
    info = torch.zeros(lead, dtype=torch.int32, device=A.device)
    b = _batch(A)
    if b > 0 and K > 0:
        BLOCK = triton.next_power_of_2(M if M > N else N)
        lu_kernel[(b, )](lu, piv, info, M, N, K, BLOCK=BLOCK)
    return lu, piv, info


def _lu_solve_core(lu, piv, B, trans):
    n = lu.shape[lu.dim() - 1]
    x = torch.empty(B.shape, dtype=B.dtype, device=B.device)
    x.copy_(B)
    b = _batch(B)
    k = B.shape[B.dim() - 1]
    if b > 0 and n > 0 and k > 0:
        lu_apply_kernel[(b, )](lu.contiguous(), piv.contiguous(), B, x, n, k, TRANS=trans,
                               BLOCK=triton.next_power_of_2(k))
    return x


def _expand_batch(lu, piv, B):
    batch = torch.broadcast_shapes([lu.shape[d] for d in range(lu.dim() - 2)], [B.shape[d] for d in range(B.dim() - 2)])
    bl = list(batch)
    n = lu.shape[lu.dim() - 1]
    return (lu.expand(bl + [n, n]).contiguous(), piv.expand(bl + [n]).contiguous(),
            B.expand(bl + [B.shape[B.dim() - 2], B.shape[B.dim() - 1]]).contiguous())


def _lu_solve(LU, pivots, B, left, adjoint):
    if left:
        lu, piv, b = _expand_batch(LU, pivots, B)
        return _lu_solve_core(lu, piv, b, adjoint)
    # X A = B  <=>  A^T X^T = B^T (adjoint flips)
    lu, piv, b = _expand_batch(LU, pivots, _t(B))
    return _t(_lu_solve_core(lu, piv, b, not adjoint)).contiguous()


def _unpack(lu, piv, unpack_data, unpack_pivots):
    M = lu.shape[lu.dim() - 2]
    N = lu.shape[lu.dim() - 1]
    K = M if M < N else N
    lead = [lu.shape[d] for d in range(lu.dim() - 2)]
    if unpack_data:
        L = torch.empty(lead + [M, K], dtype=lu.dtype, device=lu.device)
        U = torch.empty(lead + [K, N], dtype=lu.dtype, device=lu.device)
        _tri_split(lu, L, U, M, N, K)
    else:
        L = torch.empty([0], dtype=lu.dtype, device=lu.device)
        U = torch.empty([0], dtype=lu.dtype, device=lu.device)
    if unpack_pivots:
        eye = torch.zeros(lead + [M, M], dtype=lu.dtype, device=lu.device)
        for i in range(M):
            eye.narrow(eye.dim() - 2, i, 1).narrow(eye.dim() - 1, i, 1).fill_(1.0)
        # P = (row interchanges applied to I)^T: P^T = rows of I permuted by the pivots
        pt = _lu_permute_rows(eye, piv, K)
        P = _t(pt).contiguous()
    else:
        P = torch.empty([0], dtype=lu.dtype, device=lu.device)
    return P, L, U


@triton.jit
def split_kernel(lu_ptr, l_ptr, u_ptr, M, N, K, BLOCK: tl.constexpr):
    m = tl.program_id(axis=0).to(tl.int64)
    r = tl.program_id(axis=1).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    v = tl.load(lu_ptr + m * M * N + r * N + cols, mask=cols < N, other=0)
    lv = tl.where(cols < r, v, tl.where(cols == r, 1.0, 0.0))
    tl.store(l_ptr + m * M * K + r * K + cols, lv, mask=cols < K)
    uv = tl.where(cols >= r, v, 0.0)
    tl.store(u_ptr + m * K * N + r * N + cols, uv, mask=(cols < N) & ((cols * 0 + r) < K))


def _tri_split(lu, L, U, M, N, K):
    b = _batch(lu)
    if b == 0 or M == 0 or N == 0:
        return
    split_kernel[(b, M)](lu.contiguous(), L, U, M, N, K, BLOCK=triton.next_power_of_2(N if N > K else K))


@triton.jit
def permute_rows_kernel(x_ptr, piv_ptr, n_rows, n_cols, K, BLOCK: tl.constexpr):
    m = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    cmask = cols < n_cols
    base = m * n_rows * n_cols
    for i in range(0, K):
        p = tl.load(piv_ptr + m * K + i).to(tl.int64) - 1
        ri = tl.load(x_ptr + base + i * n_cols + cols, mask=cmask, other=0)
        rp = tl.load(x_ptr + base + p * n_cols + cols, mask=cmask, other=0)
        tl.store(x_ptr + base + i * n_cols + cols, rp, mask=cmask)
        tl.store(x_ptr + base + p * n_cols + cols, ri, mask=cmask)
        tl.debug_barrier()


def _lu_permute_rows(x, piv, K):
    b = _batch(x)
    n = x.shape[x.dim() - 1]
    if b > 0 and K > 0:
        permute_rows_kernel[(b, )](x, piv.contiguous(), x.shape[x.dim() - 2], n, K, BLOCK=triton.next_power_of_2(n))
    return x


def _lu(A, pivot):
    lu, piv, info = _lu_factor(A)
    return _unpack(lu, piv, True, True)


def _solve_ex(A, B, left):
    # torch 2.x returns the LU factors of A itself (1.13 factored A^T of a contiguous A)
    lu, piv, info = _lu_factor(A.contiguous())
    vec = B.dim() == 1 or (B.dim() == A.dim() - 1 and left)
    b = B.unsqueeze(B.dim()) if vec else B
    x = _lu_solve(lu, piv, b, left, False)
    if vec:
        x = x.squeeze(x.dim() - 1)
    return x, lu, piv, info


def _inv_ex(A):
    n = A.shape[A.dim() - 1]
    eye = torch.zeros(A.shape, dtype=A.dtype, device=A.device)
    for i in range(n):
        eye.narrow(eye.dim() - 2, i, 1).narrow(eye.dim() - 1, i, 1).fill_(1.0)
    lu, piv, info = _lu_factor(A)
    return _lu_solve(lu, piv, eye, True, False), info


def _det_parts(A):
    # ATen factors A^T of a contiguous A (same determinant, no copy in column-major LAPACK), any
    # other A as is
    lu, piv, info = _lu_factor(_t(A).contiguous() if A.is_contiguous() else A.contiguous())
    lead = [A.shape[d] for d in range(A.dim() - 2)]
    det = torch.empty(lead, dtype=A.dtype, device=A.device)
    logs = torch.empty(lead + [2], dtype=A.dtype, device=A.device)
    b = _batch(A)
    n = A.shape[A.dim() - 1]
    if b > 0:
        det_kernel[(b, )](lu, piv, det, logs, n, BLOCK=2)
    return det, logs, lu, piv


def _det(A):
    det, logs, lu, piv = _det_parts(A)
    return det, lu, piv


def _slogdet(A):
    det, logs, lu, piv = _det_parts(A)
    sign = logs.narrow(logs.dim() - 1, 0, 1).squeeze(logs.dim() - 1).contiguous()
    logabs = logs.narrow(logs.dim() - 1, 1, 1).squeeze(logs.dim() - 1).contiguous()
    return sign, logabs, lu, piv


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
