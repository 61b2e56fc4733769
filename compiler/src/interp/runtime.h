//===- runtime.h - interpreter-internal block values and element helpers --===//
#pragma once

#include <array>
#include <cstdint>
#include <map>
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
// An SFU function op of tl.extra.mtia.sfu (attribute sfu): isa::sfu::evaluate
// per element, what vfexp.v ... compute on the chip (ext_intrinsic.cpp).
RV eval_sfu(const Operation &op, const std::vector<const RV *> &in, unsigned sfu_prec_bits);
RV splat_to(const RV &v, size_t n);

// tl.extra.mtia.async_copy / wait (async_copy.cpp): the copies of one
// interpreter run and their tokens (a token is valid in its program only).
inline constexpr int64_t kAsyncRing = 2;  // local buffers per call site (as codegen has)
class AsyncCopies {
 public:
  // Records the copied block of async_copy `op`; returns its token.
  int64_t issue(const Operation &op, RV data);
  // The block of `token`; throws opforge::Error when it is not a token or
  // its call site has reused its buffer since.
  const RV &wait(int64_t token) const;

 private:
  struct Copy {
    const Operation *site;
    int64_t index;  // the site's copy number
  };
  std::vector<Copy> copies_;                                // token - 1 -> its copy
  std::map<int64_t, RV> data_;                              // token -> block, while valid
  std::map<const Operation *, std::vector<int64_t>> live_;  // a site's valid tokens
  std::map<const Operation *, int64_t> site_count_;
};

// tt.print's lines for program `pid` (async_copy.cpp).
std::vector<std::string> print_lines(const Operation &op, const std::array<int64_t, 3> &pid,
                                     const std::vector<const RV *> &in);

}  // namespace opforge::ttir::interp
