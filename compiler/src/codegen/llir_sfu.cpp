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
// float16/bfloat16 data computed in float32 (tl.exp(x.to(tl.float32)) then
// .to(tl.float16), as tl.exp takes fp32 only): the strip loop widens the
// 16-bit DMA buffer itself (vle16 + vfwcvt, or vzext + vsll for bf16) and,
// for a result whose one user is a truncf to fp16/bf16, narrows into a
// 16-bit buffer in memory format (vfncvt, or the integer round to nearest
// even for bf16; vse16) that the store sends as is: one pass over the block
// instead of three (sfu_block_half).
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

bool Emitter::sfu_block_half(const Operation &op) {
  const Value *v = op.result(), *x = op.operands[0];
  if (v->type.elem != Elem::F32 || op.kind == OpKind::Exp2 || op.kind == OpKind::Log2 ||
      op.kind == OpKind::ExtIntrinsic || sfu_mnemonic(op.kind).empty())
    return false;
  // In: x = extf(h), h fp16/bf16 in a DMA buffer of the same shape, or
  // x = u - extf(h) with u uniform (sigmoid's exp(0 - x): vfrsub.vf, the
  // same fp32 rounding).
  std::string src, minuend;
  Elem in = Elem::F32;
  const Value *xe = x;
  if (x->def && x->def->kind == OpKind::SubF && is_uniform_block(x->def->operands[0]) &&
      x->def->operands[1]->type.shape == v->type.shape) {
    minuend = elem(x->def->operands[0], Idx(v->type.rank(), "0"));
    xe = x->def->operands[1];
  }
  if (xe->def && xe->def->kind == OpKind::ExtF && xe->type.shape == v->type.shape) {
    const Value *h = xe->def->operands[0];
    auto d = dma_raw_.find(h);
    if ((h->type.elem == Elem::F16 || h->type.elem == Elem::BF16) && d != dma_raw_.end() &&
        h->type.shape == v->type.shape) {
      src = d->second;
      in = h->type.elem;
    }
  }
  // Then: a chain of fp32 + - * / with a uniform operand, each the one user
  // of the value before it and not buffered (sigmoid's 1 / (1 + e)): vector
  // .vf forms in the strip, the same IEEE fp32 operations as the element loop.
  auto one_user = [&](const Value *x) -> const Operation * {
    auto u = users_.find(x);
    return u != users_.end() && u->second.size() == 1 ? u->second.front() : nullptr;
  };
  std::vector<std::pair<std::string, const Value *>> tail;  // mnemonic, uniform operand
  const Value *last = v;
  for (const Operation *u = one_user(v); u; u = one_user(last)) {
    if (u->results.size() != 1 || u->operands.size() != 2) break;
    const Value *r = u->result();
    if (r->type.elem != Elem::F32 || r->type.shape != v->type.shape || plan_.buffers.count(r))
      break;
    const bool lhs = u->operands[0] == last;
    const Value *other = u->operands[lhs ? 1 : 0];
    if (other == last || !is_uniform_block(other)) break;
    const char *mn = u->kind == OpKind::AddF   ? "vfadd.vf"
                     : u->kind == OpKind::MulF ? "vfmul.vf"
                     : u->kind == OpKind::SubF ? (lhs ? "vfsub.vf" : "vfrsub.vf")
                     : u->kind == OpKind::DivF ? (lhs ? "vfdiv.vf" : "vfrdiv.vf")
                                               : nullptr;
    if (!mn) break;
    tail.push_back({mn, other});
    last = r;
  }
  // Out: the last value's one user a truncf to fp16/bf16 of the same shape
  // that is not buffered.
  const Value *t = nullptr;
  if (const Operation *tr = one_user(last)) {
    const Elem te = tr->result()->type.elem;
    if (tr->kind == OpKind::TruncF && (te == Elem::F16 || te == Elem::BF16) &&
        tr->result()->type.shape == v->type.shape && !plan_.buffers.count(tr->result()))
      t = tr->result();
  }
  if (src.empty()) minuend.clear();  // the argument loop computes the subtraction
  if (src.empty() && !t) return false;
  if (!t && last != v && plan_.buffers.count(v)) {  // v's buffer would never be written
    tail.clear();
    last = v;
  }
  const int64_t n = v->type.numel();
  std::string buf = alloca_of("float", n);
  if (src.empty()) {  // the fp32 argument, computed into the buffer first
    loop_nest(v->type.shape, [&](const Idx &idx) {
      line("store float " + elem(x, idx) + ", ptr " +
           emit("getelementptr float, ptr " + buf + ", i64 " + linear(idx, v->type.shape)));
    });
    src = buf;
  }
  std::string dst = t ? alloca_of(memty(t->type.elem), n) : buf;
  const std::string nl = "\\0A\\09";
  std::string text = ".Lsfh${:uid}:" + nl;
  if (in == Elem::F32)
    text += "vsetvli $2, $0, e32, m8, ta, ma" + nl + "vle32.v v8, ($1)" + nl;
  else if (in == Elem::F16)
    text += "vsetvli $2, $0, e16, m4, ta, ma" + nl + "vle16.v v16, ($1)" + nl +
            "vfwcvt.f.f.v v8, v16" + nl + "vsetvli zero, $2, e32, m8, ta, ma" + nl;
  else  // bf16: the high half of an fp32
    text += "vsetvli $2, $0, e16, m4, ta, ma" + nl + "vle16.v v16, ($1)" + nl +
            "vsetvli zero, $2, e32, m8, ta, ma" + nl + "vzext.vf2 v8, v16" + nl +
            "vsll.vi v8, v8, 16" + nl;
  if (!minuend.empty()) text += "vfrsub.vf v8, v8, $8" + nl;
  text += sfu_insn_asm(op.kind) + nl;
  const int first_tail = minuend.empty() ? 8 : 9;  // the tail's scalars follow the minuend
  for (size_t i = 0; i < tail.size(); ++i)
    text += tail[i].first + " v8, v8, $" + std::to_string(first_tail + int(i)) + nl;
  if (t && t->type.elem == Elem::F16)
    text += "vsetvli zero, $2, e16, m4, ta, ma" + nl + "vfncvt.f.f.w v16, v8" + nl +
            "vse16.v v16, ($3)" + nl;
  else if (t)
    // bf16: to nearest even as Emitter::round, on the 16-bit halves (hi, lo)
    // of each fp32: hi + 1 where lo > 0x8000 - (hi & 1) (unsigned), NaN
    // quieted (hi | 0x40, the fp32 quiet bit) instead.
    text += "vsetvli zero, $2, e16, m4, ta, mu" + nl + "vnsrl.wi v16, v8, 16" + nl +
            "vnsrl.wi v20, v8, 0" + nl + "vand.vi v24, v16, 1" + nl + "lui $4, 8" + nl +
            "vrsub.vx v24, v24, $4" + nl + "vmsltu.vv v0, v24, v20" + nl +
            "vadd.vi v16, v16, 1, v0.t" + nl + "vsetvli zero, $2, e32, m8, ta, ma" + nl +
            "vmfne.vv v0, v8, v8" + nl + "vsetvli zero, $2, e16, m4, ta, mu" + nl +
            "vnsrl.wi v24, v8, 16" + nl + "li $4, 64" + nl + "vor.vx v16, v24, $4, v0.t" + nl +
            "vse16.v v16, ($3)" + nl;
  else
    text += "vse32.v v8, ($3)" + nl;
  text += "sub $0, $0, $2" + nl + "slli $4, $2, " + (in == Elem::F32 ? "2" : "1") + nl +
          "add $1, $1, $4" + nl + "slli $4, $2, " + (t ? "1" : "2") + nl + "add $3, $3, $4" + nl +
          "bnez $0, .Lsfh${:uid}";
  std::string tail_constraints, tail_args;
  for (auto &[mn, x] : tail) {
    tail_constraints += "f,";
    tail_args += ", float " + elem(x, Idx(x->type.rank(), "0"));
  }
  emit("call { i64, ptr, i64, ptr, i64 } asm sideeffect \"" + text +
       "\", \"=&r,=&r,=&r,=&r,=&r,0,1,3," + (minuend.empty() ? "" : "f,") + tail_constraints +
       "~{v0},~{v8},~{v9},~{v10},~{v11},~{v12},~{v13},~{v14},~{v15},~{v16},~{v17},~{v18},~{v19},~{"
       "v20},~{v21},~{v22},~{v23},~{v24},~{v25},~{v26},~{v27},~{vl},~{"
       "vtype},~{memory}\"(i64 " +
       std::to_string(n) + ", ptr " + src + ", ptr " + dst +
       (minuend.empty() ? "" : ", float " + minuend) + tail_args + ")");
  if (t)
    dma_raw_[t] = dst;  // read (and stored) from the 16-bit buffer
  else
    bufs_[last] = buf;
  return true;
}

void Emitter::sfu_block(const Operation &op) {
  const Value *v = op.result(), *x = op.operands[0];
  Elem e = v->type.elem;
  if (sfu_block_half(op)) return;
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
