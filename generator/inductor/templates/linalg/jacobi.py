"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, jacobi template):
symmetric eigendecomposition by cyclic two-sided Jacobi sweeps (each rotation
zeroes one off-diagonal pair: theta = (a_qq - a_pp) / 2 a_pq, t the smaller
root of t^2 + 2 theta t - 1, rows then columns rotated, the rotation
accumulated into V) and the singular value decomposition by one-sided
(Hestenes) Jacobi sweeps (pairs of rows of the matrix whose columns are
orthogonalized rotated until they are orthogonal; the singular values are the
row norms). Eigenvalues come out ascending and singular values descending,
as LAPACK returns them; eigen- and singular vectors are unique only up to
sign. On them: eigh/eigvalsh, svd/svdvals, pinv (plain and hermitian),
polar, matrix_sqrth (V sqrt(L) V^T) and lstsq (the minimum-norm solution
pinv(A) B). One program per matrix, lanes over a row; float32 throughout.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def sym_eig_kernel(a_ptr, vt_ptr, w_ptr, vs_ptr, N, SWEEPS, BLOCK: tl.constexpr):
    # a: n x n symmetric, destroyed; vt: identity on entry, rows of V^T after;
    # w: eigenvalues ascending; vs: rows of V^T in that order
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * N * N
    i = tl.arange(0, BLOCK)
    inn = i < N
    for sweep in range(0, SWEEPS):
        for p in range(0, N - 1):
            for q in range(p + 1, N):
                apq = tl.load(a_ptr + base + p * N + q + i * 0)
                app = tl.load(a_ptr + base + p * N + p + i * 0)
                aqq = tl.load(a_ptr + base + q * N + q + i * 0)
                small = tl.abs(apq) <= 1.0e-7 * tl.sqrt(tl.abs(app) * tl.abs(aqq)) * 0.01
                small = small | (apq == 0.0)
                theta = (aqq - app) / (2.0 * tl.where(small, 1.0, apq))
                sgn = tl.where(theta >= 0.0, 1.0, -1.0)
                at = tl.abs(theta)
                root = tl.where(at > 1.0e18, at, tl.sqrt(theta * theta + 1.0))
                t = tl.where(small, 0.0, sgn / (at + root))
                c = 1.0 / tl.sqrt(t * t + 1.0)
                s = t * c
                rp = tl.load(a_ptr + base + p * N + i, mask=inn, other=0)
                rq = tl.load(a_ptr + base + q * N + i, mask=inn, other=0)
                tl.store(a_ptr + base + p * N + i, c * rp - s * rq, mask=inn)
                tl.store(a_ptr + base + q * N + i, s * rp + c * rq, mask=inn)
                tl.debug_barrier()
                cp = tl.load(a_ptr + base + i * N + p, mask=inn, other=0)
                cq = tl.load(a_ptr + base + i * N + q, mask=inn, other=0)
                tl.store(a_ptr + base + i * N + p, c * cp - s * cq, mask=inn)
                tl.store(a_ptr + base + i * N + q, s * cp + c * cq, mask=inn)
                tl.debug_barrier()
                zero = tl.zeros([BLOCK], dtype=tl.float32)
                tl.store(a_ptr + base + p * N + q + i * 0, zero, mask=(i < 1) & (t != 0.0))
                tl.store(a_ptr + base + q * N + p + i * 0, zero, mask=(i < 1) & (t != 0.0))
                vp = tl.load(vt_ptr + base + p * N + i, mask=inn, other=0)
                vq = tl.load(vt_ptr + base + q * N + i, mask=inn, other=0)
                tl.store(vt_ptr + base + p * N + i, c * vp - s * vq, mask=inn)
                tl.store(vt_ptr + base + q * N + i, s * vp + c * vq, mask=inn)
                tl.debug_barrier()
    d = tl.load(a_ptr + base + i * (N + 1), mask=inn, other=0)
    avail = inn
    for k in range(0, N):
        best = tl.min(tl.where(avail, d, 3.0e38), axis=0)
        idx = tl.min(tl.where(avail & (d == best), i, BLOCK), axis=0)
        tl.store(w_ptr + mat * N + k + i * 0, best + i * 0.0, mask=i < 1)
        row = tl.load(vt_ptr + base + idx * N + i, mask=inn, other=0)
        tl.store(vs_ptr + base + k * N + i, row, mask=inn)
        avail = avail & (i != idx)


