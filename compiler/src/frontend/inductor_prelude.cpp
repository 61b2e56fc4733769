//===- inductor_prelude.cpp - opforge's triton_helpers for Inductor kernels ===//
//
// TorchInductor's kernels call helpers of torch._inductor.runtime.triton_helpers
// (`triton_helpers.max2(x, 1)`, `triton_helpers.welford(mean, m2, weight, 1)`,
// ...). These are opforge's own implementations of those helpers, written as
// @triton.jit functions in the Triton subset the compiler takes. A kernel source
// that imports triton_helpers gets them appended as functions named
// `triton_helpers_<name>`; sema resolves `triton_helpers.<name>` to them
// (docs/compiler/inductor.md, "Kernels").
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <set>

#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler {

namespace {

// The helpers. NaN handling follows torch: maximum/minimum and their reductions
// return NaN when either operand is NaN; the index variants break ties (and
// NaN-vs-NaN) towards the smaller index.
const char *kPrelude = R"PY(import triton
import triton.language as tl

@triton.jit
def triton_helpers_promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)

@triton.jit
def triton_helpers_maximum(a, b):
    take_a = (a > b) | (a != a)
    return tl.where(take_a, a, b)

@triton.jit
def triton_helpers_minimum(a, b):
    take_a = (a < b) | (a != a)
    return tl.where(take_a, a, b)

@triton.jit
def triton_helpers_max2(a, dim):
    return tl.reduce(a, dim, triton_helpers_maximum)

@triton.jit
def triton_helpers_min2(a, dim):
    return tl.reduce(a, dim, triton_helpers_minimum)

@triton.jit
def triton_helpers_max2_strict(a, dim):
    return tl.reduce(a, dim, triton_helpers_maximum)

@triton.jit
def triton_helpers_min2_strict(a, dim):
    return tl.reduce(a, dim, triton_helpers_minimum)

@triton.jit
def triton_helpers_multiply(a, b):
    return a * b

@triton.jit
def triton_helpers_prod(input, axis):
    return tl.reduce(input, axis, triton_helpers_multiply)

@triton.jit
def triton_helpers_either(a, b):
    return a | b

@triton.jit
def triton_helpers_any(a, dim):
    return tl.reduce(a != 0, dim, triton_helpers_either)

@triton.jit
def triton_helpers_div_floor_integer(a, b):
    quotient = a // b
    remainder = a % b
    adjust = (remainder != 0) & ((a < 0) != (b < 0))
    return tl.where(adjust, quotient - 1, quotient)

@triton.jit
def triton_helpers_remainder_integer(a, b):
    remainder = a % b
    adjust = (remainder != 0) & ((remainder < 0) != (b < 0))
    return tl.where(adjust, remainder + b, remainder)

@triton.jit
def triton_helpers_exp(x, use_fast_math: tl.constexpr):
    return tl.exp(x)

@triton.jit
def triton_helpers_maximum_with_index(a_value, a_index, b_value, b_index):
    a_nan = a_value != a_value
    b_nan = b_value != b_value
    same = (a_value == b_value) | (a_nan & b_nan)
    take_a = (a_value > b_value) | (a_nan & ~b_nan) | (same & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)

@triton.jit
def triton_helpers_minimum_with_index(a_value, a_index, b_value, b_index):
    a_nan = a_value != a_value
    b_nan = b_value != b_value
    same = (a_value == b_value) | (a_nan & b_nan)
    take_a = (a_value < b_value) | (a_nan & ~b_nan) | (same & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)

@triton.jit
def triton_helpers_max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, triton_helpers_maximum_with_index)

@triton.jit
def triton_helpers_min_with_index(value, index, dim):
    return tl.reduce((value, index), dim, triton_helpers_minimum_with_index)

@triton.jit
def triton_helpers_welford_reduce(value, mean, m2, weight, first_iteration):
    delta = value - mean
    grown = weight + 1
    moved = mean + delta / grown
    spread = m2 + delta * (value - moved)
    new_mean = tl.where(first_iteration, value, moved)
    new_m2 = tl.where(first_iteration, 0.0, spread)
    new_weight = tl.where(first_iteration, 1.0, grown)
    return new_mean, new_m2.to(m2.dtype), new_weight.to(weight.dtype)

@triton.jit
def triton_helpers_welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    weight = weight_1 + weight_2
    share_2 = tl.where(weight == 0.0, 0.0, weight_2 / weight)
    return mean_1 + delta * share_2, m2_1 + m2_2 + delta * delta * weight_1 * share_2, weight

@triton.jit
def triton_helpers_welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, triton_helpers_welford_combine)

@triton.jit
def triton_helpers__online_softmax_pair(max_1, sum_1, max_2, sum_2):
    top = triton_helpers_maximum(max_1, max_2)
    shift_1 = tl.where(max_1 == top, 0.0, max_1 - top)
    shift_2 = tl.where(max_2 == top, 0.0, max_2 - top)
    return top, sum_1 * tl.exp(shift_1) + sum_2 * tl.exp(shift_2)

