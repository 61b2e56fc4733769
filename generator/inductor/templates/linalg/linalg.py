"""{{SCHEMA}}

Lowered by opforge's inductor provider (linalg family, linalg template): small
linear-algebra ops without the DPE. Pairwise p-norm distances (cdist, pdist,
and the matmul-form euclidean distance ATen uses for large inputs) with one
lane per output element walking the feature dim in order; the cross product
over a dim of size 3; trace as one sequential diagonal sum; tril/triu index
lists whose row is found by walking the rows' lengths.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def dist_kernel(a_ptr, b_ptr, out_ptr, n, P, R, M, p, PMODE: tl.constexpr, PDIST: tl.constexpr, BLOCK: tl.constexpr):
    # PMODE 0: count of differing features, 1: L1, 2: L2, 3: max, 4: general p, 5: euclidean in
    # matmul form (|a|^2 + |b|^2 - 2 a.b, clamped at 0)
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    if PDIST:
        # pair k of rows i < j, in row-major order of the upper triangle
        i = tl.zeros([BLOCK], dtype=tl.int64)
        j = tl.zeros([BLOCK], dtype=tl.int64)
        start = tl.zeros([BLOCK], dtype=tl.int64)
        for row in range(0, P - 1):
            length = P - 1 - row
            here = (k >= start) & (k < start + length)
            i = tl.where(here, row, i)
            j = tl.where(here, row + 1 + (k - start), j)
            start = start + length
        abase = i * M
        bbase = j * M
    else:
        j = k % R
        r = k // R
        i = r % P
        batch = r // P
        abase = (batch * P + i) * M
        bbase = (batch * R + j) * M
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    an = tl.zeros([BLOCK], dtype=tl.float32)
    bn = tl.zeros([BLOCK], dtype=tl.float32)
    for m in range(0, M):
        a = tl.load(a_ptr + abase + m, mask=mask, other=0).to(tl.float32)
        b = tl.load(b_ptr + bbase + m, mask=mask, other=0).to(tl.float32)
        d = tl.abs(a - b)
        if PMODE == 0:
            acc = acc + tl.where(d != 0, 1.0, 0.0)
        elif PMODE == 1:
            acc = acc + d
        elif PMODE == 2:
            acc = acc + d * d
        elif PMODE == 3:
            acc = tl.maximum(acc, d)
        elif PMODE == 4:
            acc = acc + tl.where(d == 0, 0.0, tl.exp2(p * tl.log2(d)))
        else:
            acc = acc + (-2.0 * a) * b
            an = an + a * a
            bn = bn + b * b
    if PMODE == 2:
        acc = tl.sqrt(acc)
    elif PMODE == 4:
        acc = tl.where(acc == 0, 0.0, tl.exp2(tl.log2(acc) / p))
    elif PMODE == 5:
        acc = tl.sqrt(tl.maximum(acc + an + bn, 0.0))
    tl.store(out_ptr + k, acc.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cross_kernel(a_ptr, b_ptr, out_ptr, n, inner, UPCAST: tl.constexpr, BLOCK: tl.constexpr):
    # a, b, out: contiguous [outer, 3, inner]; one lane per (outer, inner) pair
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    base = (k // inner) * 3 * inner + k % inner
    a0 = tl.load(a_ptr + base, mask=mask, other=0)
    a1 = tl.load(a_ptr + base + inner, mask=mask, other=0)
    a2 = tl.load(a_ptr + base + 2 * inner, mask=mask, other=0)
    b0 = tl.load(b_ptr + base, mask=mask, other=0)
    b1 = tl.load(b_ptr + base + inner, mask=mask, other=0)
    b2 = tl.load(b_ptr + base + 2 * inner, mask=mask, other=0)
    ty = out_ptr.dtype.element_ty
    if UPCAST:
        # float16/bfloat16: every product and difference rounded to the dtype, as ATen computes
        a0 = a0.to(tl.float32)
        a1 = a1.to(tl.float32)
        a2 = a2.to(tl.float32)
        b0 = b0.to(tl.float32)
        b1 = b1.to(tl.float32)
        b2 = b2.to(tl.float32)
        c0 = (a1 * b2).to(ty).to(tl.float32) - (a2 * b1).to(ty).to(tl.float32)
        c1 = (a2 * b0).to(ty).to(tl.float32) - (a0 * b2).to(ty).to(tl.float32)
        c2 = (a0 * b1).to(ty).to(tl.float32) - (a1 * b0).to(ty).to(tl.float32)
    else:
        c0 = a1 * b2 - a2 * b1
        c1 = a2 * b0 - a0 * b2
        c2 = a0 * b1 - a1 * b0
    tl.store(out_ptr + base, c0.to(ty), mask=mask)
    tl.store(out_ptr + base + inner, c1.to(ty), mask=mask)
    tl.store(out_ptr + base + 2 * inner, c2.to(ty), mask=mask)


@triton.jit
def trace_kernel(x_ptr, out_ptr, n, step, IS_FLOAT: tl.constexpr):
    lane = tl.arange(0, 2)
    first = lane < 1
    if IS_FLOAT:
        acc = tl.zeros([2], dtype=tl.float32)
    else:
        acc = tl.zeros([2], dtype=tl.int64)
    for k in range(0, n):
        v = tl.load(x_ptr + k * step + lane * 0, mask=first, other=0)
        acc = acc + v.to(acc.dtype)
    tl.store(out_ptr + lane * 0, acc.to(out_ptr.dtype.element_ty), mask=first)


@triton.jit
def tri_indices_kernel(out_ptr, n, rows, cols, offset, LOWER: tl.constexpr, BLOCK: tl.constexpr):
    # entry k of the row-major list of (row, col) in the triangle; out is [2, n]
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    row = tl.zeros([BLOCK], dtype=tl.int64)
    start = tl.zeros([BLOCK], dtype=tl.int64)
    first_col = tl.zeros([BLOCK], dtype=tl.int64)
    for r in range(0, rows):
        if LOWER:
            lo = 0
            hi = tl.minimum(tl.maximum(r + offset + 1, 0), cols)
        else:
            lo = tl.minimum(tl.maximum(r + offset, 0), cols)
            hi = cols
        length = hi - lo
        here = (k >= start) & (k < start + length)
        row = tl.where(here, r, row)
        first_col = tl.where(here, lo, first_col)
        start_here = tl.where(here, start, 0)
        start = start + length
        first_col = first_col - start_here
    col = first_col + k
    tl.store(out_ptr + k, row.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + n + k, col.to(out_ptr.dtype.element_ty), mask=mask)


def _pmode(p):
    if p == 0:
        return 0
    if p == 1:
        return 1
    if p == 2:
        return 2
    if p == float("inf"):
        return 3
    return 4


def _cdist(x1, x2, p, euclid):
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X1 got: " + str(x1.dim()) + "D")
    m = x1.shape[x1.dim() - 1]
    if x2.shape[x2.dim() - 1] != m:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: " + str(m) + " X2: " +
                           str(x2.shape[x2.dim() - 1]))
    P = x1.shape[x1.dim() - 2]
    R = x2.shape[x2.dim() - 2]
    batch = torch.broadcast_shapes([x1.shape[d] for d in range(x1.dim() - 2)],
                                   [x2.shape[d] for d in range(x2.dim() - 2)])
    bl = list(batch)
    a = x1.expand(bl + [P, m]).contiguous()
    b = x2.expand(bl + [R, m]).contiguous()
    out = torch.empty(bl + [P, R], dtype=x1.dtype, device=x1.device)
    n = out.numel()
    if n == 0:
        return out
    BLOCK = 128
    dist_kernel[(triton.cdiv(n, BLOCK), )](a, b, out, n, P, R, m, float(p), PMODE=5 if euclid else _pmode(p),
                                           PDIST=False, BLOCK=BLOCK)
    return out


def _cdist_fwd(x1, x2, p, compute_mode):
    # ATen switches p = 2 to the matmul form when asked (mode 1) or for more than 25 rows (mode 0/None)
    P = x1.shape[x1.dim() - 2]
    R = x2.shape[x2.dim() - 2]
    euclid = p == 2 and (compute_mode == 1 or ((compute_mode is None or compute_mode == 0) and (P > 25 or R > 25)))
    return _cdist(x1, x2, p, euclid)


def _pdist(self, p):
    if self.dim() != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: " + str(self.dim()) + "D")
    P = self.shape[0]
    m = self.shape[1]
    n = P * (P - 1) // 2
    out = torch.empty([n], dtype=self.dtype, device=self.device)
    if n == 0:
        return out
    x = self.contiguous()
    BLOCK = 128
    dist_kernel[(triton.cdiv(n, BLOCK), )](x, x, out, n, P, P, m, float(p), PMODE=_pmode(p), PDIST=True, BLOCK=BLOCK)
    return out


def _cross(self, other, dim):
    shape = torch.broadcast_shapes(self.shape, other.shape)
    dt = torch.promote_types(self.dtype, other.dtype)
    nd = len(shape)
    d = dim if dim >= 0 else dim + nd
    if d < 0 or d >= nd or shape[d] != 3:
        raise RuntimeError("linalg.cross: inputs dimension " + str(dim) + " must have length 3. Got " +
                           str(self.shape[d] if 0 <= d < self.dim() else -1) + " and " +
                           str(other.shape[d] if 0 <= d < other.dim() else -1))
    a = self.to(dt).expand(shape).contiguous()
    b = other.to(dt).expand(shape).contiguous()
    out = torch.empty(shape, dtype=dt, device=self.device)
    inner = 1
    for k in range(d + 1, nd):
        inner *= shape[k]
    n = out.numel() // 3
    if n == 0:
        return out
    BLOCK = 128
    cross_kernel[(triton.cdiv(n, BLOCK), )](a, b, out, n, inner,
                                            UPCAST=dt == torch.float16 or dt == torch.bfloat16, BLOCK=BLOCK)
    return out


def _trace(self):
    if self.dim() != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(self.dim()))
    is_float = self.is_floating_point()
    out_dt = self.dtype if is_float else torch.int64
    out = torch.empty([], dtype=out_dt, device=self.device)
    n = self.shape[0] if self.shape[0] < self.shape[1] else self.shape[1]
    if n == 0:
        out.fill_(0)
        return out
    trace_kernel[(1, )](self, out, n, self.stride(0) + self.stride(1), IS_FLOAT=is_float)
    return out


def _tri_indices(row, col, offset, dtype, lower):
    if lower:
        n = 0
        for r in range(row):
            hi = r + offset + 1
            n += 0 if hi < 0 else (col if hi > col else hi)
    else:
        n = 0
        for r in range(row):
            lo = r + offset
            lo = 0 if lo < 0 else (col if lo > col else lo)
            n += col - lo
    # the schema's default dtype=4 is ScalarType code 4 (int64)
    dt = torch.int64 if dtype is None or isinstance(dtype, int) else dtype
    out = torch.empty([2, n], dtype=dt)
    if n == 0:
        return out
    BLOCK = 128
    tri_indices_kernel[(triton.cdiv(n, BLOCK), )](out, n, row, col, offset, LOWER=lower, BLOCK=BLOCK)
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
