"""{{SCHEMA}}

Lowered by opforge's inductor provider (pointwise family, elementwise template):
up to three broadcast operands (tensors, 0-d tensors or Python numbers) with
ATen's type promotion, three scalar parameters (s0, s1, s2), one element-wise
expression for floating compute (EXPR) and one for integer and bool (INT_EXPR).
In-place variants (INPLACE) copy the result into self; out= variants (OUT names
the out argument) copy it into that tensor and return it.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def {{KERNEL}}_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n_elements, s0, s1, s2,
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
        {{FLOAT_PRE}}
        result = {{EXPR}}
    else:
        {{INT_PRE}}
        result = {{INT_EXPR}}
    tl.store(out_ptr + offsets, result, mask=mask)


def _category(dt):
    # bool < integer < floating, as type promotion orders them
    if dt == torch.bool:
        return 0
    if dt == torch.float32 or dt == torch.float16 or dt == torch.bfloat16:
        return 2
    if _wide(dt):
        return 2
    return 1


def _wide(dt):
    # float64 (the target has no float64 arithmetic: computed in float32 and widened on store)
    probe = torch.empty([0], dtype=dt)
    return probe.is_floating_point() and probe.element_size() == 8


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


def {{WRAPPER}}({{SIGNATURE}}):
    dest = {{OUT}}
    {{PRE}}
    operands = {{OPERANDS}}
    rule = {{DTYPE_RULE}}
    dt = _result_type({{PROMOTE}})
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
        if {{INPLACE}}:
            return self
        if dest is not None:
            return dest
        return out
    # bool computes as int32; float16/bfloat16 are upcast inside the kernel
    compute_dtype = dt
    if dt == torch.bool:
        compute_dtype = torch.int32
    wide = _wide(dt)
    if wide:
        compute_dtype = torch.float32
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
    s0 = {{S0}}
    s1 = {{S1}}
    s2 = {{S2}}
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
    elif _wide(out_dtype):
        result = torch.empty(shape, dtype=torch.float32, device=ref.device)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n_elements, BLOCK_SIZE), )
    {{KERNEL}}_kernel[grid](inputs[0], inputs[1], inputs[2], result, n_elements, s0, s1, s2,
                            NUM_INPUTS=num_inputs, IS_FLOAT=is_float, UPCAST=upcast,
                            BLOCK_SIZE=BLOCK_SIZE)
    if out_dtype == torch.bool or _wide(out_dtype):
        out.copy_(result)
    if {{INPLACE}}:
        self.copy_(out)
        return self
    if dest is not None:
        # out= variant: the result written into the caller's tensor
        dest.copy_(out)
        return dest
    return out
