"""{{SCHEMA}}

Lowered by opforge's inductor provider (search family, histogram template):
histogram and histogramdd over the rows of a [N, D] view of the input. Bin
edges come from the caller or are a float32 linspace per dim between the
range (or the data's min and max, [0, 1] without data; an empty range widens by 0.5
each way). One
lane per histogram bin walks the rows in order, finds each coordinate's bin by
binary search over the edges (ATen's upper_bound; the last edge closes the
last bin) and adds the row's weight; density divides by the total and by each
dim's bin lengths.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def edges_kernel(x_ptr, out_ptr, n_rows, D, dim, n_edges, lo, hi, FROM_DATA: tl.constexpr):
    lane = tl.arange(0, 2)
    first = lane < 1
    left = tl.zeros([2], dtype=tl.float32) + lo
    right = tl.zeros([2], dtype=tl.float32) + hi
    if FROM_DATA:
        left = tl.full([2], float("inf"), tl.float32)
        right = tl.full([2], -float("inf"), tl.float32)
        for r in range(0, n_rows):
            v = tl.load(x_ptr + r * D + dim + lane * 0).to(tl.float32)
            left = tl.minimum(left, v)
            right = tl.maximum(right, v)
        # no data: the range [0, 1]
        left = tl.where(n_rows > 0, left, 0.0)
        right = tl.where(n_rows > 0, right, 1.0)
    # an empty range widens by 0.5 each way (numpy), except for empty data without a range
    if FROM_DATA:
        same = (left == right) & (n_rows > 0)
    else:
        same = left == right
    left = tl.where(same, left - 0.5, left)
    right = tl.where(same, right + 0.5, right)
    steps = n_edges - 1
    step = (right - left) / steps.to(tl.float32)
    half = n_edges // 2
    for k in range(0, n_edges):
        v = tl.where(k < half, left + step * k, right - step * (steps - k))
        tl.store(out_ptr + k + lane * 0, v, mask=first)


@triton.jit
def hist_kernel(x_ptr, w_ptr, e_ptr, meta_ptr, out_ptr, n_bins, n_rows, D, HAS_W: tl.constexpr, BLOCK: tl.constexpr):
    # meta: per dim (edge offset, edge count, bin stride)
    b = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = b < n_bins
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, n_rows):
        idx = tl.zeros([BLOCK], dtype=tl.int64)
        inside = mask
        for d in range(0, D):
            off = tl.load(meta_ptr + 3 * d)
            cnt = tl.load(meta_ptr + 3 * d + 1)
            stride = tl.load(meta_ptr + 3 * d + 2)
            v = tl.load(x_ptr + r * D + d + b * 0).to(tl.float32)
            # block pointers (b * 0), as a block mask needs (Triton rejects one on a scalar pointer)
            first = tl.load(e_ptr + off + b * 0, mask=mask, other=0)
            last = tl.load(e_ptr + off + cnt - 1 + b * 0, mask=mask, other=0)
            inside = inside & (v >= first) & (v <= last)
            # std::upper_bound over the edges (a binary search, as ATen runs it even on unsorted edges)
            lo = tl.zeros([BLOCK], dtype=tl.int64)
            count = tl.zeros([BLOCK], dtype=tl.int64) + cnt
            for k in range(0, cnt):
                step = count // 2
                e = tl.load(e_ptr + off + lo + step, mask=mask & (count > 0), other=0)
                right = (count > 0) & ((v < e) == 0)
                lo = tl.where(right, lo + step + 1, lo)
                count = tl.where(count > 0, tl.where(right, count - step - 1, step), count)
            pos = lo - 1
            pos = tl.where(pos == cnt - 1, cnt - 2, pos)
            idx = idx + pos * stride
        if HAS_W:
            w = tl.load(w_ptr + r + b * 0).to(tl.float32)
        else:
            w = tl.full([BLOCK], 1.0, tl.float32)
        acc = acc + tl.where(inside & (idx == b), w, 0.0)
    tl.store(out_ptr + b, acc, mask=mask)


@triton.jit
def density_kernel(h_ptr, e_ptr, meta_ptr, out_ptr, n_bins, D, BLOCK: tl.constexpr):
    b = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = b < n_bins
    offs = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_bins, BLOCK):
        total = total + tl.sum(tl.load(h_ptr + start + offs, mask=start + offs < n_bins, other=0), axis=0)
    v = tl.load(h_ptr + b, mask=mask, other=0) / total
    for d in range(0, D):
        off = tl.load(meta_ptr + 3 * d)
        cnt = tl.load(meta_ptr + 3 * d + 1)
        stride = tl.load(meta_ptr + 3 * d + 2)
        k = (b // stride) % (cnt - 1)
        lo = tl.load(e_ptr + off + k, mask=mask, other=0)
        hi = tl.load(e_ptr + off + k + 1, mask=mask, other=1)
        v = v / (hi - lo)
    tl.store(out_ptr + b, v, mask=mask)


def _rows(self):
    D = 1 if self.dim() == 0 else self.shape[self.dim() - 1]
    return self.reshape([-1, D]).to(torch.float32).contiguous(), D


def _edges_from_counts(x, D, bins, range_):
    edges = []
    for d in range(D):
        n_edges = bins[d] + 1
        e = torch.empty([n_edges], dtype=torch.float32, device=x.device)
        lo = 0.0 if range_ is None else float(range_[2 * d])
        hi = 0.0 if range_ is None else float(range_[2 * d + 1])
        edges_kernel[(1, )](x, e, x.shape[0], D, d, n_edges, lo, hi, FROM_DATA=range_ is None)
        edges.append(e)
    return edges


def _hist(x, D, edges, weight, density):
    shape = [e.shape[0] - 1 for e in edges]
    n_bins = 1
    for s in shape:
        n_bins *= s
    meta = torch.empty([3 * D], dtype=torch.int64, device=x.device)
    offset = 0
    for d in range(D):
        stride = 1
        for k in range(d + 1, D):
            stride *= shape[k]
        meta.narrow(0, 3 * d, 1).fill_(offset)
        meta.narrow(0, 3 * d + 1, 1).fill_(edges[d].shape[0])
        meta.narrow(0, 3 * d + 2, 1).fill_(stride)
        offset += edges[d].shape[0]
    flat = torch.empty([offset], dtype=torch.float32, device=x.device)
    offset = 0
    for e in edges:
        flat.narrow(0, offset, e.shape[0]).copy_(e.to(torch.float32))
        offset += e.shape[0]
    hist = torch.empty([n_bins], dtype=torch.float32, device=x.device)
    if n_bins == 0:
        return hist.reshape(shape)
    w = x if weight is None else weight.reshape([-1]).to(torch.float32).contiguous()
    BLOCK = 64
    hist_kernel[(triton.cdiv(n_bins, BLOCK), )](x, w, flat, meta, hist, n_bins, x.shape[0], D,
                                                HAS_W=weight is not None, BLOCK=BLOCK)
    if density:
        dens = torch.empty([n_bins], dtype=torch.float32, device=x.device)
        density_kernel[(triton.cdiv(n_bins, BLOCK), )](hist, flat, meta, dens, n_bins, D, BLOCK=BLOCK)
        hist = dens
    return hist.reshape(shape)


def _histogram_ct(self, bins, range_, weight, density):
    x = self.reshape([-1, 1]).to(torch.float32).contiguous()
    edges = _edges_from_counts(x, 1, [bins], range_)
    return _hist(x, 1, edges, weight, density).to(self.dtype), edges[0].to(self.dtype)


def _histogram_edges(self, bins, weight, density):
    x = self.reshape([-1, 1]).to(torch.float32).contiguous()
    return _hist(x, 1, [bins.contiguous()], weight, density).to(self.dtype), _copy_edges(bins)


def _copy_edges(bins):
    out = torch.empty(bins.shape, dtype=bins.dtype, device=bins.device)
    out.copy_(bins)
    return out


def _dd_edges(self, bins, range_):
    x, D = _rows(self)
    return [e.to(self.dtype) for e in _edges_from_counts(x, D, list(bins), range_)]


def _dd_from_cts(self, bins, range_, weight, density):
    x, D = _rows(self)
    return _hist(x, D, _edges_from_counts(x, D, list(bins), range_), weight, density).to(self.dtype)


def _dd_from_tensors(self, bins, weight, density):
    x, D = _rows(self)
    return _hist(x, D, [b.contiguous() for b in bins], weight, density).to(self.dtype)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
