# opforge generated kernel: aten::arange
# category: other
# provider: inductor, model: inductor-templates, attempt: 0, date: 2026-11-29
"""aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

Lowered by opforge's inductor provider (creation family, fill template): a new
contiguous tensor whose element i is a function of its row and column (i split
by N_COLS) and three scalars; the wrapper decides shape, dtype and scalars.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def arange_kernel(out_ptr, n_elements, n_cols, s0, s1, s2,
                      IS_FLOAT: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    i = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = i < n_elements
    row = i // n_cols
    col = i - row * n_cols
    if IS_FLOAT:
        value = s0 + i.to(tl.float32) * s1
    else:
        value = s0 + i * s1
    tl.store(out_ptr + i, value, mask=mask)


def _is_float(dt):
    return dt == torch.float32 or dt == torch.float16 or dt == torch.bfloat16


def _number_dtype(v):
    # the dtype ATen infers from a Python number
    if isinstance(v, bool):
        return torch.bool
    if isinstance(v, int):
        return torch.int64
    return torch.float32


def arange(end, *, dtype=None, layout=None, device=None, pin_memory=None):
    n_cols = 1
    s0 = 0
    s1 = 0
    s2 = 0
    start = 0
    step = 1
    out_dtype = dtype
    if dtype is None:
        out_dtype = torch.int64
        if _number_dtype(start) == torch.float32 or _number_dtype(end) == torch.float32 or _number_dtype(step) == torch.float32:
            out_dtype = torch.float32
    if out_dtype == torch.int64:
        start = int(start)
        end = int(end)
        step = int(step)
    q = (end - start) / step
    n = int(q)
    if n < q:
        n = n + 1
    shape = [max(n, 0)]
    s0 = start
    s1 = step
    out = torch.empty(shape, dtype=out_dtype)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    is_float = _is_float(out_dtype)
    if is_float:
        s0 = float(s0)
        s1 = float(s1)
        s2 = float(s2)
    else:
        s0 = int(s0)
        s1 = int(s1)
        s2 = int(s2)
    # bool is written as int32 and converted (nonzero -> True)
    result = out
    if out_dtype == torch.bool:
        result = torch.empty(shape, dtype=torch.int32)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    arange_kernel[grid](result, n_elements, max(n_cols, 1), s0, s1, s2,
                            IS_FLOAT=is_float, BLOCK_SIZE=BLOCK_SIZE)
    if out_dtype == torch.bool:
        out.copy_(result)
    return out