@triton.jit
def triton_helpers_online_softmax_combine(max_1, sum_1, value, use_fast_math: tl.constexpr, strict_signed_zero: tl.constexpr = False):
    return triton_helpers__online_softmax_pair(max_1, sum_1, value, 1.0)

@triton.jit
def triton_helpers_online_softmax_reduce(max_part, sum_part, dim, use_fast_math: tl.constexpr, strict_signed_zero: tl.constexpr = False):
    return tl.reduce((max_part, sum_part), dim, triton_helpers__online_softmax_pair)

@triton.jit
def triton_helpers_device_assert_then(cond, msg: tl.constexpr, r):
    tl.device_assert(cond, msg)
    return r
@triton.jit
def triton_helpers_fmaximum(a, b):
    take_a = (a >= b) | (b != b)
    return tl.where(take_a, a, b)

@triton.jit
def triton_helpers_fmax2(a, dim):
    return tl.reduce(a, dim, triton_helpers_fmaximum)

@triton.jit
def triton_helpers_max_with_first_index(value, index, dim):
    return tl.reduce((value, index), dim, triton_helpers_maximum_with_index)

@triton.jit
def triton_helpers_min_with_first_index(value, index, dim):
    return tl.reduce((value, index), dim, triton_helpers_minimum_with_index)

@triton.jit
def triton_helpers__pick_flagged(a, a_flag, b, b_flag):
    return tl.where(a_flag, a, b), a_flag | b_flag

@triton.jit
def triton_helpers_select_one(x, mask, dim, keep_dims=False):
    x, flag = tl.broadcast(x, mask != 0)
    value, hit = tl.reduce((x, flag), dim, triton_helpers__pick_flagged, keep_dims=keep_dims)
    return value

@triton.jit
def triton_helpers_pow_integer(base, exponent):
    result = base * 0 + 1
    bits = exponent
    for _ in tl.static_range(exponent.dtype.primitive_bitwidth):
        result = tl.where((bits & 1) != 0, result * base, result)
        bits = bits >> 1
        base = base * base
    return result

@triton.jit
def triton_helpers_nextafter(x, y):
    if x.dtype.primitive_bitwidth == 32:
        ix = x.to(tl.int32, bitcast=True)
        sign = y.to(tl.int32, bitcast=True) & -2147483648
    else:
        ix = x.to(tl.int16, bitcast=True)
        sign = y.to(tl.int16, bitcast=True) & -32768
    away = (y > x) == (x > 0)
    stepped = tl.where(away, ix + 1, ix - 1).to(ix.dtype).to(x.dtype, bitcast=True)
    tiny = (sign | 1).to(ix.dtype).to(x.dtype, bitcast=True)
    result = tl.where(x == 0, tiny, stepped)
    result = tl.where(x == y, y, result)
    return tl.where((x != x) | (y != y), x + y, result)

@triton.jit
def triton_helpers_frexp(x):
    if x.dtype == tl.float32:
        bits = x.to(tl.int32, bitcast=True)
        MBITS: tl.constexpr = 23
        EMASK: tl.constexpr = 255
        BIAS: tl.constexpr = 127
        CLEAR: tl.constexpr = -2139095041
    elif x.dtype == tl.bfloat16:
        bits = x.to(tl.int16, bitcast=True)
        MBITS: tl.constexpr = 7
        EMASK: tl.constexpr = 255
        BIAS: tl.constexpr = 127
        CLEAR: tl.constexpr = -32641
    else:
        bits = x.to(tl.int16, bitcast=True)
        MBITS: tl.constexpr = 10
        EMASK: tl.constexpr = 31
        BIAS: tl.constexpr = 15
        CLEAR: tl.constexpr = -31745
    field = (bits >> MBITS) & EMASK
    special = (field == EMASK) | (x == 0)
    tiny = field == 0
    scaled = tl.where(tiny, x * (1 << (MBITS + 2)), x).to(x.dtype)
    sbits = scaled.to(bits.dtype, bitcast=True)
    sfield = (sbits >> MBITS) & EMASK
    exponent = sfield - (BIAS - 1) - tl.where(tiny, MBITS + 2, 0)
    mantissa = ((sbits & CLEAR) | ((BIAS - 1) << MBITS)).to(bits.dtype).to(x.dtype, bitcast=True)
    return tl.where(special, x, mantissa), tl.where(special, 0, exponent).to(tl.int32)

@triton.jit
def triton_helpers_online_softmax_combine_with_sum(max_1, sum_1, max_2, sum_2, use_fast_math: tl.constexpr, strict_signed_zero: tl.constexpr = False):
    return triton_helpers__online_softmax_pair(max_1, sum_1, max_2, sum_2)

