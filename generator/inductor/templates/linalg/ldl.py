"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, ldl template): the
symmetric indefinite factorization A = P L D L^T P^T with Bunch-Kaufman
pivoting in LAPACK's unblocked sytf2 order for the lower triangle (alpha =
(1 + sqrt(17)) / 8; a 1x1 pivot when |a_kk| dominates the column, else a 1x1
pivot on the row/column of the column's largest entry or a 2x2 pivot; rows and
columns interchanged only in the trailing matrix; a rank-1 or rank-2 update of
its lower triangle) and the solve with that factorization as sytrs does it
(interchanges interleaved with L's columns, then D's 1x1 and 2x2 blocks, then
L^T in reverse). Pivots are 1-based int32 as LAPACK returns them (a 2x2 block
stores -p twice); the strict upper triangle of LD is zero. One program per
matrix; float32 throughout.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def sytf2_kernel(a_ptr, piv_ptr, info_ptr, N, BLOCK: tl.constexpr):
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * N * N
    i = tl.arange(0, BLOCK)
    inn = i < N
    first = i < 1
    alpha = 0.6403882032022076
    info = tl.zeros([BLOCK], dtype=tl.int32)
    skip = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, N):
        act = skip == 0
        colk = tl.load(a_ptr + base + i * N + k, mask=inn, other=0)
        absakk = tl.abs(tl.sum(tl.where(i == k, colk, 0.0), axis=0)) + i * 0.0
        below = inn & (i > k)
        cabs = tl.where(below, tl.abs(colk), -1.0)
        colmax = tl.maximum(tl.max(cabs, axis=0) + i * 0.0, 0.0)
        imax = tl.min(tl.where(below & (cabs == colmax), i, BLOCK), axis=0) + i * 0
        imax = tl.where(imax >= N, k, imax)
        zero = (tl.maximum(absakk, colmax) == 0.0) | (absakk != absakk)
        seg = inn & (i >= k) & (i < imax)
        rowi = tl.load(a_ptr + base + imax * N + i, mask=seg, other=0)
        rmax = tl.max(tl.where(seg, tl.abs(rowi), 0.0), axis=0) + i * 0.0
        tail = inn & (i > imax)
        coli = tl.load(a_ptr + base + i * N + imax, mask=tail, other=0)
        rowmax = tl.maximum(rmax, tl.max(tl.where(tail, tl.abs(coli), 0.0), axis=0) + i * 0.0)
        aii = tl.abs(tl.load(a_ptr + base + imax * N + imax))
        c1 = absakk >= alpha * colmax
        c2 = absakk >= alpha * colmax * (colmax / tl.where(rowmax > 0.0, rowmax, 1.0))
        c3 = aii >= alpha * rowmax
        keep = zero | c1 | c2
        kp = tl.where(keep, k, imax)
        two = (keep == 0) & (c3 == 0)
        kk = tl.where(two, k + 1, k)
        swp = act & (kp != kk)
        # interchange rows and columns kk and kp of the trailing matrix (lower triangle)
        m1 = swp & inn & (i > kp)
        ca = tl.load(a_ptr + base + i * N + kk, mask=m1, other=0)
        cb = tl.load(a_ptr + base + i * N + kp, mask=m1, other=0)
        tl.store(a_ptr + base + i * N + kk, cb, mask=m1)
        tl.store(a_ptr + base + i * N + kp, ca, mask=m1)
        m2 = swp & (i > kk) & (i < kp)
        ca = tl.load(a_ptr + base + i * N + kk, mask=m2, other=0)
        rb = tl.load(a_ptr + base + kp * N + i, mask=m2, other=0)
        tl.store(a_ptr + base + i * N + kk, rb, mask=m2)
        tl.store(a_ptr + base + kp * N + i, ca, mask=m2)
        m3 = swp & first
        da = tl.load(a_ptr + base + kk * N + kk, mask=m3, other=0)
        db = tl.load(a_ptr + base + kp * N + kp, mask=m3, other=0)
        tl.store(a_ptr + base + kk * N + kk, db, mask=m3)
        tl.store(a_ptr + base + kp * N + kp, da, mask=m3)
        m4 = swp & two & first
        ea = tl.load(a_ptr + base + (k + 1) * N + k + i * 0, mask=m4, other=0)
        eb = tl.load(a_ptr + base + kp * N + k, mask=m4, other=0)
        tl.store(a_ptr + base + (k + 1) * N + k + i * 0, eb, mask=m4)
        tl.store(a_ptr + base + kp * N + k, ea, mask=m4)
        tl.debug_barrier()
        upd = act & (zero == 0)
        one = upd & (two == 0)
        pair = upd & two & ((k + 2 + i * 0) < N)
        akk = tl.load(a_ptr + base + k * N + k + i * 0)
        ak1 = tl.load(a_ptr + base + (k + 1) * N + k + i * 0, mask=(k + 1 + i * 0) < N, other=1.0)
        ak11 = tl.load(a_ptr + base + (k + 1) * N + k + 1 + i * 0, mask=(k + 1 + i * 0) < N, other=0.0)
        d11 = 1.0 / tl.where(one, akk, 1.0)
        d21 = tl.where(pair, ak1, 1.0)
        e11 = ak11 / d21
        e22 = akk / d21
        tt = 1.0 / (e11 * e22 - 1.0)
        d21 = tt / d21
        for j in range(k + 1, N):
            ajk = tl.load(a_ptr + base + j * N + k + i * 0)
            ajk1 = tl.load(a_ptr + base + j * N + k + 1 + i * 0)
            wk = d21 * (e11 * ajk - ajk1)
            wkp1 = d21 * (e22 * ajk1 - ajk)
            rows = inn & (i >= j)
            colj = tl.load(a_ptr + base + i * N + j, mask=rows, other=0)
            cik = tl.load(a_ptr + base + i * N + k, mask=rows, other=0)
            cik1 = tl.load(a_ptr + base + i * N + k + 1, mask=rows, other=0)
            new1 = colj + cik * (-d11 * ajk)
            new2 = colj - (cik * wk + cik1 * wkp1)
            tl.store(a_ptr + base + i * N + j, new1, mask=rows & one)
            tl.store(a_ptr + base + i * N + j, new2, mask=rows & pair & ((j + i * 0) >= k + 2))
            tl.debug_barrier()
            tl.store(a_ptr + base + j * N + k + i * 0, wk, mask=first & pair & ((j + i * 0) >= k + 2))
            tl.store(a_ptr + base + j * N + k + 1 + i * 0, wkp1, mask=first & pair & ((j + i * 0) >= k + 2))
            tl.debug_barrier()
        colk = tl.load(a_ptr + base + i * N + k, mask=below & one, other=0)
        tl.store(a_ptr + base + i * N + k, colk * d11, mask=below & one)
        p = tl.where(two, -(kp + 1), kp + 1).to(tl.int32)
        tl.store(piv_ptr + mat * N + k + i * 0, p, mask=first & act)
        tl.store(piv_ptr + mat * N + k + 1 + i * 0, p, mask=first & act & two & ((k + 1 + i * 0) < N))
        info = tl.where(act & zero & (info == 0), k + 1, info)
        skip = tl.where(act & two, 1, 0)
        tl.debug_barrier()
    for r in range(0, N):
        tl.store(a_ptr + base + r * N + i, tl.zeros([BLOCK], dtype=tl.float32), mask=inn & (i > r))
    tl.store(info_ptr + mat + i * 0, info, mask=first)