@triton.jit
def one_sided_kernel(g_ptr, vt_ptr, s_ptr, us_ptr, vs_ptr, R, L, SWEEPS, BLOCK: tl.constexpr):
    # g: R rows of length L (R <= L), rotated until the rows are orthogonal; vt: R x R identity on
    # entry, the accumulated rotation after; s: row norms descending; us: the rows of g in that
    # order divided by their norms; vs: the rows of vt in that order
    mat = tl.program_id(axis=0).to(tl.int64)
    gbase = mat * R * L
    vbase = mat * R * R
    i = tl.arange(0, BLOCK)
    inl = i < L
    inr = i < R
    for sweep in range(0, SWEEPS):
        for p in range(0, R - 1):
            for q in range(p + 1, R):
                gp = tl.load(g_ptr + gbase + p * L + i, mask=inl, other=0)
                gq = tl.load(g_ptr + gbase + q * L + i, mask=inl, other=0)
                alpha = tl.sum(gp * gp, axis=0)
                beta = tl.sum(gq * gq, axis=0)
                gamma = tl.sum(gp * gq, axis=0)
                small = (tl.abs(gamma) <= 1.0e-9 * tl.sqrt(alpha * beta)) | (gamma == 0.0)
                zeta = (beta - alpha) / (2.0 * tl.where(small, 1.0, gamma))
                sgn = tl.where(zeta >= 0.0, 1.0, -1.0)
                az = tl.abs(zeta)
                root = tl.where(az > 1.0e18, az, tl.sqrt(zeta * zeta + 1.0))
                t = tl.where(small, 0.0, sgn / (az + root))
                c = 1.0 / tl.sqrt(t * t + 1.0)
                s = t * c
                tl.store(g_ptr + gbase + p * L + i, c * gp - s * gq, mask=inl)
                tl.store(g_ptr + gbase + q * L + i, s * gp + c * gq, mask=inl)
                vp = tl.load(vt_ptr + vbase + p * R + i, mask=inr, other=0)
                vq = tl.load(vt_ptr + vbase + q * R + i, mask=inr, other=0)
                tl.store(vt_ptr + vbase + p * R + i, c * vp - s * vq, mask=inr)
                tl.store(vt_ptr + vbase + q * R + i, s * vp + c * vq, mask=inr)
                tl.debug_barrier()
    norms = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, R):
        gr = tl.load(g_ptr + gbase + r * L + i, mask=inl, other=0)
        nr = tl.sqrt(tl.sum(gr * gr, axis=0))
        norms = tl.where(i == r, nr, norms)
    avail = inr
    for k in range(0, R):
        best = tl.max(tl.where(avail, norms, -1.0), axis=0)
        idx = tl.min(tl.where(avail & (norms == best), i, BLOCK), axis=0)
        tl.store(s_ptr + mat * R + k + i * 0, best + i * 0.0, mask=i < 1)
        gr = tl.load(g_ptr + gbase + idx * L + i, mask=inl, other=0)
        scale = tl.where(best > 0.0, 1.0 / tl.where(best > 0.0, best, 1.0), 0.0)
        tl.store(us_ptr + gbase + k * L + i, gr * scale, mask=inl)
        vr = tl.load(vt_ptr + vbase + idx * R + i, mask=inr, other=0)
        tl.store(vs_ptr + vbase + k * R + i, vr, mask=inr)
        avail = avail & (i != idx)


