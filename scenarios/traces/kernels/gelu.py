# opforge generated kernel: aten::gelu
# category: pointwise
# provider: inductor, model: inductor-templates, attempt: 0, date: 2026-11-29
"""aten::gelu(Tensor self, *, str approximate="none") -> Tensor

Lowered by opforge's inductor provider (pointwise family, elementwise template):
up to three broadcast operands (tensors, 0-d tensors or Python numbers) with
ATen's type promotion, three scalar parameters (s0, s1, s2), one element-wise
expression for floating compute (EXPR) and one for integer and bool (INT_EXPR).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n_elements, s0, s1, s2,
                      NUM_INPUTS: tl.constexpr, IS_FLOAT: tl.constexpr, UPCAST: tl.constexpr,
                      BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0)
    y = x
    z = x
    if NUM_INPUTS > 1:
        y = tl.load(y_ptr + offsets, mask=mask, other=0)
    if NUM_INPUTS > 2:
        z = tl.load(z_ptr + offsets, mask=mask, other=0)
    if UPCAST:
        # float16/bfloat16 compute in float32 and round once on store, as ATen does
        x = x.to(tl.float32)
        y = y.to(tl.float32)
        z = z.to(tl.float32)
    if IS_FLOAT:
        # float16/bfloat16: ATen computes in the dtype (constants and every step rounded to it)
        rt = out_ptr.dtype.element_ty
        kb = (tl.zeros_like(x) + 0.7978845608028654).to(rt).to(tl.float32)
        kk = (tl.zeros_like(x) + 0.044715).to(rt).to(tl.float32)
        cube = ((x * x).to(rt).to(tl.float32) * x).to(rt).to(tl.float32)
        inner = (kb * (x + (kk * cube).to(rt).to(tl.float32)).to(rt).to(tl.float32)).to(rt).to(tl.float32)
        th = tl.math.tanh(inner).to(rt).to(tl.float32)
        gt = (0.5 * x).to(rt).to(tl.float32) * (1.0 + th).to(rt).to(tl.float32)
        result = tl.where(s0 == 1.0, gt, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)))
    else:
        pass
        result = tl.where(s0 == 1.0, gt, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)))
    tl.store(out_ptr + offsets, result, mask=mask)


def _category(dt):
    # bool < integer < floating, as type promotion orders them
    if dt == torch.bool:
        return 0
    if dt == torch.float32 or dt == torch.float16 or dt == torch.bfloat16:
        return 2
    return 1


def _result_type(operands):
    # torch.result_type over several operands: dimensioned tensors, then 0-d
    # tensors, then Python numbers; a lower group counts only when its category
    # is higher than the result so far.
    dims = None
    zero = None
    nums = None
    for v in operands:
        if torch.is_tensor(v):
            if v.dim() > 0:
                if dims is None:
                    dims = v.dtype
                else:
                    dims = torch.promote_types(dims, v.dtype)
            else:
                if zero is None:
                    zero = v.dtype
                else:
                    zero = torch.promote_types(zero, v.dtype)
        else:
            d = torch.float32
            if isinstance(v, bool):
                d = torch.bool
            elif isinstance(v, int):
                d = torch.int64
            if nums is None:
                nums = d
            else:
                nums = torch.promote_types(nums, d)
    r = dims
    if zero is not None:
        if r is None:
            r = zero
        elif _category(zero) > _category(r):
            r = zero
    if nums is not None:
        if r is None:
            r = nums
        elif _category(nums) > _category(r):
            if _category(nums) == 2:
                r = torch.float32
            else:
                r = torch.int64
    return r


def gelu(self, *, approximate="none"):
    pass
    operands = [self]
    rule = 'same'
    dt = _result_type([self])
    if rule == 'float' and _category(dt) < 2:
        dt = torch.float32
    out_dtype = dt
    if rule == 'bool':
        out_dtype = torch.bool
    ref = None
    shape = None
    for v in operands:
        if torch.is_tensor(v):
            if ref is None:
                ref = v
                shape = v.shape
            else:
                shape = torch.broadcast_shapes(shape, v.shape)
    out = torch.empty(shape, dtype=out_dtype, device=ref.device)
    n_elements = out.numel()
    if n_elements == 0:
        if False:
            return self
        return out
    # bool computes as int32; float16/bfloat16 are upcast inside the kernel
    compute_dtype = dt
    if dt == torch.bool:
        compute_dtype = torch.int32
    upcast = compute_dtype == torch.float16 or compute_dtype == torch.bfloat16
    inputs = []
    for v in operands:
        if torch.is_tensor(v):
            inputs.append(v.to(compute_dtype).expand(shape).contiguous())
        else:
            inputs.append(torch.full(shape, v, dtype=compute_dtype, device=ref.device))
    num_inputs = len(inputs)
    while len(inputs) < 3:
        inputs.append(inputs[0])
    s0 = 1 if approximate == 'tanh' else 0
    s1 = 0
    s2 = 0
    is_float = _category(compute_dtype) == 2
    if is_float:
        s0 = float(s0)
        s1 = float(s1)
        s2 = float(s2)
    else:
        s0 = int(s0)
        s1 = int(s1)
        s2 = int(s2)
    result = out
    if out_dtype == torch.bool:
        result = torch.empty(shape, dtype=torch.int32, device=ref.device)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    gelu_kernel[grid](inputs[0], inputs[1], inputs[2], result, n_elements, s0, s1, s2,
                            NUM_INPUTS=num_inputs, IS_FLOAT=is_float, UPCAST=upcast,
                            BLOCK_SIZE=BLOCK_SIZE)
    if out_dtype == torch.bool:
        out.copy_(result)
    if False:
        self.copy_(out)
        return self
    return out