@triton.jit
def sytrs_kernel(ld_ptr, piv_ptr, x_ptr, n, k_cols, BLOCK: tl.constexpr):
    # x (n x k_cols, a copy of B on entry) becomes A^-1 B for A = P L D L^T P^T
    m = tl.program_id(axis=0).to(tl.int64)
    abase = m * n * n
    xbase = m * n * k_cols
    cols = tl.arange(0, BLOCK)
    cmask = cols < k_cols
    skip = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, n):
        # L D y = P^T b
        pk = tl.load(piv_ptr + m * n + k + cols * 0)
        act = skip == 0
        one = act & (pk > 0)
        two = act & (pk < 0)
        r1 = tl.where(two, k + 1, k)
        kp = tl.where(pk > 0, pk - 1, -pk - 1).to(tl.int64)
        sw = (one | two) & (kp != r1) & cmask
        xa = tl.load(x_ptr + xbase + r1 * k_cols + cols, mask=sw, other=0)
        xb = tl.load(x_ptr + xbase + kp * k_cols + cols, mask=sw, other=0)
        tl.store(x_ptr + xbase + r1 * k_cols + cols, xb, mask=sw)
        tl.store(x_ptr + xbase + kp * k_cols + cols, xa, mask=sw)
        tl.debug_barrier()
        xk = tl.load(x_ptr + xbase + k * k_cols + cols, mask=cmask, other=0)
        xk1 = tl.load(x_ptr + xbase + (k + 1) * k_cols + cols, mask=cmask & ((k + 1 + cols * 0) < n), other=0)
        for i in range(k + 1, n):
            xi = tl.load(x_ptr + xbase + i * k_cols + cols, mask=cmask, other=0)
            aik = tl.load(ld_ptr + abase + i * n + k + cols * 0)
            aik1 = tl.load(ld_ptr + abase + i * n + k + 1 + cols * 0, mask=(k + 1 + cols * 0) < n, other=0)
            xi = tl.where(one, xi - aik * xk, tl.where(two & (i >= k + 2), xi - aik * xk - aik1 * xk1, xi))
            tl.store(x_ptr + xbase + i * k_cols + cols, xi, mask=cmask)
        tl.debug_barrier()
        akk = tl.load(ld_ptr + abase + k * n + k + cols * 0)
        tl.store(x_ptr + xbase + k * k_cols + cols, xk / akk, mask=cmask & one)
        akm1k = tl.load(ld_ptr + abase + (k + 1) * n + k + cols * 0, mask=two, other=1.0)
        ak11 = tl.load(ld_ptr + abase + (k + 1) * n + k + 1 + cols * 0, mask=two, other=1.0)
        akm1 = akk / akm1k
        ak = ak11 / akm1k
        denom = akm1 * ak - 1.0
        bkm1 = xk / akm1k
        bk = xk1 / akm1k
        tl.store(x_ptr + xbase + k * k_cols + cols, (ak * bkm1 - bk) / denom, mask=cmask & two)
        tl.store(x_ptr + xbase + (k + 1) * k_cols + cols, (akm1 * bk - bkm1) / denom, mask=cmask & two)
        skip = tl.where(two, 1, 0)
        tl.debug_barrier()
    skip = tl.zeros([BLOCK], dtype=tl.int32)
    for s in range(0, n):
        # L^T x = y, then the interchanges in reverse
        k = n - 1 - s
        pk = tl.load(piv_ptr + m * n + k + cols * 0)
        act = skip == 0
        one = act & (pk > 0)
        two = act & (pk < 0)
        acc = tl.load(x_ptr + xbase + k * k_cols + cols, mask=cmask, other=0)
        acc1 = tl.load(x_ptr + xbase + (k - 1) * k_cols + cols, mask=cmask & two, other=0)
        for i in range(k + 1, n):
            xi = tl.load(x_ptr + xbase + i * k_cols + cols, mask=cmask, other=0)
            acc = acc - tl.load(ld_ptr + abase + i * n + k + cols * 0) * xi
            acc1 = acc1 - tl.load(ld_ptr + abase + i * n + k - 1 + cols * 0, mask=two, other=0) * xi
        tl.store(x_ptr + xbase + k * k_cols + cols, acc, mask=cmask & (one | two))
        tl.store(x_ptr + xbase + (k - 1) * k_cols + cols, acc1, mask=cmask & two)
        tl.debug_barrier()
        kp = tl.where(pk > 0, pk - 1, -pk - 1).to(tl.int64)
        sw = (one | two) & (kp != k) & cmask
        xa = tl.load(x_ptr + xbase + k * k_cols + cols, mask=sw, other=0)
        xb = tl.load(x_ptr + xbase + kp * k_cols + cols, mask=sw, other=0)
        tl.store(x_ptr + xbase + k * k_cols + cols, xb, mask=sw)
        tl.store(x_ptr + xbase + kp * k_cols + cols, xa, mask=sw)
        skip = tl.where(two, 1, 0)
        tl.debug_barrier()


