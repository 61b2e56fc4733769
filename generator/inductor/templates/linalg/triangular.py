"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, triangular template):
Cholesky factorization and triangular solves on small batched float32
matrices, one program per matrix. Cholesky goes column by column as LAPACK's
unblocked potf2 does (the diagonal from a dot product, the column below it
scaled by the pivot's reciprocal); a triangular solve substitutes row by row
for every right-hand column at once (lanes over columns), subtracting the
known terms in order before dividing by the diagonal. Transposes, the right
side and upper factors are handled by transposing operands in the wrapper;
cholesky_solve and cholesky_inverse are two solves.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def cholesky_kernel(a_ptr, l_ptr, info_ptr, n, BLOCK: tl.constexpr):
    # lower factor of each n x n matrix (row-major); info: 0, or the order of the first bad pivot
    m = tl.program_id(axis=0).to(tl.int64)
    base = m * n * n
    rows = tl.arange(0, BLOCK)
    rmask = rows < n
    info = tl.zeros([BLOCK], dtype=tl.int32)
    for j in range(0, n):
        s = tl.load(a_ptr + base + rows * n + j, mask=rmask, other=0)
        d = tl.load(a_ptr + base + j * n + j + rows * 0)
        for k in range(0, j):
            ljk = tl.load(l_ptr + base + j * n + k + rows * 0)
            lik = tl.load(l_ptr + base + rows * n + k, mask=rmask, other=0)
            s = s - lik * ljk
            d = d - ljk * ljk
        bad = (d <= 0.0) | (d != d)
        info = tl.where(bad & (info == 0), j + 1, info)
        piv = tl.sqrt(d)
        col = tl.where(rows == j, piv, tl.where(rows > j, s * (1.0 / piv), 0.0))
        tl.store(l_ptr + base + rows * n + j, col, mask=rmask)
        tl.debug_barrier()
    tl.store(info_ptr + m + rows * 0, info, mask=rows < 1)


@triton.jit
def trsm_kernel(a_ptr, b_ptr, x_ptr, n, k_cols, LOWER: tl.constexpr, UNIT: tl.constexpr, BLOCK: tl.constexpr):
    # X = A^-1 B for triangular A (n x n) and B (n x k_cols), one batch entry per program
    m = tl.program_id(axis=0).to(tl.int64)
    abase = m * n * n
    bbase = m * n * k_cols
    cols = tl.arange(0, BLOCK)
    cmask = cols < k_cols
    for step in range(0, n):
        if LOWER:
            i = step
        else:
            i = n - 1 - step
        acc = tl.load(b_ptr + bbase + i * k_cols + cols, mask=cmask, other=0)
        for t in range(0, step):
            if LOWER:
                kk = t
            else:
                kk = n - 1 - t
            aik = tl.load(a_ptr + abase + i * n + kk + cols * 0)
            xk = tl.load(x_ptr + bbase + kk * k_cols + cols, mask=cmask, other=0)
            acc = acc - aik * xk
        if not UNIT:
            acc = acc / tl.load(a_ptr + abase + i * n + i + cols * 0)
        tl.store(x_ptr + bbase + i * k_cols + cols, acc, mask=cmask)
        tl.debug_barrier()


def _t(x):
    return x.transpose(x.dim() - 2, x.dim() - 1)


def _trsm(a, b, lower, unit):
    # a: [..., n, n], b: [..., n, k] (same batch dims), contiguous float32 copies made here
    n = a.shape[a.dim() - 1]
    k = b.shape[b.dim() - 1]
    batch = 1
    for d in range(b.dim() - 2):
        batch *= b.shape[d]
    x = torch.empty(b.shape, dtype=b.dtype, device=b.device)
    if batch == 0 or n == 0 or k == 0:
        return x
    BLOCK = triton.next_power_of_2(k)
    trsm_kernel[(batch, )](a.contiguous(), b.contiguous(), x, n, k, LOWER=lower, UNIT=unit, BLOCK=BLOCK)
    return x


def _broadcast(a, b):
    batch = torch.broadcast_shapes([a.shape[d] for d in range(a.dim() - 2)], [b.shape[d] for d in range(b.dim() - 2)])
    bl = list(batch)
    na = a.shape[a.dim() - 1]
    return (a.expand(bl + [na, na]).contiguous(),
            b.expand(bl + [b.shape[b.dim() - 2], b.shape[b.dim() - 1]]).contiguous())


def _solve_triangular(A, B, upper, left, unitriangular):
    if left:
        a, b = _broadcast(A, B)
        return _trsm(a, b, not upper, unitriangular)
    # X A = B  <=>  A^T X^T = B^T
    a, b = _broadcast(_t(A), _t(B))
    return _t(_trsm(a.contiguous(), b.contiguous(), upper, unitriangular)).contiguous()


def _triangular_solve(self, A, upper, transpose, unitriangular):
    a = _t(A).contiguous() if transpose else A
    lower = upper if transpose else not upper
    aa, bb = _broadcast(a, self)
    x = _trsm(aa, bb, lower, unitriangular)
    clone = torch.empty(A.shape, dtype=A.dtype, device=A.device)
    clone.copy_(A)
    return x, clone


def _cholesky_lower(self):
    n = self.shape[self.dim() - 1]
    batch = 1
    for d in range(self.dim() - 2):
        batch *= self.shape[d]
    L = torch.zeros(self.shape, dtype=self.dtype, device=self.device)
    info = torch.zeros([self.shape[d] for d in range(self.dim() - 2)], dtype=torch.int32, device=self.device)
    if batch == 0 or n == 0:
        return L, info
    BLOCK = triton.next_power_of_2(n)
    cholesky_kernel[(batch, )](self.contiguous(), L, info, n, BLOCK=BLOCK)
    return L, info


def _cholesky(self, upper):
    L, info = _cholesky_lower(self)
    return _t(L).contiguous() if upper else L


def _cholesky_ex(self, upper):
    L, info = _cholesky_lower(self)
    return (_t(L).contiguous() if upper else L), info


def _cholesky_solve(self, input2, upper):
    # (L L^T) X = B, or (U^T U) X = B
    if upper:
        a, b = _broadcast(input2, self)
        y = _trsm(_t(a).contiguous(), b, True, False)
        return _trsm(a, y, False, False)
    a, b = _broadcast(input2, self)
    y = _trsm(a, b, True, False)
    return _trsm(_t(a).contiguous(), y, False, False)


def _eye_like(a):
    n = a.shape[a.dim() - 1]
    eye = torch.zeros(a.shape, dtype=a.dtype, device=a.device)
    for i in range(n):
        eye.narrow(eye.dim() - 2, i, 1).narrow(eye.dim() - 1, i, 1).fill_(1.0)
    return eye


def _cholesky_inverse(self, upper):
    return _cholesky_solve(_eye_like(self), self, upper)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
