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
def triton_helpers_online_softmax_combine(max_1, sum_1, max_2, sum_2):
    top = triton_helpers_maximum(max_1, max_2)
    shift_1 = tl.where(max_1 == top, 0.0, max_1 - top)
    shift_2 = tl.where(max_2 == top, 0.0, max_2 - top)
    return top, sum_1 * tl.exp(shift_1) + sum_2 * tl.exp(shift_2)

@triton.jit
def triton_helpers_online_softmax_reduce(max_part, sum_part, dim, use_fast_math: tl.constexpr, strict_signed_zero: tl.constexpr = False):
    return tl.reduce((max_part, sum_part), dim, triton_helpers_online_softmax_combine)

@triton.jit
def triton_helpers_device_assert_then(cond, msg: tl.constexpr, r):
    tl.device_assert(cond, msg)
    return r
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