@triton.jit
def complete_kernel(q_ptr, H, R, L, BLOCK: tl.constexpr):
    # q: R rows of length L, rows 0..H-1 orthonormal or zero (the vectors of zero singular values);
    # each zero row and each row from H on becomes the standard basis vector with the largest part
    # outside the rows before it, orthogonalized against them (Gram-Schmidt twice) and normalized
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * R * L
    i = tl.arange(0, BLOCK)
    inl = i < L
    for r in range(0, R):
        old = tl.load(q_ptr + base + r * L + i, mask=inl, other=0)
        need = ((r + i * 0) >= H) | (tl.sum(old * old, axis=0) + i * 0.0 == 0.0)
        best = tl.zeros([BLOCK], dtype=tl.float32) - 1.0
        pick = tl.zeros([BLOCK], dtype=tl.int32)
        for t in range(0, L):
            v = tl.where(i == t, 1.0, 0.0)
            for s in range(0, r):
                qs = tl.load(q_ptr + base + s * L + i, mask=inl, other=0)
                v = v - tl.sum(qs * v, axis=0) * qs
            nv = tl.sum(v * v, axis=0)
            better = nv > best + 1.0e-4
            best = tl.where(better, nv, best)
            pick = tl.where(better, t, pick)
        v = tl.where(i == pick, 1.0, 0.0)
        for rep in range(0, 2):
            for s in range(0, r):
                qs = tl.load(q_ptr + base + s * L + i, mask=inl, other=0)
                v = v - tl.sum(qs * v, axis=0) * qs
        v = v / tl.sqrt(tl.sum(v * v, axis=0))
        tl.store(q_ptr + base + r * L + i, v, mask=inl & need)
        tl.debug_barrier()


@triton.jit
def symmetrize_kernel(a_ptr, out_ptr, N, UPPER: tl.constexpr, BLOCK: tl.constexpr):
    # out = the symmetric matrix of a's lower (UPPER: upper) triangle
    mat = tl.program_id(axis=0).to(tl.int64)
    r = tl.program_id(axis=1).to(tl.int64)
    base = mat * N * N
    i = tl.arange(0, BLOCK)
    inn = i < N
    row = tl.load(a_ptr + base + r * N + i, mask=inn, other=0)
    col = tl.load(a_ptr + base + i * N + r, mask=inn, other=0)
    if UPPER:
        v = tl.where(i >= r, row, col)
    else:
        v = tl.where(i <= r, row, col)
    tl.store(out_ptr + base + r * N + i, v, mask=inn)


@triton.jit
def spectral_kernel(w_ptr, out_ptr, atol_ptr, rtol_ptr, K, default_rtol, MODE: tl.constexpr,
                    RTOL_FROM_ATOL: tl.constexpr, BLOCK: tl.constexpr):
    # MODE 0: sqrt(w); 1: 1/w where |w| > max(atol, rtol * max|w|), else 0 (atol, rtol per matrix;
    # RTOL_FROM_ATOL: rtol is default_rtol where atol <= 0, else 0)
    mat = tl.program_id(axis=0).to(tl.int64)
    i = tl.arange(0, BLOCK)
    ink = i < K
    w = tl.load(w_ptr + mat * K + i, mask=ink, other=0)
    if MODE == 0:
        f = tl.sqrt(w)
    else:
        atol = tl.load(atol_ptr + mat + i * 0)
        rtol = tl.load(rtol_ptr + mat + i * 0)
        if RTOL_FROM_ATOL:
            rtol = tl.where(atol > 0.0, 0.0, default_rtol)
        big = tl.max(tl.where(ink, tl.abs(w), 0.0), axis=0)
        tol = tl.maximum(atol, rtol * big)
        keep = tl.abs(w) > tol
        f = tl.where(keep, 1.0 / tl.where(keep, w, 1.0), 0.0)
    tl.store(out_ptr + mat * K + i, f, mask=ink)


@triton.jit
def rank_kernel(s_ptr, rank_ptr, K, rcond, BLOCK: tl.constexpr):
    # the number of singular values (descending) above rcond times the largest
    mat = tl.program_id(axis=0).to(tl.int64)
    i = tl.arange(0, BLOCK)
    ink = i < K
    s = tl.load(s_ptr + mat * K + i, mask=ink, other=0)
    big = tl.max(s, axis=0)
    count = tl.sum(tl.where(ink & (s > rcond * big), 1, 0), axis=0)
    tl.store(rank_ptr + mat + i * 0, (count + i * 0).to(tl.int64), mask=i < 1)


