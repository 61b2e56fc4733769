"""aten::index_select(Tensor self, int dim, Tensor index) -> Tensor: the slices of self at index along dim."""
import torch
import triton
import triton.language as tl


@triton.jit
def index_select_kernel(x_ptr, index_ptr, out_ptr, n_src_rows, row_len, BLOCK_SIZE: tl.constexpr):
    # x is contiguous (n_src_rows, row_len); output row i is x[index[i]]
    row = tl.program_id(axis=0)
    block = tl.program_id(axis=1)
    src = tl.load(index_ptr + row).to(tl.int64)
    src = tl.where(src < 0, src + n_src_rows, src)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < row_len
    v = tl.load(x_ptr + src * row_len + cols, mask=mask)
    tl.store(out_ptr + row.to(tl.int64) * row_len + cols, v, mask=mask)


def index_select(self, dim, index):
    ndim = self.dim()
    rank = max(ndim, 1)
    if dim < -rank or dim >= rank:
        raise IndexError("Dimension out of range")
    dim = dim % rank
    assert index.dim() <= 1, "index_select(): Index is supposed to be a vector"
    n_index = index.numel()
    if ndim == 0:
        x = self.reshape([1])
    else:
        x = self
    perm = [dim] + [d for d in range(x.dim()) if d != dim]
    inverse = [0] * x.dim()
    for i, d in enumerate(perm):
        inverse[d] = i
    moved = x.permute(perm)
    out_moved_shape = [n_index] + [moved.shape[d] for d in range(1, moved.dim())]
    out_moved = torch.empty(out_moved_shape, dtype=self.dtype, device=self.device)
    row_len = 1
    for s in out_moved_shape[1:]:
        row_len *= s
    if n_index > 0 and row_len > 0:
        src = moved.contiguous()
        idx = index.reshape([n_index]).contiguous()
        BLOCK_SIZE = min(triton.next_power_of_2(row_len), 1024)
        grid = (n_index, triton.cdiv(row_len, BLOCK_SIZE))
        index_select_kernel[grid](src, idx, out_moved, moved.shape[0], row_len, BLOCK_SIZE=BLOCK_SIZE)
    out = out_moved.permute(inverse)
    if ndim == 0:
        return out.reshape([])
    return out
