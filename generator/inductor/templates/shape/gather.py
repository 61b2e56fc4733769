"""{{SCHEMA}}

Lowered by opforge's inductor provider (shape family, gather template): every
copy-like shape op as one strided gather over up to six dims. Each output
element at coordinates c reads the source at base + sum((c + add) [mod lim]) *
src_stride, only where every source coordinate is inside [0, lim) and the
optional triangle/diagonal test on the last two dims holds; other elements keep
what the wrapper filled the output with (the pad value, zeros).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_kernel(src_ptr, out_ptr, n, base, obase, k,
                  s0, s1, s2, s3, s4, s5, o0, o1, o2, o3, o4, o5, t0, t1, t2, t3, t4, t5,
                  a0, a1, a2, a3, a4, a5, l0, l1, l2, l3, l4, l5,
                  WRAP: tl.constexpr, PAD_MODE: tl.constexpr, TRI: tl.constexpr, OUT_BOOL: tl.constexpr, OUT_U8: tl.constexpr,
                  BLOCK: tl.constexpr):
    # PAD_MODE: 0 none, 1 reflect, 2 replicate (source coordinates folded back into [0, lim))
    # TRI: 0 none, 1 keep col - row <= k (tril), 2 keep col - row >= k (triu), 3 keep col - row == k
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
    x0 = c0 + a0
    x1 = c1 + a1
    x2 = c2 + a2
    x3 = c3 + a3
    x4 = c4 + a4
    x5 = c5 + a5
    if WRAP:
        x0 = x0 % l0
        x1 = x1 % l1
        x2 = x2 % l2
        x3 = x3 % l3
        x4 = x4 % l4
        x5 = x5 % l5
    if PAD_MODE == 1:
        x0 = _reflect(x0, l0)
        x1 = _reflect(x1, l1)
        x2 = _reflect(x2, l2)
        x3 = _reflect(x3, l3)
        x4 = _reflect(x4, l4)
        x5 = _reflect(x5, l5)
    elif PAD_MODE == 2:
        x0 = tl.minimum(tl.maximum(x0, 0), l0 - 1)
        x1 = tl.minimum(tl.maximum(x1, 0), l1 - 1)
        x2 = tl.minimum(tl.maximum(x2, 0), l2 - 1)
        x3 = tl.minimum(tl.maximum(x3, 0), l3 - 1)
        x4 = tl.minimum(tl.maximum(x4, 0), l4 - 1)
        x5 = tl.minimum(tl.maximum(x5, 0), l5 - 1)
    valid = mask & (x0 >= 0) & (x0 < l0) & (x1 >= 0) & (x1 < l1) & (x2 >= 0) & (x2 < l2)
    valid = valid & (x3 >= 0) & (x3 < l3) & (x4 >= 0) & (x4 < l4) & (x5 >= 0) & (x5 < l5)
    if TRI == 1:
        valid = valid & (c5 - c4 <= k)
    elif TRI == 2:
        valid = valid & (c5 - c4 >= k)
    elif TRI == 3:
        valid = valid & (c5 - c4 == k)
    src_off = base + x0 * t0 + x1 * t1 + x2 * t2 + x3 * t3 + x4 * t4 + x5 * t5
    out_off = obase + c0 * o0 + c1 * o1 + c2 * o2 + c3 * o3 + c4 * o4 + c5 * o5
    v = tl.load(src_ptr + src_off, mask=valid, other=0)
    if OUT_BOOL:
        v = v != 0
    if OUT_U8:
        # floats reach uint8 through int64, so negative values wrap as in ATen
        v = v.to(tl.int64)
    tl.store(out_ptr + out_off, v.to(out_ptr.dtype.element_ty), mask=valid)


@triton.jit
def _reflect(x, size):
    x = tl.where(x < 0, -x, x)
    return tl.where(x >= size, 2 * (size - 1) - x, x)


def _dim(d, ndim):
    rank = ndim if ndim > 0 else 1
    if d < -rank or d >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(d) + ")")
    return d % rank


def _gather(src, out, src_strides=None, base=0, add=None, lim=None, wrap=False, tri=0, k=0, out_shape=None,
            out_strides=None, out_base=0, pad_mode=0):
    # out[c] = src[base + sum(((c + add) mod lim) * src_strides)]; src_strides default to src's own; the
    # output may be addressed as a view of `out` (out_shape, out_strides, out_base in elements)
    if out_shape is None:
        out_shape = [out.shape[d] for d in range(out.dim())]
    if out_strides is None:
        out_strides = [out.stride(d) for d in range(out.dim())]
    nd = len(out_shape)
    if nd > 6:
        raise NotImplementedError("shape gather supports at most 6 dims, got " + str(nd))
    n = 1
    for d in range(nd):
        n *= out_shape[d]
    if n == 0:
        return out
    if src_strides is None:
        src_strides = [src.stride(d) for d in range(nd)]
    if add is None:
        add = [0] * nd
    if lim is None:
        lim = list(out_shape)
    pad = 6 - nd
    sizes = [1] * pad + list(out_shape)
    ost = [0] * pad + list(out_strides)
    sst = [0] * pad + list(src_strides)
    a = [0] * pad + list(add)
    m = [1] * pad + list(lim)
    for d in range(6):
        if m[d] <= 0:
            return out
    BLOCK = 256
    gather_kernel[(triton.cdiv(n, BLOCK), )](src, out, n, base, out_base, k, sizes[0], sizes[1], sizes[2], sizes[3], sizes[4],
                                             sizes[5], ost[0], ost[1], ost[2], ost[3], ost[4], ost[5], sst[0], sst[1],
                                             sst[2], sst[3], sst[4], sst[5], a[0], a[1], a[2], a[3], a[4], a[5], m[0],
                                             m[1], m[2], m[3], m[4], m[5], WRAP=wrap, PAD_MODE=pad_mode, TRI=tri,
                                             OUT_BOOL=out.dtype == torch.bool,
                                             OUT_U8=out.dtype == torch.uint8 and src.is_floating_point(), BLOCK=BLOCK)
    return out


def _copy_to(src, dtype):
    out = torch.empty(src.shape, dtype=dtype, device=src.device)
    return _gather(src, out)


def _clone(self):
    return _copy_to(self, self.dtype)


def _convert_copy(self, dtype):
    return _copy_to(self, self.dtype if dtype is None else dtype)


def _copy_into(self, src):
    # self <- src broadcast to self's shape and converted to self's dtype
    s = src
    if s.dim() < self.dim() or list(s.shape) != list(self.shape):
        s = s.expand(self.shape)
    tmp = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    _gather(s, tmp)
    self.copy_(tmp)
    return self


def _constant_pad(self, pad, value):
    nd = self.dim()
    if len(pad) % 2 != 0 or len(pad) // 2 > nd:
        raise RuntimeError("Length of pad must be even but instead it equals " + str(len(pad)))
    before = [0] * nd
    after = [0] * nd
    for j in range(len(pad) // 2):
        d = nd - 1 - j
        before[d] = pad[2 * j]
        after[d] = pad[2 * j + 1]
    shape = [self.shape[d] + before[d] + after[d] for d in range(nd)]
    for s in shape:
        if s < 0:
            raise RuntimeError("The input size " + str(list(self.shape)) + ", plus negative padding " + str(pad) +
                               " resulted in a negative output size, which is invalid.")
    out = torch.full(shape, value, dtype=self.dtype, device=self.device)
    return _gather(self, out, add=[-before[d] for d in range(nd)], lim=[self.shape[d] for d in range(nd)])


def _flip(self, dims):
    nd = self.dim()
    flipped = [_dim(d, nd) for d in dims]
    strides = [self.stride(d) for d in range(nd)]
    base = 0
    for d in range(nd):
        if d in flipped and self.shape[d] > 0:
            base += (self.shape[d] - 1) * strides[d]
            strides[d] = -strides[d]
    out = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    return _gather(self, out, src_strides=strides, base=base)


def _roll(self, shifts, dims):
    if len(dims) == 0:
        flat = self.reshape([-1])
        return _roll(flat, shifts, [0]).reshape(self.shape)
    nd = self.dim()
    add = [0] * nd
    for j in range(len(dims)):
        d = _dim(dims[j], nd)
        size = self.shape[d]
        if size > 0:
            add[d] = (add[d] + size - shifts[j] % size) % size
    out = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    return _gather(self, out, add=add, lim=[self.shape[d] for d in range(nd)], wrap=True)


def _repeat(self, repeats):
    nd = len(repeats)
    if nd < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    x = self
    while x.dim() < nd:
        x = x.unsqueeze(0)
    shape = [x.shape[d] * repeats[d] for d in range(nd)]
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    return _gather(x, out, lim=[x.shape[d] for d in range(nd)], wrap=True)


def _triangle(self, diagonal, tri):
    out = torch.zeros(self.shape, dtype=self.dtype, device=self.device)
    if self.dim() < 2:
        raise RuntimeError("tril/triu: input tensor must have at least 2 dimensions")
    return _gather(self, out, tri=tri, k=diagonal)


def _diag(self, diagonal):
    if self.dim() == 1:
        n = self.shape[0] + (diagonal if diagonal >= 0 else -diagonal)
        out = torch.zeros([n, n], dtype=self.dtype, device=self.device)
        s = self.stride(0)
        strides = [s, 0] if diagonal >= 0 else [0, s]
        return _gather(self, out, src_strides=strides, lim=[n, n], tri=3, k=diagonal)
    if self.dim() != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + str(self.dim()) + "D")
    return _diagonal(self, diagonal, 0, 1)


def _diagonal(self, offset, dim1, dim2):
    # the diagonal of dims (dim1, dim2) moved to the end, copied
    nd = self.dim()
    d1 = _dim(dim1, nd)
    d2 = _dim(dim2, nd)
    if offset >= 0:
        length = self.shape[d1]
        if self.shape[d2] - offset < length:
            length = self.shape[d2] - offset
        base = offset * self.stride(d2)
    else:
        length = self.shape[d1] + offset
        if self.shape[d2] < length:
            length = self.shape[d2]
        base = -offset * self.stride(d1)
    if length < 0:
        length = 0
    rest = [d for d in range(nd) if d != d1 and d != d2]
    shape = [self.shape[d] for d in rest] + [length]
    strides = [self.stride(d) for d in rest] + [self.stride(d1) + self.stride(d2)]
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    if length == 0:
        return out
    return _gather(self, out, src_strides=strides, base=base)


def _cat(tensors, dim):
    out_dtype = tensors[0].dtype
    for t in tensors:
        out_dtype = torch.promote_types(out_dtype, t.dtype)
    parts = [t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)]
    if len(parts) == 0:
        return torch.empty([0], dtype=out_dtype, device=tensors[0].device)
    nd = parts[0].dim()
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    d = _dim(dim, nd)
    shape = list(parts[0].shape)
    total = 0
    for t in parts:
        total += t.shape[d]
    shape[d] = total
    out = torch.empty(shape, dtype=out_dtype, device=parts[0].device)
    offset = 0
    for t in parts:
        if t.shape[d] > 0:
            _gather(t, out.narrow(d, offset, t.shape[d]))
        offset += t.shape[d]
    return out


def _cat_chunks(tensors, dim, num_chunks):
    # each tensor split into num_chunks chunks along dim (the last ones zero-padded to the chunk
    # size), flattened per chunk, and the tensors concatenated chunk by chunk: [pre..., num_chunks, *]
    d = _dim(dim, tensors[0].dim())
    parts = []
    for t in tensors:
        size = t.shape[d]
        chunk = (size + num_chunks - 1) // num_chunks
        shape = [t.shape[k] for k in range(t.dim())]
        shape[d] = chunk * num_chunks
        x = torch.zeros(shape, dtype=t.dtype, device=t.device)
        if t.numel() > 0:
            _gather(t, x.narrow(d, 0, size))
        parts.append(x.reshape([t.shape[k] for k in range(d)] + [num_chunks, -1]))
    return _cat(parts, d + 1)


def _stack(tensors, dim):
    nd = tensors[0].dim() + 1
    d = _dim(dim, nd)
    return _cat([t.unsqueeze(d) for t in tensors], d)


def _rot90(self, k, dims):
    d0 = _dim(dims[0], self.dim())
    d1 = _dim(dims[1], self.dim())
    k = k % 4
    if k == 1:
        return _flip(self, [d1]).transpose(d0, d1).contiguous()
    if k == 2:
        return _flip(self, [d0, d1])
    if k == 3:
        return _flip(self, [d0]).transpose(d0, d1).contiguous()
    return _clone(self)


def _unfold(self, dimension, size, step):
    nd = self.dim()
    if nd == 0:
        out = torch.empty([size], dtype=self.dtype, device=self.device)
        return _gather(self.reshape([1]), out)
    d = _dim(dimension, nd)
    count = (self.shape[d] - size) // step + 1
    shape = [self.shape[i] for i in range(nd)] + [size]
    shape[d] = count
    strides = [self.stride(i) for i in range(nd)] + [self.stride(d)]
    strides[d] = self.stride(d) * step
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    return _gather(self, out, src_strides=strides)


def _pixel_shuffle(self, r, inverse):
    nd = self.dim()
    batch = 1
    for d in range(nd - 3):
        batch *= self.shape[d]
    c = self.shape[nd - 3]
    h = self.shape[nd - 2]
    w = self.shape[nd - 1]
    x = self.contiguous()
    if inverse:
        oc = c * r * r
        oh = h // r
        ow = w // r
        src = x.reshape([batch, c, oh, r, ow, r]).permute([0, 1, 3, 5, 2, 4])
    else:
        oc = c // (r * r)
        oh = h * r
        ow = w * r
        src = x.reshape([batch, oc, r, r, h, w]).permute([0, 1, 4, 2, 5, 3])
    out = torch.empty(src.shape, dtype=self.dtype, device=self.device)
    _gather(src, out)
    return out.reshape([self.shape[d] for d in range(nd - 3)] + [oc, oh, ow])


def _channel_shuffle(self, groups):
    # (N, C, *) viewed as (N, groups, C / groups, *), the two group dims swapped, back to (N, C, *)
    nd = self.dim()
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of groups:" +
                           str(groups))
    c = self.shape[1]
    if c % groups != 0:
        raise RuntimeError("Number of channels must be divisible by groups. Got " + str(c) +
                           " channels and " + str(groups) + " groups.")
    rest = [self.shape[d] for d in range(2, nd)]
    src = self.contiguous().reshape([self.shape[0], groups, c // groups] + rest).transpose(1, 2)
    out = torch.empty(src.shape, dtype=self.dtype, device=self.device)
    _gather(src, out)
    return out.reshape([self.shape[d] for d in range(nd)])


def _split(self, sizes, dim):
    d = _dim(dim, self.dim())
    parts = []
    offset = 0
    for s in sizes:
        parts.append(_clone(self.narrow(d, offset, s)))
        offset += s
    return parts


def _split_even(self, split_size, dim):
    d = _dim(dim, self.dim())
    n = self.shape[d]
    sizes = []
    offset = 0
    while offset < n:
        s = split_size if offset + split_size <= n else n - offset
        sizes.append(s)
        offset += s
    if n == 0:
        sizes = [0]
    return _split(self, sizes, d)


def _unbind(self, dim):
    d = _dim(dim, self.dim())
    return [_clone(self.select(d, i)) for i in range(self.shape[d])]


def _mode_pad(self, padding, mode):
    # reflection (mode 1) or replication (mode 2) padding of the last len(padding) // 2 dims
    nd = self.dim()
    before = [0] * nd
    after = [0] * nd
    for j in range(len(padding) // 2):
        d = nd - 1 - j
        before[d] = padding[2 * j]
        after[d] = padding[2 * j + 1]
    shape = [self.shape[d] + before[d] + after[d] for d in range(nd)]
    out = torch.empty(shape, dtype=self.dtype, device=self.device)
    return _gather(self, out, add=[-before[d] for d in range(nd)], lim=[self.shape[d] for d in range(nd)],
                   pad_mode=mode)


def _diag_view(t, offset, d1, d2):
    # (shape, strides, base) of the diagonal of t's dims d1, d2, moved to the end
    nd = t.dim()
    if offset >= 0:
        length = t.shape[d1]
        if t.shape[d2] - offset < length:
            length = t.shape[d2] - offset
        base = offset * t.stride(d2)
    else:
        length = t.shape[d1] + offset
        if t.shape[d2] < length:
            length = t.shape[d2]
        base = -offset * t.stride(d1)
    if length < 0:
        length = 0
    rest = [d for d in range(nd) if d != d1 and d != d2]
    shape = [t.shape[d] for d in rest] + [length]
    strides = [t.stride(d) for d in rest] + [t.stride(d1) + t.stride(d2)]
    return shape, strides, base


def _select_scatter(self, src, dim, index):
    out = _clone(self)
    d = _dim(dim, self.dim())
    if index < 0:
        index += self.shape[d]
    view = out.select(d, index)
    if view.numel() > 0:
        _gather(src.expand(view.shape), view)
    return out


def _slice_scatter(self, src, dim, start, end, step):
    out = _clone(self)
    d = _dim(dim, self.dim())
    size = self.shape[d]
    s = 0 if start is None else start
    e = size if end is None else end
    if s < 0:
        s += size
    if e < 0:
        e += size
    s = 0 if s < 0 else (size if s > size else s)
    e = s if e < s else (size if e > size else e)
    length = (e - s + step - 1) // step
    if length <= 0:
        return out
    view = out.narrow(d, s, (length - 1) * step + 1)
    shape = [view.shape[k] for k in range(view.dim())]
    shape[d] = length
    strides = [view.stride(k) for k in range(view.dim())]
    strides[d] = strides[d] * step
    _gather(src.expand(shape), view, out_shape=shape, out_strides=strides)
    return out


def _diagonal_scatter(self, src, offset, dim1, dim2):
    out = _clone(self)
    shape, strides, base = _diag_view(out, offset, _dim(dim1, self.dim()), _dim(dim2, self.dim()))
    _gather(src.expand(shape), out, out_shape=shape, out_strides=strides, out_base=base)
    return out


def _as_strided_scatter(self, src, size, stride, storage_offset):
    out = _clone(self)
    _gather(src.expand(size), out, out_shape=list(size), out_strides=list(stride),
            out_base=0 if storage_offset is None else storage_offset)
    return out


def _narrow_copy(self, dim, start, length):
    d = _dim(dim, self.dim())
    if start < 0:
        start += self.shape[d]
    return _clone(self.narrow(d, start, length))


def _diag_embed(self, offset, dim1, dim2):
    nd = self.dim() + 1
    d1 = _dim(dim1, nd)
    d2 = _dim(dim2, nd)
    n = self.shape[self.dim() - 1] + (offset if offset >= 0 else -offset)
    rest = [self.shape[k] for k in range(self.dim() - 1)]
    shape = []
    j = 0
    for k in range(nd):
        if k == d1 or k == d2:
            shape.append(n)
        else:
            shape.append(rest[j])
            j += 1
    out = torch.zeros(shape, dtype=self.dtype, device=self.device)
    vshape, vstrides, base = _diag_view(out, offset, d1, d2)
    _gather(self, out, out_shape=vshape, out_strides=vstrides, out_base=base)
    return out


def _block_diag(tensors):
    dtype = tensors[0].dtype
    for t in tensors:
        dtype = torch.promote_types(dtype, t.dtype)
    mats = []
    for t in tensors:
        if t.dim() == 0:
            mats.append(t.reshape([1, 1]))
        elif t.dim() == 1:
            mats.append(t.reshape([1, t.shape[0]]))
        else:
            mats.append(t)
    rows = 0
    cols = 0
    for m in mats:
        rows += m.shape[0]
        cols += m.shape[1]
    out = torch.zeros([rows, cols], dtype=dtype, device=tensors[0].device)
    r = 0
    c = 0
    for m in mats:
        if m.shape[0] > 0 and m.shape[1] > 0:
            _gather(m, out.narrow(0, r, m.shape[0]).narrow(1, c, m.shape[1]))
        r += m.shape[0]
        c += m.shape[1]
    return out


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
