"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, qr template):
Householder QR as LAPACK's geqr2 computes it (per column: the reflector from
the column's norm, beta = -sign(alpha) hypot(alpha, norm), tau = (beta -
alpha) / beta, v scaled by 1 / (alpha - beta); then the reflector applied to
the trailing columns), and the products of those reflectors: householder
product (Q), ormqr (Q or Q^T times a matrix, from either side) and linalg_qr.
One program per matrix; the wrapper transposes operands so that the vectors
a kernel walks are rows (lanes over their elements).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def geqr2_kernel(at_ptr, tau_ptr, M, N, K, BLOCK: tl.constexpr):
    # at: A^T (N rows of length M), factored in place; tau: K values
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * N * M
    i = tl.arange(0, BLOCK)
    inm = i < M
    for k in range(0, K):
        x = tl.load(at_ptr + base + k * M + i, mask=inm, other=0)
        alpha = tl.sum(tl.where(i == k, x, 0.0), axis=0)
        tail = tl.where(inm & (i > k), x, 0.0)
        xnorm = tl.sqrt(tl.sum(tail * tail, axis=0))
        big = tl.maximum(tl.abs(alpha), xnorm)
        small = tl.minimum(tl.abs(alpha), xnorm)
        hyp = tl.where(big == 0.0, 0.0, big * tl.sqrt(1.0 + (small / big) * (small / big)))
        beta = tl.where(alpha >= 0.0, -hyp, hyp)
        zero = xnorm == 0.0
        tau = tl.where(zero, 0.0, (beta - alpha) / beta)
        scal = 1.0 / (alpha - beta)
        v = tl.where(i > k, tl.where(zero, x, x * scal), tl.where(i == k, tl.where(zero, alpha, beta), x))
        tl.store(at_ptr + base + k * M + i, v, mask=inm)
        tl.store(tau_ptr + mat * K + k + i * 0, tau + i * 0.0, mask=i < 1)
        vv = tl.where(i == k, 1.0, tl.where(i > k, v, 0.0))
        for j in range(k + 1, N):
            row = tl.load(at_ptr + base + j * M + i, mask=inm, other=0)
            w = tl.sum(tl.where(inm, row * vv, 0.0), axis=0)
            row = tl.where(i >= k, row - tau * w * vv, row)
            tl.store(at_ptr + base + j * M + i, row, mask=inm)
        tl.debug_barrier()


@triton.jit
def reflect_rows_kernel(vt_ptr, tau_ptr, x_ptr, R, M, K, n_vt, REVERSE: tl.constexpr, BLOCK: tl.constexpr):
    # every row r of x (R x M) becomes x_r H_0 H_1 ... (REVERSE: ... H_1 H_0) with H_i = I - tau_i v_i v_i^T,
    # v_i = (0.., 1, vt[i, i+1:])
    mat = tl.program_id(axis=0).to(tl.int64)
    i = tl.arange(0, BLOCK)
    inm = i < M
    for s in range(0, K):
        if REVERSE:
            q = K - 1 - s
        else:
            q = s
        vrow = tl.load(vt_ptr + mat * n_vt * M + q * M + i, mask=inm, other=0)
        vv = tl.where(i == q, 1.0, tl.where(i > q, vrow, 0.0))
        tau = tl.load(tau_ptr + mat * K + q)
        for r in range(0, R):
            row = tl.load(x_ptr + mat * R * M + r * M + i, mask=inm, other=0)
            w = tl.sum(tl.where(inm, row * vv, 0.0), axis=0)
            tl.store(x_ptr + mat * R * M + r * M + i, row - tau * w * vv, mask=inm)
        tl.debug_barrier()


def _t(x):
    return x.transpose(x.dim() - 2, x.dim() - 1)


def _batch(a):
    b = 1
    for d in range(a.dim() - 2):
        b *= a.shape[d]
    return b


