"""tl.rand / tl.randn / tl.randint / tl.randint4x / tl.philox (Triton's Philox 4x32-10) and the
seeded dropout of Triton tutorial 04, with wrappers that return every stream."""
import torch
import triton
import triton.language as tl


@triton.jit
def random_streams_kernel(out_u, out_n, out_i, out_4x, seed, n, start,
                          N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    rng = start + offs
    u = tl.rand(seed, rng, n_rounds=N_ROUNDS)
    z = tl.randn(seed, rng, N_ROUNDS)
    r = tl.randint(seed, rng, n_rounds=N_ROUNDS)
    a, b, c, d = tl.randint4x(seed, rng, N_ROUNDS)
    tl.store(out_u + offs, u, mask=mask)
    tl.store(out_n + offs, z, mask=mask)
    tl.store(out_i + offs, r, mask=mask)
    tl.store(out_4x + 4 * offs, a, mask=mask)
    tl.store(out_4x + 4 * offs + 1, b, mask=mask)
    tl.store(out_4x + 4 * offs + 2, c, mask=mask)
    tl.store(out_4x + 4 * offs + 3, d, mask=mask)


@triton.jit
def philox_kernel(out, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c0 = offs.to(tl.uint32)
    c1 = (offs * 7).to(tl.uint32)
    a, b, c, d = tl.philox(seed, c0, c1, c0 ^ 0x5555, c1 + 3, 6)
    tl.store(out + 4 * offs, a.to(tl.int32, bitcast=True), mask=mask)
    tl.store(out + 4 * offs + 1, b.to(tl.int32, bitcast=True), mask=mask)
    tl.store(out + 4 * offs + 2, c.to(tl.int32, bitcast=True), mask=mask)
    tl.store(out + 4 * offs + 3, d.to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def seeded_dropout_kernel(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def random_streams(n, seed, start=0, n_rounds=10):
    u = torch.empty(n, dtype=torch.float32)
    z = torch.empty(n, dtype=torch.float32)
    r = torch.empty(n, dtype=torch.int32)
    r4 = torch.empty(4 * n, dtype=torch.int32)
    grid = (triton.cdiv(n, 64), )
    random_streams_kernel[grid](u, z, r, r4, seed, n, start, N_ROUNDS=n_rounds, BLOCK=64)
    return u, r, r4


def normal_stream(n, seed, start=0, n_rounds=10):
    u = torch.empty(n, dtype=torch.float32)
    z = torch.empty(n, dtype=torch.float32)
    r = torch.empty(n, dtype=torch.int32)
    r4 = torch.empty(4 * n, dtype=torch.int32)
    grid = (triton.cdiv(n, 64), )
    random_streams_kernel[grid](u, z, r, r4, seed, n, start, N_ROUNDS=n_rounds, BLOCK=64)
    return z


def philox_streams(n, seed):
    out = torch.empty(4 * n, dtype=torch.int32)
    philox_kernel[(triton.cdiv(n, 32), )](out, seed, n, BLOCK=32)
    return out


def seeded_dropout(x, p, seed):
    output = torch.empty_like(x)
    assert x.is_contiguous()
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    seeded_dropout_kernel[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output