@triton.jit
def residual_kernel(a_ptr, x_ptr, b_ptr, out_ptr, M, N, K, BLOCK: tl.constexpr):
    # out[j] = sum_r (b[r, j] - sum_c a[r, c] x[c, j])^2 for one matrix per program
    mat = tl.program_id(axis=0).to(tl.int64)
    j = tl.arange(0, BLOCK)
    ink = j < K
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, M):
        row = tl.load(b_ptr + mat * M * K + r * K + j, mask=ink, other=0)
        for c in range(0, N):
            row = row - tl.load(a_ptr + mat * M * N + r * N + c + j * 0) * tl.load(
                x_ptr + mat * N * K + c * K + j, mask=ink, other=0)
        acc = acc + row * row
    tl.store(out_ptr + mat * K + j, acc, mask=ink)


@triton.jit
def scaled_product_kernel(x_ptr, d_ptr, y_ptr, out_ptr, R, K, C, BLOCK: tl.constexpr):
    # out[r, :] = sum_k x[r, k] d[k] y[k, :] for one matrix of the batch per program row
    mat = tl.program_id(axis=0).to(tl.int64)
    r = tl.program_id(axis=1).to(tl.int64)
    j = tl.arange(0, BLOCK)
    inc = j < C
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, K):
        xv = tl.load(x_ptr + mat * R * K + r * K + k + j * 0)
        dv = tl.load(d_ptr + mat * K + k + j * 0)
        yv = tl.load(y_ptr + mat * K * C + k * C + j, mask=inc, other=0)
        acc = acc + (xv * dv) * yv
    tl.store(out_ptr + mat * R * C + r * C + j, acc, mask=inc)


def _t(x):
    return x.transpose(x.dim() - 2, x.dim() - 1)


def _batch(a):
    b = 1
    for d in range(a.dim() - 2):
        b *= a.shape[d]
    return b


def _lead(a):
    return [a.shape[d] for d in range(a.dim() - 2)]


def _eye(lead, n, device):
    e = torch.zeros(lead + [n, n], dtype=torch.float32, device=device)
    for j in range(n):
        e.narrow(e.dim() - 2, j, 1).narrow(e.dim() - 1, j, 1).fill_(1.0)
    return e


def _sweeps(n):
    return 6 + n // 4 if n < 40 else 16


def _eigh_parts(A, upper):
    # eigenvalues ascending [..., n] and V^T [..., n, n] (row i: the eigenvector of eigenvalue i)
    n = A.shape[A.dim() - 1]
    lead = _lead(A)
    a = A.to(torch.float32).contiguous()
    w = torch.empty(lead + [n], dtype=torch.float32, device=A.device)
    vs = torch.empty(lead + [n, n], dtype=torch.float32, device=A.device)
    b = _batch(A)
    if b > 0 and n > 0:
        BLOCK = triton.next_power_of_2(n)
        sym = torch.empty(lead + [n, n], dtype=torch.float32, device=A.device)
        symmetrize_kernel[(b, n)](a, sym, n, UPPER=upper, BLOCK=BLOCK)
        vt = _eye(lead, n, A.device)
        sym_eig_kernel[(b, )](sym, vt, w, vs, n, _sweeps(n), BLOCK=BLOCK)
    return w, vs


