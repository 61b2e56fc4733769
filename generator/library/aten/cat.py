"""aten::cat(Tensor[] tensors, int dim=0) -> Tensor: concatenation along dim with type promotion."""
import torch
import triton
import triton.language as tl


@triton.jit
def cat_copy_kernel(x_ptr, out_ptr, x_cols, out_cols, col_offset, BLOCK_SIZE: tl.constexpr):
    # x is contiguous (rows, x_cols); it lands in out (rows, out_cols) at column col_offset
    row = tl.program_id(axis=0)
    block = tl.program_id(axis=1)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < x_cols
    v = tl.load(x_ptr + row.to(tl.int64) * x_cols + cols, mask=mask)
    tl.store(out_ptr + row.to(tl.int64) * out_cols + col_offset + cols, v, mask=mask)


def cat(tensors, dim=0):
    assert len(tensors) > 0, "torch.cat(): expected a non-empty list of Tensors"
    out_dtype = tensors[0].dtype
    for t in tensors[1:]:
        out_dtype = torch.promote_types(out_dtype, t.dtype)
    # legacy rule: 1-d empty tensors are skipped
    parts = [t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)]
    if len(parts) == 0:
        return torch.empty([0], dtype=out_dtype, device=tensors[0].device)
    ref = parts[0]
    ndim = ref.dim()
    assert ndim > 0, "zero-dimensional tensor cannot be concatenated"
    if dim < -ndim or dim >= ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    out_shape = list(ref.shape)
    out_shape[dim] = sum([t.shape[dim] for t in parts])
    out = torch.empty(out_shape, dtype=out_dtype, device=tensors[0].device)
    if out.numel() == 0:
        return out
    rows = 1
    for d in range(dim):
        rows *= out_shape[d]
    inner = 1
    for d in range(dim + 1, ndim):
        inner *= out_shape[d]
    out_cols = out_shape[dim] * inner
    offset = 0
    for t in parts:
        x_cols = t.shape[dim] * inner
        if x_cols > 0:
            x = t.to(out_dtype).contiguous()
            BLOCK_SIZE = min(triton.next_power_of_2(x_cols), 1024)
            grid = (rows, triton.cdiv(x_cols, BLOCK_SIZE))
            cat_copy_kernel[grid](x, out, x_cols, out_cols, offset, BLOCK_SIZE=BLOCK_SIZE)
        offset += x_cols
    return out