def _batch(a):
    b = 1
    for d in range(a.dim() - 2):
        b *= a.shape[d]
    return b


def _ldl_factor(A):
    n = A.shape[A.dim() - 1]
    lead = [A.shape[d] for d in range(A.dim() - 2)]
    ld = torch.empty(A.shape, dtype=torch.float32, device=A.device)
    ld.copy_(A)
    piv = torch.zeros(lead + [n], dtype=torch.int32, device=A.device)
    info = torch.zeros(lead, dtype=torch.int32, device=A.device)
    b = _batch(A)
    if b > 0 and n > 0:
        sytf2_kernel[(b, )](ld, piv, info, n, BLOCK=triton.next_power_of_2(n))
    return ld.to(A.dtype), piv, info


def _ldl_solve(LD, pivots, B):
    n = LD.shape[LD.dim() - 1]
    k = B.shape[B.dim() - 1]
    batch = torch.broadcast_shapes([LD.shape[d] for d in range(LD.dim() - 2)],
                                   [pivots.shape[d] for d in range(pivots.dim() - 1)],
                                   [B.shape[d] for d in range(B.dim() - 2)])
    bl = list(batch)
    ld = LD.to(torch.float32).expand(bl + [n, n]).contiguous()
    piv = pivots.expand(bl + [n]).contiguous()
    x = torch.empty(bl + [n, k], dtype=torch.float32, device=B.device)
    x.copy_(B.expand(bl + [n, k]))
    b = _batch(x)
    if b > 0 and n > 0 and k > 0:
        sytrs_kernel[(b, )](ld, piv, x, n, k, BLOCK=triton.next_power_of_2(k))
    return x.to(B.dtype)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