def _svd_parts(A):
    # U [..., m, k], S [..., k], Vh [..., k, n] with k = min(m, n), S descending
    m = A.shape[A.dim() - 2]
    n = A.shape[A.dim() - 1]
    lead = _lead(A)
    a = A.to(torch.float32)
    wide = m < n
    R = m if wide else n
    L = n if wide else m
    g = torch.empty(lead + [R, L], dtype=torch.float32, device=A.device)
    g.copy_(a if wide else _t(a))
    s = torch.empty(lead + [R], dtype=torch.float32, device=A.device)
    us = torch.empty(lead + [R, L], dtype=torch.float32, device=A.device)
    vs = torch.empty(lead + [R, R], dtype=torch.float32, device=A.device)
    b = _batch(A)
    if b > 0 and R > 0:
        vt = _eye(lead, R, A.device)
        one_sided_kernel[(b, )](g, vt, s, us, vs, R, L, _sweeps(R), BLOCK=triton.next_power_of_2(L))
    if wide:
        # rows of us: right singular vectors of A; rows of vs: left ones
        return _t(vs).contiguous(), s, us
    return _t(us).contiguous(), s, vs


def _product(x, d, y):
    # x [..., R, K] diag(d [..., K]) y [..., K, C]
    R = x.shape[x.dim() - 2]
    K = x.shape[x.dim() - 1]
    C = y.shape[y.dim() - 1]
    lead = _lead(x)
    out = torch.zeros(lead + [R, C], dtype=torch.float32, device=x.device)
    b = _batch(x)
    if b > 0 and R > 0 and C > 0 and K > 0:
        scaled_product_kernel[(b, R)](x.contiguous(), d.contiguous(), y.contiguous(), out, R, K, C,
                                      BLOCK=triton.next_power_of_2(C))
    return out


def _ones(lead, k, device):
    return torch.full(lead + [k], 1.0, dtype=torch.float32, device=device)


def _spectral(w, mode, atol, rtol, default_rtol, rtol_from_atol):
    K = w.shape[w.dim() - 1]
    lead = [w.shape[d] for d in range(w.dim() - 1)]
    out = torch.empty(w.shape, dtype=torch.float32, device=w.device)
    b = 1
    for d in lead:
        b *= d
    if b > 0 and K > 0:
        spectral_kernel[(b, )](w.contiguous(), out, atol, rtol, K, default_rtol, MODE=mode,
                               RTOL_FROM_ATOL=rtol_from_atol, BLOCK=triton.next_power_of_2(K))
    return out


def _like(x, A):
    return x.to(A.dtype)


def _eigh(A, UPLO, compute_v):
    w, vs = _eigh_parts(A, UPLO == 'U' or UPLO == 'u')
    if not compute_v:
        return _like(w, A), torch.empty([0], dtype=A.dtype, device=A.device)
    return _like(w, A), _like(_t(vs).contiguous(), A)


def _svd(A, full_matrices, compute_uv):
    m = A.shape[A.dim() - 2]
    n = A.shape[A.dim() - 1]
    lead = _lead(A)
    U, S, Vh = _svd_parts(A)
    if not compute_uv:
        return (torch.empty([0], dtype=A.dtype, device=A.device), _like(S, A),
                torch.empty([0], dtype=A.dtype, device=A.device))
    if full_matrices and (m == 0 or n == 0):
        return _like(_eye(lead, m, A.device), A), _like(S, A), _like(_eye(lead, n, A.device), A)
    # the vectors of zero singular values, and a full SVD's extra ones, complete an orthonormal basis
    if m >= n:
        U = _t(_complete(_t(U), m if full_matrices else n)).contiguous()
    else:
        Vh = _complete(Vh, n if full_matrices else m)
    return _like(U, A), _like(S, A), _like(Vh, A)


def _complete(rows, R):
    # rows [..., H, L] orthonormal or zero -> [..., R, L] orthonormal (R >= H)
    H = rows.shape[rows.dim() - 2]
    L = rows.shape[rows.dim() - 1]
    q = torch.zeros(_lead(rows) + [R, L], dtype=torch.float32, device=rows.device)
    q.narrow(q.dim() - 2, 0, H).copy_(rows)
    b = _batch(q)
    if b > 0 and R > 0:
        complete_kernel[(b, )](q, H, R, L, BLOCK=triton.next_power_of_2(L))
    return q


def _per_matrix(lead, value, tensor, device):
    # a float32 tensor of the batch shape holding value (a number, or a tensor broadcast to it)
    t = torch.zeros(lead, dtype=torch.float32, device=device)
    if value is None:
        return t
    if tensor:
        t.copy_(value.to(torch.float32).expand(lead))
    else:
        t.fill_(value)
    return t