@triton.jit
def triton_helpers_online_softmax_reduce_scalar_combine(max_1, sum_1, value, mask, dim, use_fast_math: tl.constexpr, strict_signed_zero: tl.constexpr = False):
    value, mask = tl.broadcast(value, mask)
    part_max = tl.where(mask, value, float("-inf")).to(max_1.dtype)
    part_sum = tl.where(mask, 1.0, 0.0).to(sum_1.dtype)
    max_2, sum_2 = tl.reduce((part_max, part_sum), dim, triton_helpers__online_softmax_pair)
    return triton_helpers__online_softmax_pair(max_1, sum_1, max_2, sum_2)

@triton.jit
def triton_helpers_bucketize_binary_search(values, boundaries_ptr, BOUNDARIES_SIZE, BOUNDARIES_UNDERLYING_NUMEL, BOUNDARIES_STRIDE, boundary_indices, indexing_dtype, right, sorter_ptr, SORTER_STRIDE, sorter_indices):
    lo = tl.zeros(values.shape, dtype=indexing_dtype)
    hi = tl.full(values.shape, BOUNDARIES_SIZE, dtype=indexing_dtype)
    span = BOUNDARIES_SIZE
    while span > 0:
        mid = (lo + hi) // 2
        live = (lo < hi) & ((boundary_indices + mid * BOUNDARIES_STRIDE) < BOUNDARIES_UNDERLYING_NUMEL)
        if sorter_ptr is None:
            pos = mid
        else:
            pos = tl.load(sorter_ptr + sorter_indices + SORTER_STRIDE * mid, mask=live, other=0)
        bound = tl.load(boundaries_ptr + boundary_indices + BOUNDARIES_STRIDE * pos, mask=live, other=0)
        if right:
            above = values >= bound
        else:
            above = values > bound
        above = above | (values != values)
        lo = tl.where(live & above, mid + 1, lo)
        hi = tl.where(live & ~above, mid, hi)
        span = span // 2
    return lo

@triton.jit
def triton_helpers_randint64(seed, offset, low, high):
    r0, r1, r2, r3 = tl.randint4x(seed, offset)
    wide = r0.to(tl.uint64) | (r1.to(tl.uint64) << 32)
    return (wide % (high - low).to(tl.uint64)).to(tl.int64) + low

@triton.jit
def triton_helpers_rand4x(seed, offsets, BLOCK: tl.constexpr):
    return tl.rand(seed, offsets)

@triton.jit
def triton_helpers_randn4x(seed, offsets, BLOCK: tl.constexpr):
    return tl.randn(seed, offsets)

@triton.jit
def triton_helpers_if_mask(mask, val):
    if mask is None:
        return None
    return val
@triton.jit
def triton_helpers_sort_with_index(x, idxs, rnumel, dim: tl.constexpr = None, stable: tl.constexpr = False, descending: tl.constexpr = False):
    x, idxs = tl.broadcast(x, idxs)
    lane = tl.arange(0, x.shape[1])
    if rnumel is None:
        live = lane < x.shape[1]
    else:
        live = lane < rnumel
    a = x[:, :, None]
    b = x[:, None, :]
    a_nan = a != a
    b_nan = b != b
    if descending:
        before = (b > a) | (b_nan & ~a_nan)
    else:
        before = (b < a) | (a_nan & ~b_nan)
    same = (a == b) | (a_nan & b_nan)
    before = (before | (same & (lane[None, None, :] < lane[None, :, None]))) & live[None, None, :]
    rank = tl.sum(before.to(tl.int32), 2)
    rank = tl.where(live[None, :], rank, lane[None, :])
    hit = rank[:, None, :] == lane[None, :, None]
    values, hit_v = tl.broadcast(x[:, None, :], hit)
    indices, hit_i = tl.broadcast(idxs[:, None, :], hit)
    out_x, found_x = tl.reduce((values, hit_v), 2, triton_helpers__pick_flagged)
    out_i, found_i = tl.reduce((indices, hit_i), 2, triton_helpers__pick_flagged)
    return out_x, out_i
)PY";

}  // namespace

const char *inductor_helpers_source() { return kPrelude; }

std::vector<std::string> inductor_helper_names() {
  std::vector<std::string> names;
  static const std::string prefix = "triton_helpers_";
  std::string text = kPrelude;
  for (size_t at = text.find("def " + prefix); at != std::string::npos;
       at = text.find("def " + prefix, at + 1)) {
    size_t start = at + 4 + prefix.size();
    names.push_back(text.substr(start, text.find('(', start) - start));
  }
  return names;
}

void add_inductor_helpers(ast::Module &m) {
  if (m.function("triton_helpers_maximum")) return;
  ast::Module prelude = parse_module(
      std::make_shared<SourceFile>("<opforge triton_helpers>", kPrelude), ParseOptions{});
  for (auto &s : prelude.body)
    if (s->is<ast::FunctionDef>()) m.body.push_back(std::move(s));
}

}  // namespace opforge::compiler
