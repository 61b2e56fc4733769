"""Element-wise bodies that the llir stage emits as RVV strip loops: fp32 and int32
operations (chosen by the OP constexpr), a comparison stored as bool, int32 to fp32,
a row vector broadcast along a 2-D tile's columns, and a data-dependent tl.where
feeding a reduction's level 0."""
import torch
import triton
import triton.language as tl


@triton.jit
def float_ops(X, Y, Z, O, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=1.0)
    y = tl.load(Y + offs, mask=mask, other=1.0)
    z = tl.load(Z + offs, mask=mask, other=1.0)
    if OP == "div":
        r = x / y
    elif OP == "neg":
        r = -x * z
    elif OP == "sqrt_abs":
        r = tl.sqrt(tl.abs(x)) - tl.abs(y)
    elif OP == "fma":
        r = tl.fma(x, y, z)
    elif OP == "max":
        r = tl.maximum(x, y)
    elif OP == "min":
        r = tl.minimum(x, y)
    elif OP == "max_nan":
        r = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "min_nan":
        r = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "where":
        r = tl.where(x > y, x * z, y - z)
    else:
        tl.static_assert(False, "unknown OP")
    tl.store(O + offs, r, mask=mask)


@triton.jit
def int_ops(A, B, O, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0)
    b = tl.load(B + offs, mask=mask, other=0)
    if OP == "add_mul":
        r = (a + b) * (a - 3)
    elif OP == "bitwise":
        r = (a & b) | (a ^ 0x5A5A) ^ (b | 7)
    elif OP == "shl":
        r = a << b
    elif OP == "shr":
        r = a >> b
    elif OP == "max_min":
        r = tl.maximum(a, b) - tl.minimum(a, 5)
    elif OP == "div_mul":
        r = a // (b | 1) + a * 3
    else:
        tl.static_assert(False, "unknown OP")
    tl.store(O + offs, r, mask=mask)


@triton.jit
def int_to_float(A, F, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0)
    tl.store(F + offs, a.to(tl.float32) * 0.5, mask=mask)


@triton.jit
def compare_store(X, Y, M, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.)
    y = tl.load(Y + offs, mask=mask, other=0.)
    tl.store(M + offs, x < y, mask=mask)


@triton.jit
def row_col_tile(X, Y, O, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(X + rows, mask=rows < M, other=0.)
    y = tl.load(Y + cols, mask=cols < N, other=0.)
    o = x[:, None] + y[None, :] * 3.0
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(O + rows[:, None] * N + cols[None, :], o, mask=mask)


@triton.jit
def where_row_sums(X, S, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * n + cols, mask=cols < n, other=0.)
    tl.store(S + row, tl.sum(tl.where(x > 0.25, x * x, -x), axis=0))


@triton.jit
def uniform_fill(O, S, v, n, BLOCK: tl.constexpr):
    # A block that is one value everywhere: its store packs a splat into
    # every element of each strip, and a reduction's level 0 combines it.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    full = tl.full([BLOCK], 2.0, tl.float32) * v
    tl.store(O + offs, full, mask=offs < n)
    tl.store(S + tl.program_id(0), tl.sum(full, axis=0))


@triton.jit
def uint_ops(A, B, O, F, n, BLOCK: tl.constexpr):
    # A, B and O are *u32: logical shift right, unsigned max/min, unsigned to float.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0)
    b = tl.load(B + offs, mask=mask, other=0)
    r = (a >> b) ^ tl.maximum(a, b) ^ (tl.minimum(a, b) << 1)
    tl.store(O + offs, r, mask=mask)
    tl.store(F + offs, a.to(tl.float32), mask=mask)


@triton.jit
def copy_rows(X, O, n, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    # Rows copied in a loop: each store packs its block from the load's buffer.
    offs = tl.arange(0, BLOCK)
    for r in range(ROWS):
        x = tl.load(X + r * n + offs, mask=offs < n, other=0.)
        tl.store(O + r * n + offs, x, mask=offs < n)


def div_Tensor(self, other):
    # self, other: fp32 tensors of one shape; their element-wise quotient.
    x = self.contiguous()
    y = other.contiguous()
    n = x.numel()
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    if n == 0:
        return out
    block = 1024
    float_ops[(triton.cdiv(n, block), )](x, y, y, out, n, OP="div", BLOCK=block)
    return out
