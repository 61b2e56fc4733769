//===- builtins_ext.cpp - tl.extra.mtia.<intrinsic>: ISA extension instructions ===//
//
// A registered extension instruction (isa/extension.h) is called from a
// kernel as tl.extra.mtia.<intrinsic>(x[, y]): x is a float block, y a block
// (VV instructions, broadcast against x) or a scalar (VF: the instruction's
// f register). The operation runs on fp32: fp16/bf16 operands are extended to
// fp32 and the result rounded back to x's type, as the SFU builtins are
// computed in fp32. Without an extension defining the intrinsic the call is
// an error naming the intrinsic and the --isa-ext option (ext_intrinsic.h).
//
//===----------------------------------------------------------------------===//
#include "lower_ast.h"
#include "opforge/compiler/ext_intrinsic.h"

namespace opforge::compiler::sema {
using ttir::OpKind;

SValue ext_intrinsic_call(Semantic &S, const std::string &name, const std::vector<SValue> &args,
                          const Kwargs &kw) {
  if (auto r = mtia_builtin_call(S, name, args, kw)) return *r;  // built-in (builtins_mtia.cpp)
  const isa::ExtInsn *insn = find_ext_intrinsic(name);
  if (!insn) throw UserError(ext_intrinsic_missing(name));
  const std::string fn = std::string(kExtIntrinsicPrefix) + name;
  const size_t arity = static_cast<size_t>(ext_intrinsic_arity(*insn));
  const std::vector<std::string> params =
      arity == 1 ? std::vector<std::string>{"x"} : std::vector<std::string>{"x", "y"};
  std::vector<SValue> vals(arity);
  std::vector<bool> given(arity, false);
  if (args.size() > arity)
    throw UserError(fn + "() takes " + std::to_string(arity) + " positional argument" +
                    (arity == 1 ? "" : "s") + " (" + ext_intrinsic_signature(*insn) + ") but " +
                    std::to_string(args.size()) + " were given");
  for (size_t i = 0; i < args.size(); ++i) vals[i] = args[i], given[i] = true;
  for (const auto &[k, v] : kw) {
    size_t i = 0;
    while (i < arity && params[i] != k) ++i;
    if (i == arity) throw UserError(fn + "() got an unexpected keyword argument '" + k + "'");
    if (given[i]) throw UserError(fn + "() got multiple values for argument '" + k + "'");
    vals[i] = v, given[i] = true;
  }
  for (size_t i = 0; i < arity; ++i)
    if (!given[i])
      throw UserError(fn + "() missing 1 required positional argument: '" + params[i] + "'");
  if (insn->sew != 32)
    throw UserError(fn + " (" + insn->mnemonic + ") works on " + std::to_string(insn->sew) +
                    "-bit elements; kernels can use fp32 extension instructions only");

  auto to_fp32 = [&](SValue v, const char *what) {
    v = S.to_tensor(v);
    if (!v.type.is_float() || v.type.sc == Sc::F64)
      throw UserError(fn + "() expects float32, float16 or bfloat16 for " + what + ", got " +
                      sc_name(v.type.sc));
    return S.cast(v, LType::scalar(Sc::F32));
  };
  SValue x = S.to_tensor(vals[0]);
  if (!x.type.is_block())
    throw UserError(fn + "() expects a block for x, got the scalar " + x.type.str());
  const LType elem = x.type.elem();
  x = to_fp32(x, "x");
  std::vector<ttir::Value *> operands{x.value};
  if (insn->operands == isa::ExtOperands::VV) {
    SValue y = to_fp32(vals[1], "y");
    auto [bx, by] = S.broadcast(x, y);
    if (bx.type.shape != x.type.shape)
      throw UserError(fn + "(): y of shape " + y.type.str() + " does not broadcast to x's " +
                      x.type.str());
    operands = {bx.value, by.value};
  } else if (insn->operands == isa::ExtOperands::VF) {
    SValue y = S.to_tensor(vals[1]);
    if (y.type.is_block())
      throw UserError(fn + "() expects a scalar for y (" + insn->mnemonic +
                      " takes it in an f register), got the block " + y.type.str());
    operands.push_back(to_fp32(y, "y").value);
  }
  ttir::Value *r =
      S.builder().create1(OpKind::ExtIntrinsic, operands, x.type.ir(), {{"intrinsic", name}});
  SValue out = SValue::tensor(r, x.type);
  return elem.sc == Sc::F32 ? out : S.cast(out, elem);
}

}  // namespace opforge::compiler::sema
