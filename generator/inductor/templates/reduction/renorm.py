"""{{SCHEMA}}

Lowered by opforge's inductor provider (reduction family, renorm template):
each row (renorm: a slice along dim, moved to the front; embedding_renorm_: an
embedding row named by indices) is scaled by max_norm / (norm + 1e-7) where its
p-norm exceeds max_norm. One program per row: a first pass sums |x|^p in
float32 (max for p = inf), a second pass writes x * factor. For float16 and
bfloat16, ATen rounds the factor (renorm) or the norm (embedding_renorm_) to
the tensor's dtype; the kernel does the same.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def renorm_rows_kernel(x_ptr, idx_ptr, out_ptr, n_cols, n_idx, p, max_norm, PMODE: tl.constexpr,
                       CHECK_IDX: tl.constexpr, ROUND_FACTOR: tl.constexpr, ROUND_NORM: tl.constexpr,
                       SEQ_ROUND: tl.constexpr, BLOCK: tl.constexpr):
    # PMODE 1: L1, 2: L2, 3: max, 4: general p
    row = tl.program_id(axis=0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    base = row * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        m = start + offs < n_cols
        v = tl.abs(tl.load(x_ptr + base + start + offs, mask=m, other=0).to(tl.float32))
        if PMODE == 1:
            acc = acc + v
        elif PMODE == 2:
            acc = acc + v * v
        elif PMODE == 3:
            acc = tl.maximum(acc, v)
        else:
            acc = acc + tl.where(v == 0, 0.0, tl.exp2(p * tl.log2(v)))
    if PMODE == 3:
        total = tl.max(acc, axis=0)
    else:
        total = tl.sum(acc, axis=0)
    norm = tl.zeros([BLOCK], dtype=tl.float32) + total
    if SEQ_ROUND:
        # ATen's float16 norms (and bfloat16 L1) accumulate in the tensor's dtype, in order
        ty = out_ptr.dtype.element_ty
        norm = tl.zeros([BLOCK], dtype=tl.float32)
        for c in range(0, n_cols):
            v = tl.abs(tl.load(x_ptr + base + c + offs * 0).to(tl.float32))
            if PMODE == 1:
                norm = (norm + v).to(ty).to(tl.float32)
            elif PMODE == 2:
                norm = (norm + (v * v).to(ty).to(tl.float32)).to(ty).to(tl.float32)
            elif PMODE == 3:
                norm = tl.maximum(norm, v)
            else:
                norm = (norm + tl.where(v == 0, 0.0, tl.exp2(p * tl.log2(v))).to(ty).to(tl.float32)).to(ty).to(
                    tl.float32)
    if PMODE == 2:
        norm = tl.sqrt(norm)
    elif PMODE == 4:
        norm = tl.where(norm == 0, 0.0, tl.exp2(tl.log2(norm) / p))
    if ROUND_NORM:
        norm = norm.to(out_ptr.dtype.element_ty).to(tl.float32)
    factor = tl.where(norm > max_norm, max_norm / (norm + 1e-7), 1.0)
    if ROUND_FACTOR:
        factor = factor.to(out_ptr.dtype.element_ty).to(tl.float32)
    if CHECK_IDX:
        # embedding_renorm_: rows no index names keep their values
        named = tl.zeros([BLOCK], dtype=tl.int32)
        for k in range(0, n_idx):
            named = named | (tl.load(idx_ptr + k + offs * 0) == row).to(tl.int32)
        factor = tl.where(named != 0, factor, 1.0)
    for start in range(0, n_cols, BLOCK):
        m = start + offs < n_cols
        v = tl.load(x_ptr + base + start + offs, mask=m, other=0).to(tl.float32)
        tl.store(out_ptr + base + start + offs, (v * factor).to(out_ptr.dtype.element_ty), mask=m)


def _pmode(p):
    if p == 1:
        return 1
    if p == 2:
        return 2
    if p == float("inf"):
        return 3
    return 4


def _launch(x, idx, out, rows, cols, n_idx, p, max_norm, check_idx, round_factor, round_norm, seq_round=False):
    if rows == 0 or cols == 0:
        return
    BLOCK = triton.next_power_of_2(cols)
    if BLOCK > 1024:
        BLOCK = 1024
    renorm_rows_kernel[(rows, )](x, idx, out, cols, n_idx, float(p), float(max_norm), PMODE=_pmode(p),
                                 CHECK_IDX=check_idx, ROUND_FACTOR=round_factor, ROUND_NORM=round_norm,
                                 SEQ_ROUND=seq_round,
                                 BLOCK=BLOCK)


def _renorm(self, p, dim, maxnorm):
    if p < 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError("renorm: expected maxnorm to be >= 0 but got " + str(maxnorm))
    nd = self.dim()
    d = dim if dim >= 0 else dim + nd
    rest = [k for k in range(nd) if k != d]
    x = self.permute([d] + rest).contiguous()
    rows = self.shape[d]
    cols = 1
    for k in rest:
        cols *= self.shape[k]
    y = torch.empty(x.shape, dtype=self.dtype, device=self.device)
    reduced = self.dtype == torch.float16 or self.dtype == torch.bfloat16
    _launch(x, x, y, rows, cols, 0, p, maxnorm, False, reduced, False)
    inv = [0] * nd
    order = [d] + rest
    for k in range(nd):
        inv[order[k]] = k
    return y.permute(inv).contiguous()


def _embedding_renorm(self, indices, max_norm, norm_type):
    if self.dim() != 2:
        raise RuntimeError("embedding_renorm_: self must be 2-D")
    rows = self.shape[0]
    cols = self.shape[1]
    idx = indices.reshape([-1]).contiguous()
    tmp = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    reduced = self.dtype == torch.float16 or self.dtype == torch.bfloat16
    seq = self.dtype == torch.float16 or (self.dtype == torch.bfloat16 and norm_type == 1)
    _launch(self.contiguous(), idx, tmp, rows, cols, idx.numel(), norm_type, max_norm, True, False, reduced, seq)
    self.copy_(tmp)
    return self


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
