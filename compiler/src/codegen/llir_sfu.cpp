//===- llir_sfu.cpp - special functions on whole blocks through the SFU ----===//
//
// A block-valued exp/log/tanh/erf/sin/cos/rsqrt (and exp2/log2, scaled by
// ln 2 around exp/log) on fp32, fp16 or bf16 is planned as a buffer: a
// vectorizable loop writes the (scaled) argument into a local fp32 buffer,
// one strip-mined loop of the Xmtia vector instruction (vsetvli, vle32,
// vf*.v, vse32 at LMUL 8) transforms it in place, and a last vectorizable
// loop scales and rounds to the element type where needed. Consumers read
// the buffer, so the function is computed once per element however many
// consumers it has, and the loops around it stay vectorizable (the scalar
// inline-asm form of emit_llvm_ir is only used for scalars and fp64).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "llir_emitter.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

void Emitter::sfu_block(const Operation &op) {
  const Value *v = op.result(), *x = op.operands[0];
  Elem e = v->type.elem;
  OpKind k = op.kind == OpKind::Exp2   ? OpKind::Exp
             : op.kind == OpKind::Log2 ? OpKind::Log
                                       : op.kind;
  std::string buf = alloca_of("float", v->type.numel());
  loop_nest(v->type.shape, [&](const Idx &idx) {
    std::string in = elem(x, idx);
    if (op.kind == OpKind::Exp2) in = emit("fmul float " + in + ", " + float_lit(M_LN2, Elem::F32));
    line("store float " + in + ", ptr " +
         emit("getelementptr float, ptr " + buf + ", i64 " + linear(idx, v->type.shape)));
  });
  emit("call { i64, ptr, i64 } asm sideeffect \"" + sfu_strip_asm(k) +
       "\", \"=&r,=&r,=&r,0,1,~{v8},~{v9},~{v10},~{v11},~{v12},~{v13},~{v14},~{v15},~{vl},~{"
       "vtype},~{memory}\"(i64 " +
       std::to_string(v->type.numel()) + ", ptr " + buf + ")");
  if (op.kind == OpKind::Log2 || e != Elem::F32) {
    loop(0, v->type.numel(), [&](const std::string &i) {
      std::string p = emit("getelementptr float, ptr " + buf + ", i64 " + i);
      std::string r = emit("load float, ptr " + p);
      if (op.kind == OpKind::Log2)
        r = emit("fmul float " + r + ", " + float_lit(1.0 / M_LN2, Elem::F32));
      line("store float " + round(e, r) + ", ptr " + p);
    });
  }
  bufs_[v] = buf;
}

}  // namespace opforge::compiler::llir