def _geqrf(self):
    M = self.shape[self.dim() - 2]
    N = self.shape[self.dim() - 1]
    K = M if M < N else N
    lead = [self.shape[d] for d in range(self.dim() - 2)]
    at = _t(self).contiguous()
    tau = torch.empty(lead + [K], dtype=self.dtype, device=self.device)
    b = _batch(self)
    if b > 0 and K > 0:
        geqr2_kernel[(b, )](at, tau, M, N, K, BLOCK=triton.next_power_of_2(M))
    return _t(at).contiguous(), tau


def _apply(v, tau, xrows, reverse):
    # xrows: [..., R, M] contiguous, changed in place
    M = xrows.shape[xrows.dim() - 1]
    R = xrows.shape[xrows.dim() - 2]
    K = tau.shape[tau.dim() - 1]
    vt = _t(v).contiguous()
    b = _batch(xrows)
    if b > 0 and K > 0 and R > 0 and M > 0:
        reflect_rows_kernel[(b, )](vt, tau.contiguous(), xrows, R, M, K, vt.shape[vt.dim() - 2], REVERSE=reverse,
                                   BLOCK=triton.next_power_of_2(M))
    return xrows


def _eye_cols(v, n):
    # the first n columns of the m x m identity, transposed: n rows of length m
    M = v.shape[v.dim() - 2]
    lead = [v.shape[d] for d in range(v.dim() - 2)]
    e = torch.zeros(lead + [n, M], dtype=v.dtype, device=v.device)
    for j in range(n if n < M else M):
        e.narrow(e.dim() - 2, j, 1).narrow(e.dim() - 1, j, 1).fill_(1.0)
    return e


def _householder_product(input, tau):
    n = input.shape[input.dim() - 1]
    # Q C with C = I[:, :n]: rows of C^T are reflected by H_{k-1} first (C^T Q^T = C^T H_{k-1} ... H_0)
    qt = _apply(input, tau, _eye_cols(input, n), True)
    return _t(qt).contiguous()


def _ormqr(self, input2, input3, left, transpose):
    # Q = H_0 H_1 ... H_{k-1} from (self, input2); result op(Q) C or C op(Q) with C = input3
    if left:
        ct = _t(input3).contiguous()
        # (Q C)^T = C^T Q^T = C^T H_{k-1} ... H_0 ; (Q^T C)^T = C^T Q = C^T H_0 ... H_{k-1}
        return _t(_apply(self, input2, ct, not transpose)).contiguous()
    c = input3.contiguous()
    # C Q = C H_0 ... H_{k-1} ; C Q^T = C H_{k-1} ... H_0
    out = torch.empty(c.shape, dtype=c.dtype, device=c.device)
    out.copy_(c)
    return _apply(self, input2, out, transpose)


def _qr(A, mode):
    M = A.shape[A.dim() - 2]
    N = A.shape[A.dim() - 1]
    K = M if M < N else N
    a, tau = _geqrf(A)
    # R: the upper triangle of the first K rows (all M rows for mode "complete")
    rows = M if mode == "complete" else K
    r_full = _triu(a)
    R = r_full.narrow(r_full.dim() - 2, 0, rows).contiguous()
    if mode == "r":
        return torch.empty([0], dtype=A.dtype, device=A.device), R
    ncols = K if mode == "reduced" else M
    qt = _apply(a, tau, _eye_cols(a, ncols), True)
    return _t(qt).contiguous(), R


@triton.jit
def triu_kernel(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    mat = tl.program_id(axis=0).to(tl.int64)
    r = tl.program_id(axis=1).to(tl.int64)
    c = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + mat * M * N + r * N + c, mask=c < N, other=0)
    tl.store(out_ptr + mat * M * N + r * N + c, tl.where(c >= r, v, 0.0), mask=c < N)


def _triu(a):
    out = torch.empty(a.shape, dtype=a.dtype, device=a.device)
    M = a.shape[a.dim() - 2]
    N = a.shape[a.dim() - 1]
    b = _batch(a)
    if b > 0 and M > 0 and N > 0:
        triu_kernel[(b, M)](a.contiguous(), out, M, N, BLOCK=triton.next_power_of_2(N))
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
