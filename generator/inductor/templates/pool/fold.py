"""{{SCHEMA}}

Lowered by opforge's inductor provider (pool family, fold template): im2col
(unfold) copies each sliding block of a padded [C, H, W] image into a column;
col2im (fold) sums, for each image pixel, the column entries of every block
that covers it, in ATen's order (kernel row, then kernel column).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def im2col_kernel(x_ptr, out_ptr, n, C, H, W, KH, KW, OH, OW, SH, SW, PH, PW, DH, DW, BLOCK: tl.constexpr):
    # out: [N, C * KH * KW, OH * OW]
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    ox = k % OW
    r = k // OW
    oy = r % OH
    r = r // OH
    j = r % KW
    r = r // KW
    i = r % KH
    r = r // KH
    c = r % C
    b = r // C
    y = oy * SH - PH + i * DH
    x = ox * SW - PW + j * DW
    valid = mask & (y >= 0) & (y < H) & (x >= 0) & (x < W)
    v = tl.load(x_ptr + ((b * C + c) * H + y) * W + x, mask=valid, other=0)
    tl.store(out_ptr + k, v, mask=mask)


@triton.jit
def col2im_kernel(col_ptr, out_ptr, n, C, H, W, KH, KW, OH, OW, SH, SW, PH, PW, DH, DW, BLOCK: tl.constexpr):
    # out: [N, C, H, W]; col: [N, C * KH * KW, OH * OW]
    k = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = k < n
    w = k % W
    r = k // W
    h = r % H
    r = r // H
    c = r % C
    b = r // C
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, KH):
        ty = h + PH - i * DH
        oy = ty // SH
        vy = (ty >= 0) & (ty - oy * SH == 0) & (oy < OH)
        for j in range(0, KW):
            tx = w + PW - j * DW
            ox = tx // SW
            valid = mask & vy & (tx >= 0) & (tx - ox * SW == 0) & (ox < OW)
            row = (b * C + c) * KH * KW + i * KW + j
            v = tl.load(col_ptr + (row * OH + oy) * OW + ox, mask=valid, other=0).to(tl.float32)
            acc = acc + v
    tl.store(out_ptr + k, acc.to(out_ptr.dtype.element_ty), mask=mask)


def _pair(v, name):
    v = list(v)
    if len(v) == 1:
        return [v[0], v[0]]
    if len(v) != 2:
        raise RuntimeError(name + " must have 2 elements, got " + str(len(v)))
    return v


def _im2col(self, kernel_size, dilation, padding, stride):
    k = _pair(kernel_size, "kernel_size")
    d = _pair(dilation, "dilation")
    p = _pair(padding, "padding")
    s = _pair(stride, "stride")
    batched = self.dim() == 4
    x = self if batched else self.unsqueeze(0)
    N = x.shape[0]
    C = x.shape[1]
    H = x.shape[2]
    W = x.shape[3]
    oh = (H + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
    ow = (W + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
    if oh < 1 or ow < 1:
        raise RuntimeError("Given input with spatial size (" + str(H) + ", " + str(W) +
                           "), the calculated shape of the array of sliding blocks is (" + str(oh) + ", " +
                           str(ow) + "), but its components must be at least one.")
    out = torch.empty([N, C * k[0] * k[1], oh * ow], dtype=self.dtype, device=self.device)
    n = out.numel()
    if n > 0:
        BLOCK = 128
        im2col_kernel[(triton.cdiv(n, BLOCK), )](x.contiguous(), out, n, C, H, W, k[0], k[1], oh, ow, s[0], s[1],
                                                 p[0], p[1], d[0], d[1], BLOCK=BLOCK)
    return out if batched else out.squeeze(0)


def _col2im(self, output_size, kernel_size, dilation, padding, stride):
    size = _pair(output_size, "output_size")
    k = _pair(kernel_size, "kernel_size")
    d = _pair(dilation, "dilation")
    p = _pair(padding, "padding")
    s = _pair(stride, "stride")
    batched = self.dim() == 3
    x = self if batched else self.unsqueeze(0)
    N = x.shape[0]
    kk = k[0] * k[1]
    if x.shape[1] % kk != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           "but got input.size(1)=" + str(x.shape[1]) + " and kernel_size=" + str(k))
    C = x.shape[1] // kk
    H = size[0]
    W = size[1]
    oh = (H + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
    ow = (W + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
    if oh * ow != x.shape[2]:
        raise RuntimeError("Given output_size=" + str(size) + ", kernel_size=" + str(k) + ", dilation=" + str(d) +
                           ", padding=" + str(p) + ", stride=" + str(s) + ", expected size of input's dimension 2 "
                           "to match the calculated number of sliding blocks " + str(oh) + " * " + str(ow) + " = " +
                           str(oh * ow) + ", but got input.size(2)=" + str(x.shape[2]) + ".")
    out = torch.empty([N, C, H, W], dtype=self.dtype, device=self.device)
    n = out.numel()
    if n > 0:
        BLOCK = 128
        col2im_kernel[(triton.cdiv(n, BLOCK), )](x.contiguous(), out, n, C, H, W, k[0], k[1], oh, ow, s[0], s[1],
                                                 p[0], p[1], d[0], d[1], BLOCK=BLOCK)
    return out if batched else out.squeeze(0)


def {{WRAPPER}}({{SIGNATURE}}):
    return {{RESULT}}
