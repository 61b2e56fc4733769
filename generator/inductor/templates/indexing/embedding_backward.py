"""{{SCHEMA}}

Lowered by opforge's inductor provider (indexing family, embedding_backward
template): the dense weight gradients of embedding and embedding_bag. One program
per weight row walks every index in order (no atomics) and sums, in float32, the
gradient rows of the positions that name it (embedding_bag: of the bags holding
them, times per_sample_weights, divided by bag_size in mean mode; in max mode
the gradient elements of non-empty bags whose maximum_indices name the row),
then rounds once.
scale_grad_by_freq divides a row's sum by how often the row is named; the
padding_idx row stays zero, as ATen's CPU kernels do.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def embedding_backward_kernel(g_ptr, idx_ptr, out_ptr, n_idx, dim, padding_idx, SCALE_FREQ: tl.constexpr,
                              BLOCK_D: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    d = tl.arange(0, BLOCK_D)
    dmask = d < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    count = 0.0
    for j in range(0, n_idx):
        hit = tl.load(idx_ptr + j).to(tl.int64) == row
        v = tl.load(g_ptr + j * dim + d, mask=dmask, other=0).to(tl.float32)
        acc += tl.where(hit, v, 0.0)
        count = count + tl.where(hit, 1.0, 0.0)
    if SCALE_FREQ:
        acc = acc / tl.maximum(count, 1.0)
    acc = tl.where(row == padding_idx, 0.0, acc)
    tl.store(out_ptr + row * dim + d, acc, mask=dmask)


@triton.jit
def embedding_bag_backward_kernel(g_ptr, idx_ptr, off_ptr, size_ptr, maxi_ptr, psw_ptr, out_ptr, n_idx, n_off, nb,
                                  dim, padding_idx, MODE: tl.constexpr, HAS_PSW: tl.constexpr,
                                  SCALE_FREQ: tl.constexpr, BLOCK_D: tl.constexpr):
    # bag b covers indices [offsets[b], offsets[b + 1]) (the last one to n_idx); grad: [nb, dim]
    row = tl.program_id(axis=0).to(tl.int64)
    d = tl.arange(0, BLOCK_D)
    dmask = d < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    count = 0.0
    for b in range(0, nb):
        if MODE == 2:
            # empty bags (bag_size 0) pass no gradient, as ATen's nonempty selection
            nonempty = tl.load(size_ptr + b).to(tl.int64) > 0
            mi = tl.load(maxi_ptr + b * dim + d, mask=dmask, other=-1).to(tl.int64)
            v = tl.load(g_ptr + b * dim + d, mask=dmask, other=0).to(tl.float32)
            acc += tl.where((mi == row) & nonempty, v, 0.0)
        else:
            start = tl.load(off_ptr + b).to(tl.int64)
            nxt = tl.load(off_ptr + b + 1, mask=b + 1 < n_off, other=0).to(tl.int64)
            end = tl.where(b + 1 < n_off, nxt, start * 0 + n_idx)
            scale = 1.0
            if MODE == 1:
                size = tl.load(size_ptr + b).to(tl.float32)
                scale = 1.0 / tl.maximum(size, 1.0)
            for j in range(start, end):
                ix = tl.load(idx_ptr + j).to(tl.int64)
                hit = (ix == row) & (ix != padding_idx)
                v = tl.load(g_ptr + b * dim + d, mask=dmask, other=0).to(tl.float32)
                if HAS_PSW:
                    v = v * tl.load(psw_ptr + j).to(tl.float32)
                acc += tl.where(hit, v * scale, 0.0)
                count = count + tl.where(hit, 1.0, 0.0)
    if SCALE_FREQ:
        acc = acc / tl.maximum(count, 1.0)
    acc = tl.where(row == padding_idx, 0.0, acc)
    tl.store(out_ptr + row * dim + d, acc, mask=dmask)


def _embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    dim = grad_output.shape[grad_output.dim() - 1] if grad_output.dim() > 0 else 1
    n_idx = indices.numel()
    out = torch.zeros([num_weights, dim], dtype=torch.float32, device=grad_output.device)
    if num_weights > 0 and dim > 0:
        g = grad_output.contiguous().reshape([n_idx, dim])
        embedding_backward_kernel[(num_weights, )](g, indices.contiguous().reshape([-1]), out, n_idx, dim,
                                                   padding_idx, SCALE_FREQ=scale_grad_by_freq,
                                                   BLOCK_D=triton.next_power_of_2(dim))
    return out.to(grad_output.dtype)


def _bag_backward(grad, indices, offsets, bag_size, maximum_indices, num_weights, scale_grad_by_freq, mode,
                            sparse, per_sample_weights, padding_idx):
    if sparse:
        raise NotImplementedError("embedding_bag backward: sparse gradients are not supported on this target")
    dim = grad.shape[1]
    nb = grad.shape[0]
    out = torch.zeros([num_weights, dim], dtype=torch.float32, device=grad.device)
    if num_weights > 0 and dim > 0 and nb > 0:
        has_psw = per_sample_weights is not None
        g = grad.contiguous()
        psw = per_sample_weights.contiguous() if has_psw else g
        embedding_bag_backward_kernel[(num_weights, )](g, indices.contiguous(), offsets.contiguous(),
                                                       bag_size.contiguous(), maximum_indices.contiguous(), psw, out,
                                                       indices.numel(), offsets.numel(), nb, dim, padding_idx,
                                                       MODE=mode, HAS_PSW=has_psw, SCALE_FREQ=scale_grad_by_freq,
                                                       BLOCK_D=triton.next_power_of_2(dim))
    return out.to(grad.dtype)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