def _pinv(A, atol, rtol, hermitian, tensors):
    # ATen's tolerance: max(atol, rtol * largest |singular value|); rtol defaults to eps * max(m, n),
    # or to 0 where atol > 0 is given without rtol
    m = A.shape[A.dim() - 2]
    n = A.shape[A.dim() - 1]
    lead = _lead(A)
    if m == 0 or n == 0 or _batch(A) == 0:
        return torch.zeros(lead + [n, m], dtype=A.dtype, device=A.device)
    eps_rtol = 1.1920928955078125e-07 * (m if m > n else n)
    at = _per_matrix(lead, atol, tensors, A.device)
    rt = _per_matrix(lead, rtol, tensors, A.device)
    if rtol is None and atol is None:
        rt.fill_(eps_rtol)
    from_atol = rtol is None and atol is not None
    if hermitian:
        w, vs = _eigh_parts(A, False)
        inv = _spectral(w, 1, at, rt, eps_rtol, from_atol)
        return _like(_product(_t(vs), inv, vs), A)
    U, S, Vh = _svd_parts(A)
    inv = _spectral(S, 1, at, rt, eps_rtol, from_atol)
    return _like(_product(_t(Vh), inv, _t(U)), A)


def _polar(A):
    U, S, Vh = _svd_parts(A)
    lead = _lead(A)
    k = S.shape[S.dim() - 1]
    Up = _product(U, _ones(lead, k, A.device), Vh)
    H = _product(_t(Vh), S, Vh)
    return _like(Up, A), _like(H, A)


def _sqrth(A):
    w, vs = _eigh_parts(A, False)
    r = _spectral(w, 0, w, w, 0.0, False)
    return _like(_product(_t(vs), r, vs), A)


def _lstsq(A, B, rcond, driver):
    # the minimum-norm solution pinv(A) B; residuals (m > n, drivers other than gelsy), rank
    # (drivers other than gels) and singular values (gelsd, gelss) as ATen returns them
    drv = 'gelsy' if driver is None else driver
    m = A.shape[A.dim() - 2]
    n = A.shape[A.dim() - 1]
    vec = B.dim() == A.dim() - 1
    b = B.unsqueeze(B.dim()) if vec else B
    bl = list(torch.broadcast_shapes(_lead(A), _lead(b)))
    k = b.shape[b.dim() - 1]
    a = A.to(torch.float32).expand(bl + [m, n]).contiguous()
    bb = b.to(torch.float32).expand(bl + [m, k]).contiguous()
    eps_rtol = 1.1920928955078125e-07 * (m if m > n else n)
    rc = eps_rtol if rcond is None or rcond <= 0 else rcond
    x = _pinv(a, None, rc, False, False)
    x = _product(x, _ones(bl, m, A.device), bb)
    nb = _batch(a)
    if m > n and drv != 'gelsy':
        res = torch.empty(bl + [k], dtype=torch.float32, device=A.device)
        if nb > 0 and k > 0:
            residual_kernel[(nb, )](a, x, bb, res, m, n, k, BLOCK=triton.next_power_of_2(k))
        if vec:
            res = res.squeeze(res.dim() - 1)
    else:
        res = torch.empty([0], dtype=torch.float32, device=A.device)
    kk = m if m < n else n
    U, S, Vh = _svd_parts(a)
    if drv == 'gels':
        rank = torch.empty([0], dtype=torch.int64, device=A.device)
    else:
        rank = torch.zeros(bl, dtype=torch.int64, device=A.device)
        if nb > 0 and kk > 0:
            rank_kernel[(nb, )](S, rank, kk, rc, BLOCK=triton.next_power_of_2(kk))
    sv = S if drv == 'gelsd' or drv == 'gelss' else torch.empty([0], dtype=torch.float32, device=A.device)
    if vec:
        x = x.squeeze(x.dim() - 1)
    return _like(x, A), _like(res, A), rank, _like(sv, A)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
