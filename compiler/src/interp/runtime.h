//===- runtime.h - interpreter-internal block values and element helpers --===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/compiler/ir.h"

namespace opforge::ttir::interp {

// A runtime value: a scalar or a block, stored in row-major order. Integers,
// booleans and pointers live in `i` (sign-extended), floats in `f` (already
// rounded to their element type). A vector of length 1 stands for a scalar and
// broadcasts against longer operands (used when combine regions run on blocks).
struct RV {
  std::vector<int64_t> i;
  std::vector<double> f;
  bool is_float = false;
  size_t size() const { return is_float ? f.size() : i.size(); }
};

double round_to(Elem e, double x);
int64_t wrap_to(Elem e, int64_t x);
uint64_t as_unsigned(Elem e, int64_t x);

// Element-wise operations (arith, math, casts, cmp, select); `t` is the
// operand type (or result type for casts/constants).
// `sfu_prec_bits` is the SFU precision (mtia.sfu_prec, 0 = exact) that
// extension intrinsics (mtia.intrinsic) are evaluated at.
RV eval_elementwise(const Operation &op, const std::vector<const RV *> &in,
                    unsigned sfu_prec_bits = 0);
// mtia.intrinsic: isa::ext_evaluate per element (ext_intrinsic.cpp).
RV eval_ext_intrinsic(const Operation &op, const std::vector<const RV *> &in,
                      unsigned sfu_prec_bits);
RV splat_to(const RV &v, size_t n);

}  // namespace opforge::ttir::interp
