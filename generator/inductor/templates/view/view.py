"""{{SCHEMA}}

Lowered by opforge's inductor provider (view family, view template): ATen ops
that only change a tensor's sizes, strides or storage offset. Where the
wrapper surface has the view (view, reshape, expand, permute, transpose,
squeeze, unsqueeze, narrow, select) the wrapper returns that runtime view of
the input's buffer, with no kernel; as_strided-style views with arbitrary
strides, and the ops that must copy, run one strided-copy kernel that reads
src[offset + sum(c * stride)] for each output coordinate c (up to six dims).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def strided_copy_kernel(src_ptr, out_ptr, n, base, s0, s1, s2, s3, s4, s5, t0, t1, t2, t3, t4, t5,
                        BLOCK: tl.constexpr):
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
    off = base + c0 * t0 + c1 * t1 + c2 * t2 + c3 * t3 + c4 * t4 + c5 * t5
    v = tl.load(src_ptr + off, mask=mask, other=0)
    tl.store(out_ptr + i, v.to(out_ptr.dtype.element_ty), mask=mask)


def _dim(d, ndim):
    rank = ndim if ndim > 0 else 1
    if d < -rank or d >= rank:
        raise IndexError("Dimension out of range (expected to be in range of [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(d) + ")")
    return d % rank


def _strided_copy(src, size, stride, base):
    # a contiguous tensor of `size` whose element c is src's element base + sum(c * stride)
    # (base and strides in elements, relative to src's first element)
    nd = len(size)
    if nd > 6:
        raise NotImplementedError("strided copy supports at most 6 dims, got " + str(nd))
    if len(stride) != nd:
        raise RuntimeError("mismatch in length of strides and shape")
    out = torch.empty(list(size), dtype=src.dtype, device=src.device)
    n = 1
    for s in size:
        n *= s
    if n == 0:
        return out
    pad = 6 - nd
    sizes = [1] * pad + list(size)
    st = [0] * pad + list(stride)
    BLOCK = 256
    strided_copy_kernel[(triton.cdiv(n, BLOCK), )](src, out, n, base, sizes[0], sizes[1], sizes[2], sizes[3],
                                                   sizes[4], sizes[5], st[0], st[1], st[2], st[3], st[4], st[5],
                                                   BLOCK=BLOCK)
    return out


def _as_strided(self, size, stride, storage_offset):
    # storage_offset counts from the start of self's storage; the kernel addresses from self's
    # first element
    base = 0 if storage_offset is None else storage_offset - self.storage_offset()
    return _strided_copy(self, size, stride, base)


def _copy(self):
    return _strided_copy(self, [self.shape[d] for d in range(self.dim())],
                         [self.stride(d) for d in range(self.dim())], 0)


def _t(self):
    if self.dim() > 2:
        raise RuntimeError("t() expects a tensor with <= 2 dimensions, but self is " + str(self.dim()) + "D")
    if self.dim() < 2:
        return self
    return self.transpose(0, 1)


def _squeeze_all(self):
    return self.squeeze()


def _squeeze_dim(self, dim):
    if self.dim() == 0:
        _dim(dim, 0)
        return self
    return self.squeeze(_dim(dim, self.dim()))


def _squeeze_dims(self, dims):
    # squeeze every listed dim of size 1 (a 0-d tensor accepts dims 0 and -1)
    nd = self.dim()
    keep = [True] * nd
    for d in dims:
        k = _dim(d, nd)
        if nd > 0 and self.shape[k] == 1:
            keep[k] = False
    return self.reshape([self.shape[k] for k in range(nd) if keep[k]])


def _unsqueeze(self, dim):
    return self.unsqueeze(_dim(dim, self.dim() + 1))


def _expand(self, size):
    nd = len(size)
    if nd < self.dim():
        raise RuntimeError("expand: the number of sizes provided (" + str(nd) +
                           ") must be greater or equal to the number of dimensions in the tensor (" +
                           str(self.dim()) + ")")
    shape = []
    lead = nd - self.dim()
    for d in range(nd):
        s = size[d]
        if s == -1:
            if d < lead:
                raise RuntimeError("expand: -1 is not allowed in a leading, non-existing dimension")
            s = self.shape[d - lead]
        shape.append(s)
    return self.expand(shape)


def _select(self, dim, index):
    d = _dim(dim, self.dim())
    size = self.shape[d]
    if index < -size or index >= size:
        raise IndexError("select(): index " + str(index) + " out of range for tensor of size " +
                         str(list(self.shape)) + " at dimension " + str(d))
    if index < 0:
        index += size
    return self.select(d, index)


def _slice(self, dim, start, end, step):
    d = _dim(dim, self.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
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
    if step == 1:
        return self.narrow(d, s, length)
    nd = self.dim()
    shape = [self.shape[k] for k in range(nd)]
    strides = [self.stride(k) for k in range(nd)]
    shape[d] = length
    strides[d] = strides[d] * step
    return _strided_copy(self, shape, strides, s * self.stride(d))


def _permute(self, dims):
    nd = self.dim()
    if len(dims) != nd:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           "length of the desired ordering of dimensions i.e. input.dim() = " + str(nd) +
                           " is not equal to len(dims) = " + str(len(dims)))
    return self.permute([_dim(d, nd) for d in dims])


def _transpose(self, dim0, dim1):
    nd = self.dim()
    if nd == 0:
        _dim(dim0, 0)
        _dim(dim1, 0)
        return self
    return self.transpose(_dim(dim0, nd), _dim(dim1, nd))


def _resize(self, size):
    # the first numel(size) elements of self in its row-major order; elements past self's
    # numel are uninitialized in ATen and are zero here
    n = 1
    for s in size:
        n *= s
    flat = _copy(self).reshape([-1])
    out = torch.zeros([n], dtype=self.dtype, device=self.device)
    keep = n if n < flat.numel() else flat.numel()
    if keep > 0:
        out.narrow(0, 0, keep).copy_(flat.narrow(0, 0, keep))
    return out.reshape(list(size))


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
