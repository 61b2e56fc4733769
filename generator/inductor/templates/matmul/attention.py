"""{{SCHEMA}}

Lowered by opforge's inductor provider (matmul family, attention template):
scaled dot-product attention as ATen's CPU flash-attention kernel computes it,
one program per query row: scores = q . k * scale (+ attn_mask, causal rows see
keys j <= i) in float32, m = max, p = exp(scores - m), l = sum(p); for
bfloat16/float16 inputs p is rounded to the input dtype before p @ v (ATen
stores it so), the sum is not; out = (p @ v) / l, logsumexp = m + log(l) in
float32. dropout_p must be 0.
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def attention_row_kernel(q_ptr, k_ptr, v_ptr, m_ptr, out_ptr, lse_ptr, L, S, D, scale, HAS_MASK: tl.constexpr,
                         CAUSAL: tl.constexpr, RD: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    bh = row // L
    i = row % L
    offs_s = tl.arange(0, BLOCK_S)
    offs_d = tl.arange(0, BLOCK_D)
    ms = offs_s < S
    md = offs_d < D
    q = tl.load(q_ptr + row * D + offs_d, mask=md, other=0).to(tl.float32)
    kv_off = (bh * S + offs_s[:, None]) * D + offs_d[None, :]
    kv_mask = ms[:, None] & md[None, :]
    k = tl.load(k_ptr + kv_off, mask=kv_mask, other=0).to(tl.float32)
    s = tl.sum(k * q[None, :], axis=1) * scale
    if HAS_MASK:
        s = s + tl.load(m_ptr + row * S + offs_s, mask=ms, other=0)
    keep = ms
    if CAUSAL:
        keep = keep & (offs_s <= i)
    s = tl.where(keep, s, -float('inf'))
    mx = tl.max(s, axis=0)
    p = tl.where(keep, tl.exp(s - mx), 0.0)
    total = tl.sum(p, axis=0)
    if RD == 1:
        p = p.to(tl.bfloat16).to(tl.float32)
    elif RD == 2:
        p = p.to(tl.float16).to(tl.float32)
    v = tl.load(v_ptr + kv_off, mask=kv_mask, other=0).to(tl.float32)
    o = tl.sum(p[:, None] * v, axis=0) / total
    tl.store(out_ptr + row * D + offs_d, o.to(out_ptr.dtype.element_ty), mask=md)
    tl.store(lse_ptr + row, mx + tl.log(total))


def _attention(query, key, value, dropout_p, is_causal, attn_mask, scale):
    if dropout_p != 0:
        raise NotImplementedError("attention: dropout_p > 0 needs random numbers")
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        raise RuntimeError("attention: query, key and value must be 4-D (batch, heads, seq, dim)")
    B = query.shape[0]
    H = query.shape[1]
    L = query.shape[2]
    D = query.shape[3]
    S = key.shape[2]
    if value.shape[3] != D:
        raise NotImplementedError("attention: value head dim must equal the query head dim")
    out = torch.empty([B, H, L, D], dtype=query.dtype, device=query.device)
    lse = torch.empty([B, H, L], dtype=torch.float32, device=query.device)
    rows = B * H * L
    if rows == 0 or D == 0:
        return out, lse
    sc = scale if scale is not None else 1.0 / math.sqrt(D)
    has_mask = attn_mask is not None
    m = query
    if has_mask:
        if attn_mask.dtype == torch.bool:
            raise NotImplementedError("attention: boolean attn_mask")
        m = attn_mask.to(torch.float32).expand([B, H, L, S]).contiguous()
    rd = 1 if query.dtype == torch.bfloat16 else (2 if query.dtype == torch.float16 else 0)
    BLOCK_S = triton.next_power_of_2(S)
    BLOCK_D = triton.next_power_of_2(D)
    if BLOCK_S * BLOCK_D > 65536:
        raise NotImplementedError("attention: key length x head dim too large for one block")
    attention_row_kernel[(rows, )](query.contiguous(), key.expand([B, H, S, D]).contiguous(),
                                   value.expand([B, H, S, D]).contiguous(), m, out, lse, L, S, D, float(sc),
                                   HAS_MASK=has_mask, CAUSAL=is_causal, RD=rd, BLOCK_S=BLOCK_S, BLOCK_D=BLOCK_D)
    return out, lse


def {{WRAPPER}}({{SIGNATURE}}):
    return _attention(query, key, value, dropout_p, is_causal, attn_mask, scale)
