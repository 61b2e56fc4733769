//===- semantic.h - Triton's semantic.py: typed tensor operations -> ttir --===//
//
// Every function takes and returns SValues, applies Triton's rules (type
// promotion, broadcasting, pointer arithmetic, casts) and emits ttir through
// the builder. Problems are reported as UserError with a Triton-style message;
// the code generator attaches the source location.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/builder.h"
#include "values.h"

namespace opforge::compiler::sema {

struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class CmpKind { Lt, Le, Gt, Ge, Eq, Ne };

class Semantic {
 public:
  explicit Semantic(ttir::Builder &b) : b_(b) {}
  ttir::Builder &builder() { return b_; }
  [[noreturn]] void fail(const std::string &m) const { throw UserError(m); }

  // Python numbers -> scalar tensors (int32/uint32/int64/uint64, fp32/fp64, int1).
  SValue to_tensor(const SValue &v);
  LType number_type(const SValue &v);
  // A constant tensor of type t (scalar or block) holding a Python number.
  SValue constant(const SValue &number, const LType &t);
  SValue full(const std::vector<int64_t> &shape, const SValue &value, const LType &dtype);
  SValue cast(const SValue &v, const LType &dst_elem, bool bitcast = false);
  // fp8 <-> fp32 (semantic_fp8.cpp): exact decode; encode rounds to nearest
  // even with torch's overflow rules (e5m2: inf; e4m3fn, e4b15: saturate).
  SValue fp8_to_f32(const SValue &v);
  SValue f32_to_fp8(const SValue &v, Sc fmt);
  SValue broadcast_to(const SValue &v, const std::vector<int64_t> &shape);
  std::pair<SValue, SValue> broadcast(SValue a, SValue b);
  LType computation_type(const LType &a, bool a_scalar, const LType &b, bool b_scalar,
                         bool div_or_mod);
  std::pair<SValue, SValue> binary_check(SValue a, SValue b, bool allow_lhs_ptr, bool allow_rhs_ptr,
                                         bool arithmetic_check, bool div_or_mod);

  SValue add(SValue a, SValue b);
  SValue sub(SValue a, SValue b);
  SValue mul(SValue a, SValue b);
  SValue truediv(SValue a, SValue b);
  SValue floordiv(SValue a, SValue b);
  SValue mod(SValue a, SValue b);
  SValue bitwise(ttir::OpKind k, SValue a, SValue b);
  SValue shl(SValue a, SValue b);
  SValue shr(SValue a, SValue b);
  SValue compare(CmpKind k, SValue a, SValue b);
  SValue logical(bool is_and, SValue a, SValue b);
  SValue neg(SValue a);
  SValue invert(SValue a);
  SValue logical_not(SValue a);
  SValue maximum(SValue a, SValue b, bool propagate_nan);
  SValue minimum(SValue a, SValue b, bool propagate_nan);
  SValue where(SValue c, SValue x, SValue y);
  SValue math(ttir::OpKind k, const std::string &name, SValue x, bool fp32_fp64_only);
  SValue abs(SValue x);
  SValue fma(SValue x, SValue y, SValue z);
  SValue umulhi(SValue x, SValue y);

  SValue program_id(int axis);
  SValue num_programs(int axis);
  SValue arange(int64_t start, int64_t end);
  SValue expand_dims(SValue x, int64_t axis);
  SValue reshape(SValue x, const std::vector<int64_t> &shape);
  SValue permute(SValue x, const std::vector<int64_t> &order);
  SValue join(SValue a, SValue b);
  SValue split(SValue a);

  SValue check_mask(const SValue &ptr, SValue mask);
  SValue load(SValue ptr, SValue mask, SValue other, const std::vector<int64_t> &boundary_check,
              const std::string &padding);
  void store(SValue ptr, SValue value, SValue mask, const std::vector<int64_t> &boundary_check);
  SValue atomic_rmw(const std::string &op, SValue ptr, SValue val, SValue mask);
  SValue atomic_cas(SValue ptr, SValue cmp, SValue val);
  SValue make_block_ptr(SValue base, const std::vector<SValue> &shape,
                        const std::vector<SValue> &strides, const std::vector<SValue> &offsets,
                        const std::vector<int64_t> &block_shape, const std::vector<int64_t> &order);
  SValue advance(SValue ptr, const std::vector<SValue> &offsets);

  using Combine = std::function<std::vector<SValue>(const std::vector<SValue> &lhs_then_rhs)>;
  std::vector<SValue> reduce(std::vector<SValue> inputs, int64_t axis, bool keep_dims,
                             const Combine &combine);
  std::vector<SValue> scan(std::vector<SValue> inputs, int64_t axis, bool reverse,
                           const Combine &combine);
  SValue sum(SValue x, std::optional<int64_t> axis, bool keep_dims, const LType *dtype);
  SValue max_min(bool is_max, SValue x, std::optional<int64_t> axis, bool keep_dims,
                 bool return_indices, bool tie_break_left, SValue *indices_out);
  SValue cumsum(SValue x, int64_t axis, bool reverse, bool is_prod);
  SValue dot(SValue a, SValue b, SValue acc, const std::string &input_precision,
             const LType &out_dtype);

  SValue T(ttir::Value *v, LType t) { return SValue::tensor(v, std::move(t)); }

 private:
  ttir::Builder &b_;
  int64_t norm_axis(int64_t axis, int rank);
  SValue flatten(SValue x);
};

}  // namespace opforge::compiler::sema
