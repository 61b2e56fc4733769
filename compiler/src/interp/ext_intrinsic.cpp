//===- ext_intrinsic.cpp - interpreter: mtia.intrinsic (ISA extension instructions) ===//
//
// The element-wise meaning of a registered extension instruction, computed
// with isa::ext_evaluate: the same expression and fp32 rounding the ISS
// applies per element, at the SFU precision the interpreter is given.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/ext_intrinsic.h"
#include "opforge/isa/sfu_math.h"
#include "opforge/support/error.h"
#include "runtime.h"

namespace opforge::ttir::interp {

RV eval_ext_intrinsic(const Operation &op, const std::vector<const RV *> &in,
                      unsigned sfu_prec_bits) {
  const std::string &name = op.str_attr("intrinsic");
  const isa::ExtInsn *insn = compiler::find_ext_intrinsic(name);
  if (!insn) throw Error(compiler::ext_intrinsic_missing(name));
  const RV &x = *in.at(0);
  const RV *y = in.size() > 1 ? in[1] : nullptr;
  RV r;
  r.is_float = true;
  r.f.resize(x.f.size());
  for (size_t k = 0; k < x.f.size(); ++k) {
    float yk = 0;
    if (y) yk = static_cast<float>(y->f[y->f.size() == 1 ? 0 : k]);
    r.f[k] = isa::ext_evaluate(*insn, static_cast<float>(x.f[k]), yk, sfu_prec_bits);
  }
  return r;
}

RV eval_sfu(const Operation &op, const std::vector<const RV *> &in, unsigned sfu_prec_bits) {
  isa::SfuFunc fn;
  switch (op.kind) {
    case OpKind::Exp:
      fn = isa::SfuFunc::Exp;
      break;
    case OpKind::Log:
      fn = isa::SfuFunc::Log;
      break;
    case OpKind::Tanh:
      fn = isa::SfuFunc::Tanh;
      break;
    case OpKind::Erf:
      fn = isa::SfuFunc::Erf;
      break;
    case OpKind::Sin:
      fn = isa::SfuFunc::Sin;
      break;
    case OpKind::Cos:
      fn = isa::SfuFunc::Cos;
      break;
    case OpKind::Rsqrt:
      fn = isa::SfuFunc::Rsqrt;
      break;
    default:
      throw Error(op.describe() + " is not an SFU function");
  }
  const RV &x = *in.at(0);
  RV r;
  r.is_float = true;
  r.f.resize(x.f.size());
  for (size_t k = 0; k < x.f.size(); ++k)
    r.f[k] = isa::sfu::evaluate(fn, static_cast<float>(x.f[k]), sfu_prec_bits);
  return r;
}

}  // namespace opforge::ttir::interp
