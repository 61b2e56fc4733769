"""{{SCHEMA}}

Lowered by opforge's inductor provider (indexing family, index template).
Reads (gather, take, index_select, embedding) are one vectorized strided gather
whose index tensor is itself read through strides over the output coordinates.
Writes (scatter*, index_add/copy/fill/reduce, put) copy self and then walk the
updates in ATen's order in one program, one element at a time, so duplicate
indices combine exactly as on the CPU (no atomics, any dtype). Up to six dims.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def index_gather_kernel(src_ptr, idx_ptr, out_ptr, n, dim_stride, dim_size,
                        s0, s1, s2, s3, s4, s5, t0, t1, t2, t3, t4, t5, x0, x1, x2, x3, x4, x5,
                        BLOCK: tl.constexpr):
    # out[c] = src[sum(c * t) + idx[sum(c * x)] * dim_stride]; negative indices count from dim_size
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    rem = i
    c5 = rem % s5
    rem = rem // s5
    c4 = rem % s4
    rem = rem // s4
    c3 = rem % s3
    rem = rem // s3
    c2 = rem % s2
    rem = rem // s2
    c1 = rem % s1
    c0 = rem // s1
    ioff = c0 * x0 + c1 * x1 + c2 * x2 + c3 * x3 + c4 * x4 + c5 * x5
    idx = tl.load(idx_ptr + ioff, mask=mask, other=0).to(tl.int64)
    idx = tl.where(idx < 0, idx + dim_size, idx)
    soff = c0 * t0 + c1 * t1 + c2 * t2 + c3 * t3 + c4 * t4 + c5 * t5 + idx * dim_stride
    v = tl.load(src_ptr + soff, mask=mask & (idx >= 0) & (idx < dim_size), other=0)
    tl.store(out_ptr + i, v, mask=mask)


@triton.jit
def index_scatter_kernel(out_ptr, cnt_ptr, idx_ptr, src_ptr, n, dim_stride, dim_size, value, alpha,
                         s0, s1, s2, s3, s4, s5, o0, o1, o2, o3, o4, o5, x0, x1, x2, x3, x4, x5,
                         r0, r1, r2, r3, r4, r5, REDUCE: tl.constexpr, FROM_SRC: tl.constexpr,
                         INCLUDE_SELF: tl.constexpr, IS_FLOAT: tl.constexpr):
    # for each update i in order: out[sum(c * o) + idx[sum(c * x)] * dim_stride] (op)= src[sum(c * r)] or value
    # REDUCE: 0 assign, 1 add (times alpha), 2 multiply, 3 mean (sum; divided later), 4 amax, 5 amin
    for i in range(0, n):
        rem = i
        c5 = rem % s5
        rem = rem // s5
        c4 = rem % s4
        rem = rem // s4
        c3 = rem % s3
        rem = rem // s3
        c2 = rem % s2
        rem = rem // s2
        c1 = rem % s1
        c0 = rem // s1
        idx = tl.load(idx_ptr + (c0 * x0 + c1 * x1 + c2 * x2 + c3 * x3 + c4 * x4 + c5 * x5)).to(tl.int64)
        idx = tl.where(idx < 0, idx + dim_size, idx)
        off = c0 * o0 + c1 * o1 + c2 * o2 + c3 * o3 + c4 * o4 + c5 * o5 + idx * dim_stride
        if FROM_SRC:
            v = tl.load(src_ptr + (c0 * r0 + c1 * r1 + c2 * r2 + c3 * r3 + c4 * r4 + c5 * r5))
        else:
            v = value
        if IS_FLOAT:
            v = v.to(tl.float32)
        else:
            v = v.to(tl.int64)
        if REDUCE == 0:
            r = v
        else:
            cur = tl.load(out_ptr + off)
            if IS_FLOAT:
                cur = cur.to(tl.float32)
            else:
                cur = cur.to(tl.int64)
            if REDUCE == 1:
                r = cur + v * alpha
            elif REDUCE == 2:
                r = cur * v
            elif REDUCE == 3:
                r = cur + v
            elif REDUCE == 4:
                r = tl.where((v > cur) | (v != v), v, cur)
            else:
                r = tl.where((v < cur) | (v != v), v, cur)
            if not INCLUDE_SELF:
                count = tl.load(cnt_ptr + off)
                r = tl.where(count == 0, v, r)
        tl.store(out_ptr + off, r.to(out_ptr.dtype.element_ty))
        if REDUCE != 0:
            tl.store(cnt_ptr + off, tl.load(cnt_ptr + off) + 1)


@triton.jit
def mean_finish_kernel(out_ptr, cnt_ptr, n, INCLUDE_SELF: tl.constexpr, IS_FLOAT: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    count = tl.load(cnt_ptr + i, mask=mask, other=0)
    if INCLUDE_SELF:
        count = count + 1
    touched = mask & (count > 0)
    v = tl.load(out_ptr + i, mask=touched, other=0)
    if IS_FLOAT:
        r = v.to(tl.float32) / count.to(tl.float32)
    else:
        q = v.to(tl.int64) // count.to(tl.int64)
        # floor division for negative sums
        r = tl.where((q * count.to(tl.int64) != v.to(tl.int64)) & (v.to(tl.int64) < 0), q - 1, q)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=touched)


@triton.jit
def masked_fill_kernel(x_ptr, m_ptr, v_ptr, out_ptr, n, value, FROM_TENSOR: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0)
    m = tl.load(m_ptr + i, mask=mask, other=0)
    if FROM_TENSOR:
        fill = tl.load(v_ptr).to(x.dtype)
    else:
        fill = value
    r = tl.where(m != 0, fill, x)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def _dim(d, ndim):
    rank = ndim if ndim > 0 else 1
    if d < -rank or d >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(d) + ")")
    return d % rank


def _pad6(values, fill):
    if len(values) > 6:
        raise NotImplementedError("indexing templates support at most 6 dims, got " + str(len(values)))
    return [fill] * (6 - len(values)) + list(values)


def _contig_strides(shape):
    strides = [1] * len(shape)
    acc = 1
    for d in range(len(shape) - 1, -1, -1):
        strides[d] = acc
        acc *= shape[d]
    return strides


def _gather_launch(src, idx, out_shape, src_strides, idx_strides, dim_stride, dim_size):
    out = torch.empty(out_shape, dtype=src.dtype, device=src.device)
    n = out.numel()
    if n == 0:
        return out
    s = _pad6(out_shape, 1)
    t = _pad6(src_strides, 0)
    x = _pad6(idx_strides, 0)
    BLOCK = 256
    index_gather_kernel[(triton.cdiv(n, BLOCK), )](src, idx, out, n, dim_stride, dim_size, s[0], s[1], s[2], s[3],
                                                   s[4], s[5], t[0], t[1], t[2], t[3], t[4], t[5], x[0], x[1], x[2],
                                                   x[3], x[4], x[5], BLOCK=BLOCK)
    return out


def _gather(self, dim, index):
    x = self.reshape([1]) if self.dim() == 0 else self
    idx = index.reshape([1]) if index.dim() == 0 else index
    d = _dim(dim, x.dim())
    shape = [idx.shape[k] for k in range(idx.dim())]
    src_strides = [0 if k == d else x.stride(k) for k in range(x.dim())]
    out = _gather_launch(x, idx, shape, src_strides, [idx.stride(k) for k in range(idx.dim())], x.stride(d),
                         x.shape[d])
    return out.reshape(index.shape)


def _take(self, index):
    flat = self.contiguous().reshape([-1])
    shape = [index.shape[k] for k in range(index.dim())]
    return _gather_launch(flat, index, shape, [0] * len(shape), [index.stride(k) for k in range(index.dim())], 1,
                          flat.shape[0])


def _index_select(self, dim, index):
    x = self.reshape([1]) if self.dim() == 0 else self
    d = _dim(dim, x.dim())
    idx = index.reshape([-1])
    shape = [x.shape[k] for k in range(x.dim())]
    shape[d] = idx.shape[0]
    src_strides = [0 if k == d else x.stride(k) for k in range(x.dim())]
    idx_strides = [idx.stride(0) if k == d else 0 for k in range(x.dim())]
    out = _gather_launch(x, idx, shape, src_strides, idx_strides, x.stride(d), x.shape[d])
    if self.dim() == 0:
        return out.reshape([])
    return out


def _embedding(weight, indices):
    shape = [indices.shape[k] for k in range(indices.dim())] + [weight.shape[1]]
    src_strides = [0] * indices.dim() + [weight.stride(1)]
    idx_strides = [indices.stride(k) for k in range(indices.dim())] + [0]
    return _gather_launch(weight, indices, shape, src_strides, idx_strides, weight.stride(0), weight.shape[0])


_REDUCE_CODES = {"sum": 1, "add": 1, "prod": 2, "multiply": 2, "mean": 3, "amax": 4, "amin": 5}


def _scatter_launch(out, idx, src, iter_shape, out_strides, idx_strides, src_strides, dim_stride, dim_size,
                    reduce, include_self, value=0, alpha=1):
    # out is a contiguous copy of self; updates in the order of iter_shape
    n = 1
    for s in iter_shape:
        n *= s
    if n == 0:
        return out
    is_float = out.is_floating_point()
    if not is_float:
        alpha = int(alpha)
    cnt = torch.zeros(out.shape, dtype=torch.int32, device=out.device)
    s = _pad6(iter_shape, 1)
    o = _pad6(out_strides, 0)
    x = _pad6(idx_strides, 0)
    r = _pad6(src_strides, 0)
    from_src = src is not None
    src_arg = src if from_src else out
    index_scatter_kernel[(1, )](out, cnt, idx, src_arg, n, dim_stride, dim_size, value, alpha, s[0], s[1], s[2],
                                s[3], s[4], s[5], o[0], o[1], o[2], o[3], o[4], o[5], x[0], x[1], x[2], x[3], x[4],
                                x[5], r[0], r[1], r[2], r[3], r[4], r[5], REDUCE=reduce, FROM_SRC=from_src,
                                INCLUDE_SELF=include_self, IS_FLOAT=is_float)
    if reduce == 3:
        total = out.numel()
        mean_finish_kernel[(triton.cdiv(total, 256), )](out, cnt, total, INCLUDE_SELF=include_self,
                                                        IS_FLOAT=is_float, BLOCK=256)
    return out


def _scatter(self, dim, index, src, value, reduce, include_self=True):
    # scatter along dim: updates shaped like index
    out = self.contiguous().clone()
    if self.dim() == 0:
        out = out.reshape([1])
    idx = index.reshape([1]) if index.dim() == 0 else index
    d = _dim(dim, out.dim())
    shape = [idx.shape[k] for k in range(idx.dim())]
    ost = _contig_strides([out.shape[k] for k in range(out.dim())])
    out_strides = [0 if k == d else ost[k] for k in range(out.dim())]
    src_strides = [0] * len(shape)
    s = src
    if s is not None:
        if s.dim() == 0:
            s = s.reshape([1])
        src_strides = [s.stride(k) for k in range(s.dim())]
    _scatter_launch(out, idx, s, shape, out_strides, [idx.stride(k) for k in range(idx.dim())], src_strides,
                    ost[d], out.shape[d], reduce, include_self, value)
    return out.reshape(self.shape)


def _index_update(self, dim, index, source, value, reduce, include_self=True, alpha=1):
    # index_add/index_copy/index_fill/index_reduce: slice j of source lands at index[j] along dim
    out = self.contiguous().clone()
    if self.dim() == 0:
        out = out.reshape([1])
    d = _dim(dim, out.dim())
    idx = index.reshape([-1])
    shape = [out.shape[k] for k in range(out.dim())]
    shape[d] = idx.shape[0]
    ost = _contig_strides([out.shape[k] for k in range(out.dim())])
    out_strides = [0 if k == d else ost[k] for k in range(out.dim())]
    idx_strides = [idx.stride(0) if k == d else 0 for k in range(out.dim())]
    src = None
    src_strides = [0] * len(shape)
    if source is not None:
        src = source.reshape([1]) if source.dim() == 0 else source
        src_strides = [src.stride(k) for k in range(src.dim())]
    _scatter_launch(out, idx, src, shape, out_strides, idx_strides, src_strides, ost[d], out.shape[d], reduce,
                    include_self, value, alpha)
    return out.reshape(self.shape)


def _index_fill_tensor(self, dim, index, value):
    # index_fill with a 0-d tensor value: index_copy of the value broadcast over the indexed slices
    if value.dim() != 0:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
                           str(value.dim()) + " dimension(s).")
    nd = self.dim() if self.dim() > 0 else 1
    d = _dim(dim, nd)
    shape = [self.shape[k] for k in range(self.dim())] if self.dim() > 0 else [1]
    shape[d] = index.numel()
    src = value.to(self.dtype).reshape([1] * nd).expand(shape)
    return _index_update(self, dim, index, src, 0, 0)


def _put(self, index, source, accumulate):
    out = self.contiguous().clone().reshape([-1])
    idx = index.reshape([-1])
    src = source.reshape([-1])
    _scatter_launch(out, idx, src, [idx.shape[0]], [0], [idx.stride(0)], [src.stride(0)], 1, out.shape[0],
                    1 if accumulate else 0, True)
    return out.reshape(self.shape)


def _masked_fill(self, mask, value, inplace=False):
    shape = torch.broadcast_shapes(self.shape, mask.shape)
    x = self.expand(shape).contiguous()
    m = mask.expand(shape).contiguous()
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    n = out.numel()
    if n > 0:
        from_tensor = torch.is_tensor(value)
        v = value.contiguous() if from_tensor else x
        scalar = 0 if from_tensor else value
        masked_fill_kernel[(triton.cdiv(n, 256), )](x, m, v, out, n, scalar, FROM_TENSOR=from_tensor, BLOCK=256)
    if inplace:
        self.copy_(out)
        return self
    return out


@triton.jit
def offset_accumulate_kernel(idx_ptr, off_ptr, n, stride, size, CLAMP: tl.constexpr, BLOCK: tl.constexpr):
    # off += wrap(idx) * stride, over dense broadcast index tensors (CLAMP: idx clamped to
    # [-size, size - 1] first, as the _unsafe_masked_index ops do)
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    idx = tl.load(idx_ptr + i, mask=mask, other=0).to(tl.int64)
    if CLAMP:
        idx = tl.minimum(tl.maximum(idx, -size), size - 1)
    idx = tl.where(idx < 0, idx + size, idx)
    off = tl.load(off_ptr + i, mask=mask, other=0)
    tl.store(off_ptr + i, off + idx * stride, mask=mask)


def _advanced(self, indices, clamp=False):
    # advanced indexing by integer tensors: (offsets over the broadcast index shape, result shape,
    # result-coordinate strides into self, result-coordinate strides into the offsets)
    nd = self.dim()
    dims = [d for d in range(len(indices)) if indices[d] is not None]
    for d in dims:
        if indices[d].dtype == torch.bool or indices[d].dtype == torch.uint8:
            raise NotImplementedError("boolean mask indices have a data-dependent result shape")
    bshape = torch.broadcast_shapes(*[indices[d].shape for d in dims])
    bshape = [bshape[k] for k in range(len(bshape))]
    off = torch.zeros(bshape, dtype=torch.int64, device=self.device)
    n = off.numel()
    for d in dims:
        if n > 0:
            ix = indices[d].expand(bshape).contiguous()
            offset_accumulate_kernel[(triton.cdiv(n, 256), )](ix, off, n, self.stride(d), self.shape[d], CLAMP=clamp,
                                                               BLOCK=256)
    rest = [d for d in range(nd) if d not in dims]
    adjacent = dims[len(dims) - 1] - dims[0] + 1 == len(dims)
    bstr = _contig_strides(bshape)
    if adjacent:
        before = [d for d in rest if d < dims[0]]
        after = [d for d in rest if d > dims[0]]
    else:
        before = []
        after = rest
    shape = [self.shape[d] for d in before] + bshape + [self.shape[d] for d in after]
    src_strides = [self.stride(d) for d in before] + [0] * len(bshape) + [self.stride(d) for d in after]
    off_strides = [0] * len(before) + bstr + [0] * len(after)
    return off, shape, src_strides, off_strides


def _index_tensor(self, indices):
    off, shape, src_strides, off_strides = _advanced(self, indices)
    return _gather_launch(self, off, shape, src_strides, off_strides, 1, self.numel() + 1)


@triton.jit
def mask_put_kernel(x_ptr, m_ptr, v_ptr, out_ptr, n, ACC: tl.constexpr, BLOCK: tl.constexpr):
    # out = (x + v if ACC else v) where m, x elsewhere (bool as int32: a sum is nonzero or zero)
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0)
    m = tl.load(m_ptr + i, mask=mask, other=0)
    v = tl.load(v_ptr + i, mask=mask, other=0)
    if ACC:
        v = x + v
    tl.store(out_ptr + i, tl.where(m != 0, v, x).to(out_ptr.dtype.element_ty), mask=mask)


def _mask_put(self, m, values, accumulate):
    # one boolean mask over self's leading dims with values broadcast over every selected position:
    # the same values land wherever the mask is set, so no position depends on the mask's count
    md = m.dim()
    lead = [m.shape[d] for d in range(md)]
    full = m.reshape(lead + [1] * (self.dim() - md)).expand(self.shape).contiguous()
    work = torch.int32 if self.dtype == torch.bool else self.dtype
    x = self.to(work).contiguous()
    v = values.to(work).expand(self.shape).contiguous()
    out = torch.empty(self.shape, dtype=work, device=self.device)
    n = out.numel()
    if n > 0:
        mask_put_kernel[(triton.cdiv(n, 256), )](x, full, v, out, n, ACC=accumulate, BLOCK=256)
    return out.to(self.dtype) if self.dtype == torch.bool else out


def _index_put(self, indices, values, accumulate):
    if (len(indices) == 1 and indices[0] is not None
            and (indices[0].dtype == torch.bool or indices[0].dtype == torch.uint8)
            and values.dim() <= self.dim() - indices[0].dim()):
        return _mask_put(self, indices[0], values, accumulate)
    out = self.contiguous().clone()
    off, shape, src_strides, off_strides = _advanced(out, indices)
    v = values.to(self.dtype).expand(shape)
    _scatter_launch(out, off, v, shape, src_strides, off_strides, [v.stride(k) for k in range(len(shape))], 1,
                    out.numel() + 1, 1 if accumulate else 0, True)
    return out


@triton.jit
def keep_where_kernel(x_ptr, m_ptr, out_ptr, n, fill, BLOCK: tl.constexpr):
    # out = x where m else fill
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0)
    m = tl.load(m_ptr + i, mask=mask, other=0)
    r = tl.where(m != 0, x, fill)
    tl.store(out_ptr + i, r.to(out_ptr.dtype.element_ty), mask=mask)


def _keep_where(x, mask, fill):
    shape = torch.broadcast_shapes(x.shape, mask.shape)
    xs = x.expand(shape).contiguous()
    out = torch.empty(shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    if n > 0:
        if x.dtype == torch.bool:
            xs = xs.to(torch.int32)
            fill = 1 if fill else 0
        elif x.is_floating_point():
            fill = float(fill)
        else:
            fill = int(fill)
        keep_where_kernel[(triton.cdiv(n, 256), )](xs, mask.expand(shape).contiguous(), out, n, fill, BLOCK=256)
    return out


def _masked_index(self, mask, indices, fill):
    # self[clamped indices] where mask, fill elsewhere (indices may be out of range where mask is False)
    off, shape, src_strides, off_strides = _advanced(self, indices, True)
    g = _gather_launch(self, off, shape, src_strides, off_strides, 1, self.numel() + 1)
    return _keep_where(g, mask, fill)


def _masked_index_put_accumulate(self, mask, indices, values):
    out = self.contiguous().clone()
    off, shape, src_strides, off_strides = _advanced(out, indices, True)
    v = _keep_where(values.to(self.dtype), mask, 0).expand(shape)
    _scatter_launch(out, off, v, shape, src_strides, off_strides, [v.stride(k) for k in range(len(shape))], 1,
                    out.numel() + 1, 1, True)
    return out


@triton.jit
def nonzero_static_kernel(x_ptr, out_ptr, n, size, s1, s2, s3, s4, s5):
    # one program walks the elements in row-major order; the k-th nonzero (k < size) writes its six
    # (padded) coordinates to row k of out
    count = tl.zeros([], dtype=tl.int64)
    for i in range(0, n):
        v = tl.load(x_ptr + i)
        take = (v != 0) & (count < size)
        rem = i
        c5 = rem % s5
        rem = rem // s5
        c4 = rem % s4
        rem = rem // s4
        c3 = rem % s3
        rem = rem // s3
        c2 = rem % s2
        rem = rem // s2
        c1 = rem % s1
        c0 = rem // s1
        row = out_ptr + count * 6
        tl.store(row, c0, mask=take)
        tl.store(row + 1, c1, mask=take)
        tl.store(row + 2, c2, mask=take)
        tl.store(row + 3, c3, mask=take)
        tl.store(row + 4, c4, mask=take)
        tl.store(row + 5, c5, mask=take)
        count += take.to(tl.int64)


def _nonzero_static(self, size, fill_value):
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer, but got size = " + str(size))
    nd = self.dim()
    if nd > 6:
        raise NotImplementedError("nonzero_static supports at most 6 dims, got " + str(nd))
    buf = torch.full([size, 6], fill_value, dtype=torch.int64, device=self.device)
    n = self.numel()
    if n > 0 and size > 0:
        x = self.contiguous()
        if x.dtype == torch.bool:
            x = x.to(torch.int32)
        s = [1] * (6 - nd) + [self.shape[d] for d in range(nd)]
        nonzero_static_kernel[(1, )](x, buf, n, size, s[1], s[2], s[3], s[4], s[5])
    return buf.narrow(1, 6 - nd, nd).contiguous()


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
