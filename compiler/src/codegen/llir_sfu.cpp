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

// The fp32 buffer in memory format holding block `v`, if there is one.
std::string Emitter::f32_buffer_of(const Value *v) const {
  if (v->type.elem != Elem::F32) return "";
  if (auto d = dma_raw_.find(v); d != dma_raw_.end()) return d->second;
  if (auto b = bufs_.find(v); b != bufs_.end()) return b->second;
  return "";
}

// exp(a - s) with `a` in an fp32 buffer and `s` a scalar (softmax's
// numerator): one strip loop loads `a`, subtracts s (vfsub.vf, the same
// rounding as the element loop), applies the SFU and stores the result,
// instead of an element loop writing a - s and a second pass over it.
bool Emitter::sfu_block_fused(const Operation &op, const std::string &buf) {
  const Value *v = op.result(), *x = op.operands[0];
  if (op.kind != OpKind::Exp || v->type.elem != Elem::F32 || !x->def ||
      x->def->kind != OpKind::SubF)
    return false;
  const Value *a = x->def->operands[0], *b = x->def->operands[1];
  if (a->type.shape != v->type.shape || !b->def || b->def->kind != OpKind::Splat ||
      b->def->operands[0]->type.is_block())
    return false;
  std::string src = f32_buffer_of(a);
  if (src.empty()) return false;
  // The SFU instruction of the in-place strip loop (encoded from the tables).
  if (sfu_mnemonic(op.kind).empty()) return false;
  const std::string nl = "\\0A\\09", insn = sfu_insn_asm(op.kind);
  std::string text = ".Lsfx${:uid}:" + nl + "vsetvli $2, $0, e32, m8, ta, ma" + nl +
                     "vle32.v v8, ($1)" + nl + "vfsub.vf v8, v8, $7" + nl + insn + nl +
                     "vse32.v v8, ($3)" + nl + "sub $0, $0, $2" + nl + "slli $2, $2, 2" + nl +
                     "add $1, $1, $2" + nl + "add $3, $3, $2" + nl + "bnez $0, .Lsfx${:uid}";
  emit("call { i64, ptr, i64, ptr } asm sideeffect \"" + text +
       "\", \"=&r,=&r,=&r,=&r,0,1,3,f,~{v8},~{v9},~{v10},~{v11},~{v12},~{v13},~{v14},~{v15},~{vl},"
       "~{vtype},~{memory}\"(i64 " +
       std::to_string(v->type.numel()) + ", ptr " + src + ", ptr " + buf + ", float " +
       scalar(b->def->operands[0]) + ")");
  return true;
}

void Emitter::sfu_block(const Operation &op) {
  const Value *v = op.result(), *x = op.operands[0];
  Elem e = v->type.elem;
  if (std::string fused = alloca_of("float", v->type.numel()); sfu_block_fused(op, fused)) {
    bufs_[v] = fused;
    return;
  }
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
