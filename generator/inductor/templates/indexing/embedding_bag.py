"""{{SCHEMA}}

Lowered by opforge's inductor provider (indexing family, embedding_bag template).
ATen's CPU _embedding_bag forward: one program per bag walks the bag's indices in
order (vectorized over the embedding dim), summing (optionally times
per_sample_weights), averaging or taking the max, skipping padding_idx.
offset2bag, bag_size and max_indices are filled as ATen 1.13's CPU kernel fills
them: offset2bag is empty on the sum fast path (no padding_idx), bag_size and
max_indices are zeros of offsets' size in sum mode, bag_size (offset differences,
the last bag running to the end of indices, minus padding entries) doubles as
max_indices in mean mode, and max mode stores the winning index per element.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, off_ptr, psw_ptr, out_ptr, size_ptr, maxi_ptr, n_idx, n_off, nb, dim,
                         w_stride0, w_stride1, padding_idx, MODE: tl.constexpr, HAS_PSW: tl.constexpr,
                         BLOCK_D: tl.constexpr):
    # bag b covers indices [offsets[b], offsets[b + 1]) (the last bag without include_last_offset: to n_idx)
    b = tl.program_id(axis=0).to(tl.int64)
    d = tl.arange(0, BLOCK_D)
    dmask = d < dim
    start = tl.load(off_ptr + b).to(tl.int64)
    last = start * 0 + n_idx
    has_next = b + 1 < n_off
    nxt = tl.load(off_ptr + b + 1, mask=has_next, other=0).to(tl.int64)
    end = tl.where(has_next, nxt, last)
    size = tl.where(b + 1 < nb, end - start, last - start)
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    best = tl.zeros([BLOCK_D], dtype=tl.int64)
    seen = 0
    for j in range(start, end):
        ix = tl.load(idx_ptr + j).to(tl.int64)
        valid = ix != padding_idx
        row = tl.load(w_ptr + ix * w_stride0 + d * w_stride1, mask=dmask & valid, other=0).to(tl.float32)
        if MODE == 2:
            take = valid & ((seen == 0) | (row > acc))
            acc = tl.where(take, row, acc)
            best = tl.where(take, ix, best)
        else:
            if HAS_PSW:
                row = row * tl.load(psw_ptr + j).to(tl.float32)
            acc = acc + tl.where(valid, row, 0.0)
        seen = seen + tl.where(valid, 1, 0)
        size = size - tl.where(valid, 0, 1)
    if MODE == 1:
        # ATen rounds the sum to the weight dtype, then divides by bag_size
        s = acc.to(out_ptr.dtype.element_ty).to(tl.float32)
        acc = tl.where(size > 0, s / tl.maximum(size, 1).to(tl.float32), 0.0)
    tl.store(out_ptr + b * dim + d, acc.to(out_ptr.dtype.element_ty), mask=dmask)
    if MODE != 0:
        tl.store(size_ptr + b, size.to(size_ptr.dtype.element_ty))
    if MODE == 1:
        tl.store(maxi_ptr + b, size.to(maxi_ptr.dtype.element_ty))
    if MODE == 2:
        tl.store(maxi_ptr + b * dim + d, best.to(maxi_ptr.dtype.element_ty), mask=dmask)


@triton.jit
def offset2bag_kernel(off_ptr, o2b_ptr, n_idx, n_off, BLOCK: tl.constexpr):
    # offset2bag[i] = #{j : offsets[j] <= i} - 1 (ATen's index_add of ones at offsets, minus one at 0, cumsum)
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n_idx
    count = tl.zeros([BLOCK], dtype=tl.int64)
    for j in range(0, n_off):
        o = tl.load(off_ptr + j).to(tl.int64)
        count = count + tl.where(o <= i, 1, 0)
    tl.store(o2b_ptr + i, (count - 1).to(o2b_ptr.dtype.element_ty), mask=mask)


def _embedding_bag_forward(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx):
    if indices.dim() != 1 or offsets.dim() != 1:
        raise NotImplementedError("embedding_bag: indices and offsets must be 1-D (got " + str(indices.dim()) +
                                  "-D and " + str(offsets.dim()) + "-D)")
    if weight.dim() != 2:
        raise ValueError("embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension " +
                         str(weight.dim()))
    if mode < 0 or mode > 2:
        raise ValueError("embedding_bag: mode has to be 0 (sum), 1 (mean) or 2 (max), got " + str(mode))
    if per_sample_weights is not None and mode != 0:
        raise ValueError("embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
                         "for mode='sum' (got mode=" + str(mode) + ")")
    n_idx = indices.shape[0]
    n_off = offsets.shape[0]
    nb = n_off - 1 if include_last_offset else n_off
    if nb < 0:
        nb = 0
    dim = weight.shape[1]
    itype = indices.dtype
    idx = indices.contiguous()
    off = offsets.contiguous()
    out = torch.zeros([nb, dim], dtype=weight.dtype, device=weight.device)
    fast_sum = mode == 0 and padding_idx < 0
    o2b = torch.zeros([0 if fast_sum else n_idx], dtype=itype, device=weight.device)
    if mode == 0:
        bag_size = torch.zeros([n_off], dtype=itype, device=weight.device)
        max_indices = torch.zeros([n_off], dtype=itype, device=weight.device)
    elif mode == 1:
        bag_size = torch.zeros([nb], dtype=itype, device=weight.device)
        max_indices = torch.zeros([nb], dtype=itype, device=weight.device)
    else:
        bag_size = torch.zeros([nb], dtype=itype, device=weight.device)
        max_indices = torch.zeros([nb, dim], dtype=itype, device=weight.device)
    if not fast_sum and n_idx > 0 and n_off > 0:
        offset2bag_kernel[(triton.cdiv(n_idx, 256), )](off, o2b, n_idx, n_off, BLOCK=256)
    if nb > 0:
        has_psw = per_sample_weights is not None
        psw = per_sample_weights.contiguous() if has_psw else weight
        embedding_bag_kernel[(nb, )](weight, idx, off, psw, out, bag_size, max_indices, n_idx, n_off, nb, dim,
                                     weight.stride(0), weight.stride(1), padding_idx, MODE=mode, HAS_PSW=has_psw,
                                     BLOCK_D=triton.next_power_of_2(max(dim, 1)))
    return out, o2b, bag_size, max_indices


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
