"""{{SCHEMA}}

Lowered by opforge's inductor provider (special family, log_sigmoid
template): log_sigmoid_forward's two outputs as ATen's CPU kernel computes
them: buffer = exp(-|x|), output = min(x, 0) - log1p(buffer), in float32 for
float16/bfloat16 inputs, rounded once on store.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def log_sigmoid_kernel(x_ptr, out_ptr, buf_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x = tl.load(x_ptr + i, mask=mask, other=0).to(tl.float32)
    z = tl.exp(-tl.abs(x))
    # log1p(z) = log(u) * z / (u - 1) with u = 1 + z (exact where u rounds to 1)
    u = 1.0 + z
    l1p = tl.where(u == 1.0, z, tl.log(u) * (z / (u - 1.0)))
    out = tl.minimum(x, 0.0) - l1p
    tl.store(out_ptr + i, out.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(buf_ptr + i, z.to(buf_ptr.dtype.element_ty), mask=mask)


def {{WRAPPER}}({{SIGNATURE}}):
    if not self.is_floating_point():
        raise RuntimeError("\"log_sigmoid_forward_cpu\" not implemented for '" + str(self.dtype) + "'")
    out = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    buf = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    n = out.numel()
    if n == 0:
        return out, buf
    BLOCK = 256
    log_sigmoid_kernel[(triton.cdiv(n, BLOCK), )](self.contiguous(), out, buf, n, BLOCK=BLOCK)
    return out, buf
