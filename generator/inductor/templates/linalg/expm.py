"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, expm template): the
matrix exponential by scaling and squaring. The matrix is halved s times
(exactly, by powers of two) until its 1-norm is at most 1, exp of the scaled
matrix is the degree-12 Taylor polynomial evaluated by Horner's rule
(E = I + X E / j for j = 12 .. 1; the remainder is below 1/13! relative),
and E is squared s times. One program per matrix, lanes over a row; float32
throughout, 16-bit inputs are computed in float32 and rounded once.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def expm_kernel(a_ptr, work_ptr, out_ptr, N, MAX_HALVINGS: tl.constexpr, BLOCK: tl.constexpr):
    # work: 3 n x n buffers per matrix (the scaled matrix, a product, the running result)
    mat = tl.program_id(axis=0).to(tl.int64)
    base = mat * N * N
    x_ptr = work_ptr + mat * 3 * N * N
    t_ptr = x_ptr + N * N
    e_ptr = x_ptr + 2 * N * N
    i = tl.arange(0, BLOCK)
    inn = i < N
    colsum = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, N):
        row = tl.load(a_ptr + base + r * N + i, mask=inn, other=0).to(tl.float32)
        colsum = colsum + tl.abs(row)
    norm = tl.max(colsum, axis=0) + i * 0.0
    scale = tl.full([BLOCK], 1.0, tl.float32)
    halvings = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, MAX_HALVINGS):
        more = norm * scale > 1.0
        scale = tl.where(more, scale * 0.5, scale)
        halvings = tl.where(more, halvings + 1, halvings)
    for r in range(0, N):
        row = tl.load(a_ptr + base + r * N + i, mask=inn, other=0).to(tl.float32)
        tl.store(x_ptr + r * N + i, row * scale, mask=inn)
        tl.store(e_ptr + r * N + i, tl.where(i == r, 1.0, 0.0), mask=inn)
    tl.debug_barrier()
    for step in range(0, 12):
        inv_j = 1.0 / (12 - step)
        for r in range(0, N):
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for k in range(0, N):
                acc = acc + tl.load(x_ptr + r * N + k + i * 0) * tl.load(e_ptr + k * N + i, mask=inn, other=0)
            tl.store(t_ptr + r * N + i, acc, mask=inn)
        tl.debug_barrier()
        for r in range(0, N):
            tr = tl.load(t_ptr + r * N + i, mask=inn, other=0)
            tl.store(e_ptr + r * N + i, tl.where(i == r, 1.0, 0.0) + tr * inv_j, mask=inn)
        tl.debug_barrier()
    for k in range(0, MAX_HALVINGS):
        for r in range(0, N):
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for c in range(0, N):
                acc = acc + tl.load(e_ptr + r * N + c + i * 0) * tl.load(e_ptr + c * N + i, mask=inn, other=0)
            tl.store(t_ptr + r * N + i, acc, mask=inn)
        tl.debug_barrier()
        for r in range(0, N):
            tr = tl.load(t_ptr + r * N + i, mask=inn, other=0)
            er = tl.load(e_ptr + r * N + i, mask=inn, other=0)
            tl.store(e_ptr + r * N + i, tl.where(k < halvings, tr, er), mask=inn)
        tl.debug_barrier()
    for r in range(0, N):
        er = tl.load(e_ptr + r * N + i, mask=inn, other=0)
        tl.store(out_ptr + base + r * N + i, er.to(out_ptr.dtype.element_ty), mask=inn)


def _batch(a):
    b = 1
    for d in range(a.dim() - 2):
        b *= a.shape[d]
    return b


def _expm(A):
    n = A.shape[A.dim() - 1]
    a = A.contiguous()
    out = torch.empty(A.shape, dtype=A.dtype, device=A.device)
    b = _batch(A)
    if b > 0 and n > 0:
        work = torch.empty([b * 3 * n * n], dtype=torch.float32, device=A.device)
        expm_kernel[(b, )](a, work, out, n, MAX_HALVINGS=40, BLOCK=triton.next_power_of_2(n))
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
