//===- llir_vector.cpp - element loops emitted as RVV strip loops (vector mode) ===//
//
// An element loop whose body only reads and writes its blocks contiguously
// along the loop's index and applies operations that have an RVV form is
// emitted as a strip loop: `vl = vsetvli(hi - k)`, vector loads of the
// strip, the fused element expression evaluated on whole vectors with
// vector-predicated (llvm.vp.*) operations at that vl, vector stores, then
// k += vl. LLVM's loop vectorizer is not needed for it: no run-time alias
// check, no scalar remainder loop, and no minimum-iterations check, which
// is most of the blocks (and of the compile time) of a vectorized element
// loop.
//
// How. loop_span() tries vector_span() first where a caller allowed it
// (VectorOk: materialized element-wise blocks, fills, a DMA store's packing
// loop, a tree reduction's level 0). The body is emitted once in vector
// mode (vec_ set): elem() of a value read at a strip index (the loop's
// index, or that index plus a constant for a level 0's second half) gives a
// vector; values read at other indices (broadcast sources, scalars) stay
// scalars and are splat where they meet a vector. Anything without a vector
// form here (a gather or masked load through a pointer block, a strip index
// in another position than the last, a nested loop, fp16/bf16 arithmetic,
// integer division, i64/f64 elements, branches on a vector) throws
// NotVector; the emitter's state is restored and the loop is emitted as
// before, for LLVM's vectorizer. The results are bit-identical to the
// scalar loop: every operation is the same IEEE operation per element, in
// the same order.
//
// LMUL follows the values live in one strip (live_vectors_since, as for the
// kernel-wide LMUL): the body is emitted at LMUL 8 first and again at the
// smaller LMUL when more values are live.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <map>

#include "llir_emitter.h"

namespace opforge::compiler::llir {

namespace {

// The LLVM scalar type of a strip's elements (fp16/bf16 carried as fp32).
const char *strip_scalar(Elem e) {
  switch (e) {
    case Elem::F32:
    case Elem::BF16:
    case Elem::F16:
      return "float";
    case Elem::I32:
      return "i32";
    case Elem::I16:
      return "i16";
    case Elem::I8:
      return "i8";
    case Elem::I1:
      return "i1";
    default:
      return nullptr;
  }
}

}  // namespace

// The strip's fp16 values as LLVM half elements (Zvfh: SEW=16, LMUL/2).
std::string Emitter::vhalf_ty() const {
  return "<vscale x " + std::to_string(2 * vec_->lmul) + " x half>";
}
// fp32 strip values rounded to fp16 (vfncvt.f.f.w) and widened back (vfwcvt.f.f.v).
std::string Emitter::vhalf(const std::string &x) {
  return emit("fptrunc " + vty(Elem::F32) + " " + vof(Elem::F32, x) + " to " + vhalf_ty());
}
std::string Emitter::vwiden_half(const std::string &h) {
  std::string f = emit("fpext " + vhalf_ty() + " " + h + " to " + vty(Elem::F32));
  vvals_.insert(f);
  return f;
}

std::string Emitter::vty(Elem e) const {
  const char *t = strip_scalar(e);
  if (!t) throw NotVector{};
  return "<vscale x " + std::to_string(2 * vec_->lmul) + " x " + t + ">";
}

std::string Emitter::vsfx(Elem e) const {
  const char *t = strip_scalar(e);
  if (!t) throw NotVector{};
  return "nxv" + std::to_string(2 * vec_->lmul) + (std::string(t) == "float" ? "f32" : t);
}

std::string Emitter::vall() const { return rvv_all_true(vec_->lmul); }

std::string Emitter::vsplat(Elem e, const std::string &x) {
  std::string t = vty(e);
  std::string ins =
      emit("insertelement " + t + " poison, " + strip_scalar(e) + " " + x + ", i64 0");
  std::string r = emit("shufflevector " + t + " " + ins + ", " + t + " poison, <vscale x " +
                       std::to_string(2 * vec_->lmul) + " x i32> zeroinitializer");
  vvals_.insert(r);
  return r;
}

std::string Emitter::vof(Elem e, const std::string &x) { return is_vec(x) ? x : vsplat(e, x); }

std::string Emitter::vcall(const std::string &ret, const std::string &fn, const std::string &params,
                           const std::string &args) {
  decls_.insert("declare " + ret + " @" + fn + "(" + params + ")");
  std::string r = emit("call " + ret + " @" + fn + "(" + args + ")");
  vvals_.insert(r);
  return r;
}

bool Emitter::vec_index(const Idx &idx) const {
  if (!vec_ || idx.empty()) return false;
  for (size_t d = 0; d + 1 < idx.size(); ++d)
    if (vec_->index.count(idx[d])) throw NotVector{};  // strided along the strip
  return vec_->index.count(idx.back()) > 0;
}

std::string Emitter::vload(Elem e, const std::string &ptr) {
  const std::string m = vty(Elem::I1), vl = vec_->vl32;
  auto load = [&](Elem me) {
    std::string t = vty(me);
    return vcall(t, "llvm.vp.load." + vsfx(me) + ".p0", "ptr, " + m + ", i32",
                 "ptr " + ptr + ", " + vall() + ", i32 " + vl);
  };
  switch (e) {
    case Elem::F32:
    case Elem::I32:
      return load(e);
    case Elem::I1: {
      std::string b = load(Elem::I8), t8 = vty(Elem::I8);
      return vcall(m, "llvm.vp.icmp." + vsfx(Elem::I8),
                   t8 + ", " + t8 + ", metadata, " + m + ", i32",
                   t8 + " " + b + ", " + t8 + " " + vsplat(Elem::I8, "0") + ", metadata !\"ne\", " +
                       vall() + ", i32 " + vl);
    }
    case Elem::F16:  // vle16.v, then vfwcvt.f.f.v (folded away when the next use is fp16)
      return vwiden_half(
          emit("bitcast " + vty(Elem::I16) + " " + load(Elem::I16) + " to " + vhalf_ty()));
    case Elem::BF16: {
      std::string h = load(Elem::I16), t16 = vty(Elem::I16), t32 = vty(Elem::I32);
      std::string w =
          vcall(t32, "llvm.vp.zext." + vsfx(Elem::I32) + "." + vsfx(Elem::I16),
                t16 + ", " + m + ", i32", t16 + " " + h + ", " + vall() + ", i32 " + vl);
      std::string s =
          vcall(t32, "llvm.vp.shl." + vsfx(Elem::I32), t32 + ", " + t32 + ", " + m + ", i32",
                t32 + " " + w + ", " + t32 + " " + vsplat(Elem::I32, "16") + ", " + vall() +
                    ", i32 " + vl);
      std::string f = emit("bitcast " + t32 + " " + s + " to " + vty(Elem::F32));
      vvals_.insert(f);
      return f;
    }
    default:
      throw NotVector{};
  }
}

void Emitter::vstore(Elem e, const std::string &ptr, const std::string &x) {
  const std::string m = vty(Elem::I1), vl = vec_->vl32;
  auto store = [&](Elem me, const std::string &v) {
    std::string t = vty(me);
    decls_.insert("declare void @llvm.vp.store." + vsfx(me) + ".p0(" + t + ", ptr, " + m +
                  ", i32)");
    line("call void @llvm.vp.store." + vsfx(me) + ".p0(" + t + " " + v + ", ptr " + ptr + ", " +
         vall() + ", i32 " + vl + ")");
  };
  switch (e) {
    case Elem::F32:
    case Elem::I32:
      return store(e, vof(e, x));
    case Elem::I1: {
      std::string t8 = vty(Elem::I8);
      return store(Elem::I8, vcall(t8, "llvm.vp.zext." + vsfx(Elem::I8) + "." + vsfx(Elem::I1),
                                   m + ", " + m + ", i32",
                                   m + " " + vof(Elem::I1, x) + ", " + vall() + ", i32 " + vl));
    }
    case Elem::F16:  // vfncvt.f.f.w (exact: the values are fp16-exact), vse16.v
      return store(Elem::I16,
                   emit("bitcast " + vhalf_ty() + " " + vhalf(x) + " to " + vty(Elem::I16)));
    case Elem::BF16: {
      std::string t32 = vty(Elem::I32), t16 = vty(Elem::I16);
      std::string b = emit("bitcast " + vty(Elem::F32) + " " + vof(Elem::F32, x) + " to " + t32);
      std::string s =
          vcall(t32, "llvm.vp.lshr." + vsfx(Elem::I32), t32 + ", " + t32 + ", " + m + ", i32",
                t32 + " " + b + ", " + t32 + " " + vsplat(Elem::I32, "16") + ", " + vall() +
                    ", i32 " + vl);
      return store(Elem::I16,
                   vcall(t16, "llvm.vp.trunc." + vsfx(Elem::I16) + "." + vsfx(Elem::I32),
                         t32 + ", " + m + ", i32", t32 + " " + s + ", " + vall() + ", i32 " + vl));
    }
    default:
      throw NotVector{};
  }
}

std::string Emitter::vrange(const Operation &op, const std::string &i) {
  std::string t = vty(Elem::I32);
  std::string step = vcall(t, "llvm.experimental.stepvector." + vsfx(Elem::I32), "", "");
  std::string base =
      emit("trunc i64 " + emit("add i64 " + i + ", " + std::to_string(op.int_attr("start"))) +
           " to i32");
  return vcall(t, "llvm.vp.add." + vsfx(Elem::I32), t + ", " + t + ", " + vty(Elem::I1) + ", i32",
               t + " " + step + ", " + t + " " + vsplat(Elem::I32, base) + ", " + vall() +
                   ", i32 " + vec_->vl32);
}

std::string Emitter::apply_any(const Operation &op, const std::vector<LlVal> &vals) {
  if (vec_)
    for (auto &x : vals)
      if (is_vec(x.ref)) return vapply(op, vals);
  std::vector<std::string> in;
  for (auto &x : vals) in.push_back(x.ref);
  return apply(op, in);
}

std::string Emitter::vapply(const Operation &op, const std::vector<LlVal> &vals) {
  std::vector<std::string> in;
  for (auto &x : vals) in.push_back(x.ref);
  auto ok = [](Elem e) {
    return e == Elem::F32 || e == Elem::F16 || e == Elem::I32 || e == Elem::I1;
  };
  if (op.results.size() != 1 || !ok(op.result()->type.elem)) throw NotVector{};
  for (auto *o : op.operands)
    if (!ok(o->type.elem)) throw NotVector{};
  const Elem re = op.result()->type.elem;
  const Elem ie = op.operands.empty() ? re : op.operands[0]->type.elem;
  const std::string rt = vty(re), m = vty(Elem::I1), vl = vec_->vl32;
  auto arg = [&](size_t i) {
    Elem e = op.operands[i]->type.elem;
    return vty(e) + " " + vof(e, in[i]);
  };
  // llvm.vp.NAME(a, b, mask, evl) and its unary form.
  auto vp2 = [&](const std::string &name) {
    std::string it = vty(ie);
    return vcall(rt, "llvm.vp." + name + "." + vsfx(re), it + ", " + it + ", " + m + ", i32",
                 arg(0) + ", " + arg(1) + ", " + vall() + ", i32 " + vl);
  };
  auto vp1 = [&](const std::string &name) {
    return vcall(rt, "llvm.vp." + name + "." + vsfx(re), rt + ", " + m + ", i32",
                 arg(0) + ", " + vall() + ", i32 " + vl);
  };
  // llvm.riscv.vNAME(passthru, a, b, vl) (min/max with the scalar code's semantics).
  auto rv2 = [&](const std::string &name) {
    return vcall(rt, "llvm.riscv." + name + "." + vsfx(re) + "." + vsfx(re) + ".i64",
                 rt + ", " + rt + ", " + rt + ", i64",
                 rt + " undef, " + arg(0) + ", " + arg(1) + ", i64 " + vec_->vl);
  };
  auto cmp = [&](bool f, const std::string &pred) {
    std::string it = vty(ie);
    return vcall(
        m, std::string(f ? "llvm.vp.fcmp." : "llvm.vp.icmp.") + vsfx(ie),
        it + ", " + it + ", metadata, " + m + ", i32",
        arg(0) + ", " + arg(1) + ", metadata !\"" + pred + "\", " + vall() + ", i32 " + vl);
  };
  auto select = [&](const std::string &c, const std::string &a, const std::string &b) {
    return vcall(rt, "llvm.vp.select." + vsfx(re), m + ", " + rt + ", " + rt + ", i32",
                 m + " " + c + ", " + rt + " " + a + ", " + rt + " " + b + ", i32 " + vl);
  };
  if (re == Elem::F16 || ie == Elem::F16) {
    // fp16 strips are fp32 vectors of fp16-exact values. + - * / are fp16
    // operations (Zvfh, one rounding: the bits of fp32-then-round); the
    // exact operations (negation, abs, min/max, compares, selects) run on
    // the fp32 values below; the rest stay scalar.
    static const std::map<OpKind, const char *> kHalfOps = {{OpKind::AddF, "fadd"},
                                                            {OpKind::SubF, "fsub"},
                                                            {OpKind::MulF, "fmul"},
                                                            {OpKind::DivF, "fdiv"}};
    auto hop = kHalfOps.find(op.kind);
    if (hop != kHalfOps.end() && re == Elem::F16 && ie == Elem::F16)
      return vwiden_half(emit(std::string(hop->second) + " " + vhalf_ty() + " " + vhalf(in[0]) +
                              ", " + vhalf(in[1])));
    if (op.kind == OpKind::ExtF && ie == Elem::F16 && re == Elem::F32) return vof(re, in[0]);
    if (op.kind == OpKind::TruncF && ie == Elem::F32 && re == Elem::F16)
      return vwiden_half(vhalf(in[0]));
    switch (op.kind) {
      case OpKind::NegF:
      case OpKind::AbsF:
      case OpKind::MaxNumF:
      case OpKind::MinNumF:
      case OpKind::MaximumF:
      case OpKind::MinimumF:
      case OpKind::CmpF:
      case OpKind::Select:
        break;
      default:
        throw NotVector{};
    }
  }
  if ((op.kind == OpKind::AndI || op.kind == OpKind::OrI) && re == Elem::I1) {
    // A known mask: true & m = m, false | m = m; the other literal decides.
    const int64_t unit = op.kind == OpKind::AndI ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
      if (vals[i].is(unit)) return vof(re, in[1 - i]);
      if (vals[i].constant) return vsplat(re, in[i]);
    }
  }
  switch (op.kind) {
    case OpKind::AddF:
      return vp2("fadd");
    case OpKind::SubF:
      return vp2("fsub");
    case OpKind::MulF:
      return vp2("fmul");
    case OpKind::DivF:
      return vp2("fdiv");
    case OpKind::NegF:
      return vp1("fneg");
    case OpKind::Sqrt:
      return vp1("sqrt");
    case OpKind::AbsF:
      return vp1("fabs");
    case OpKind::Fma:
      return vcall(rt, "llvm.vp.fma." + vsfx(re), rt + ", " + rt + ", " + rt + ", " + m + ", i32",
                   arg(0) + ", " + arg(1) + ", " + arg(2) + ", " + vall() + ", i32 " + vl);
    case OpKind::AddI:
      return vp2("add");
    case OpKind::SubI:
      return vp2("sub");
    case OpKind::MulI:
      return vp2("mul");
    case OpKind::AndI:
      return vp2("and");
    case OpKind::OrI:
      return vp2("or");
    case OpKind::XOrI:
      return vp2("xor");
    case OpKind::ShLI:
    case OpKind::ShRSI:
    case OpKind::ShRUI: {
      if (re != Elem::I32) throw NotVector{};
      std::string amt =
          vcall(rt, "llvm.vp.and." + vsfx(re), rt + ", " + rt + ", " + m + ", i32",
                arg(1) + ", " + rt + " " + vsplat(Elem::I32, "31") + ", " + vall() + ", i32 " + vl);
      std::string name = op.kind == OpKind::ShLI    ? "shl"
                         : op.kind == OpKind::ShRSI ? "ashr"
                                                    : "lshr";
      return vcall(rt, "llvm.vp." + name + "." + vsfx(re), rt + ", " + rt + ", " + m + ", i32",
                   arg(0) + ", " + rt + " " + amt + ", " + vall() + ", i32 " + vl);
    }
    case OpKind::MulHiUI:  // the Philox rounds of tl.rand & co.
      if (re != Elem::I32) throw NotVector{};
      return rv2("vmulhu");
    case OpKind::MaxNumF:
      return rv2("vfmax");
    case OpKind::MinNumF:
      return rv2("vfmin");
    case OpKind::MaxSI:
      return rv2("vmax");
    case OpKind::MinSI:
      return rv2("vmin");
    case OpKind::MaxUI:
      return rv2("vmaxu");
    case OpKind::MinUI:
      return rv2("vminu");
    case OpKind::MaximumF:
    case OpKind::MinimumF: {
      std::string mm = rv2(op.kind == OpKind::MaximumF ? "vfmax" : "vfmin");
      std::string nan = cmp(true, "uno");
      return select(nan, vsplat(Elem::F32, float_lit(NAN, Elem::F32)), mm);
    }
    case OpKind::CmpF:
      return cmp(true, op.str_attr("predicate"));
    case OpKind::CmpI:
      return cmp(false, op.str_attr("predicate"));
    case OpKind::Select:  // a mask known here (llir_masks.cpp) picks its operand
      if (vals[0].constant) return vof(re, vals[0].is(1) ? in[1] : in[2]);
      return select(vof(Elem::I1, in[0]), vof(re, in[1]), vof(re, in[2]));
    case OpKind::SIToFP:
    case OpKind::UIToFP:
      if (ie != Elem::I32 || re != Elem::F32) throw NotVector{};
      return vcall(rt,
                   std::string(op.kind == OpKind::SIToFP ? "llvm.vp.sitofp." : "llvm.vp.uitofp.") +
                       vsfx(re) + "." + vsfx(ie),
                   vty(ie) + ", " + m + ", i32", arg(0) + ", " + vall() + ", i32 " + vl);
    case OpKind::ExtSI:
    case OpKind::ExtUI:
    case OpKind::TruncI:
    case OpKind::ExtF:
    case OpKind::TruncF:
      if (ie != re) throw NotVector{};
      return vof(re, in[0]);
    case OpKind::Bitcast: {
      if (ie == Elem::I1 || re == Elem::I1) throw NotVector{};
      std::string r = emit("bitcast " + arg(0) + " to " + rt);
      vvals_.insert(r);
      return r;
    }
    default:
      throw NotVector{};
  }
}

void Emitter::fill(const Value *dv, const std::string &dst, const Value *src) {
  VectorOk strips(*this);
  // A uniform block (tl.zeros, a splat scalar) into a whole buffer: one loop
  // over its elements instead of a loop nest.
  if (dv->type.rank() > 1 && dv->type.shape == src->type.shape && is_uniform_block(src)) {
    const Idx zero(src->type.rank(), "0");
    loop(0, dv->type.numel(),
         [&](const std::string &k) { buf_store(dv, dst, Idx{k}, elem(src, zero)); });
    return;
  }
  masked_loop({src}, src->type.shape, dv->type.shape, {0},
              [&](const Idx &idx) { buf_store(dv, dst, idx, elem(src, idx)); });
}

bool Emitter::vector_span(const std::string &lo, const std::string &hi,
                          const std::function<void(const std::string &)> &body) {
  // The instruction records are only cut back to these positions when the
  // strip loop is abandoned or emitted again.
  const IrBody::Mark code0 = code_.mark();
  const size_t allocas0 = allocas_.size();
  const auto decls0 = decls_;
  const auto memo0 = memo_;
  const auto scalars0 = scalars_;
  const auto bufs0 = bufs_;
  const auto cold0 = cold_regions_;
  const auto ids0 = loop_ids_;
  const auto known0 = known_true_;
  const auto facts0 = mask_facts_;
  const int live0 = max_live_vectors_;
  const bool inner0 = inner_loop_seen_, halves0 = halves_live_;
  auto restore = [&] {
    vec_.reset();
    vvals_.clear();
    code_.cut(code0);
    allocas_.resize(allocas0);
    decls_ = decls0;
    memo_ = memo0;
    scalars_ = scalars0;
    bufs_ = bufs0;
    cold_regions_ = cold0;
    loop_ids_ = ids0;
    known_true_ = known0;
    mask_facts_ = facts0;
    max_live_vectors_ = live0;
    inner_loop_seen_ = inner0;
    halves_live_ = halves0;
  };
  int lmul = 8;
  for (int attempt = 0;; ++attempt) {
    int live = 0;
    try {
      decls_.insert("declare i64 @llvm.riscv.vsetvli.i64(i64, i64, i64)");
      std::string slot = alloca_of("i64");
      line("store i64 " + lo + ", ptr " + slot);
      std::string head = label(), bodyl = label(), exit = label();
      line("br label %" + head);
      start(head);
      std::string k = emit("load i64, ptr " + slot);
      line("br i1 " + emit("icmp slt i64 " + k + ", " + hi) + ", label %" + bodyl + ", label %" +
           exit);
      start(bodyl);
      auto saved = memo_;
      std::string vl =
          emit("call i64 @llvm.riscv.vsetvli.i64(i64 " + emit("sub i64 " + hi + ", " + k) +
               ", i64 2, i64 " + std::to_string(vlmul_bits(lmul)) + ")");
      vec_ = VecMode{{k}, vl, emit("trunc i64 " + vl + " to i32"), lmul};
      inner_loop_seen_ = false;
      body(k);
      vec_.reset();
      vvals_.clear();
      live = live_vectors_since(saved);
      if (halves_live_) live = live / 2 + 1;
      max_live_vectors_ = std::max(max_live_vectors_, live);
      inner_loop_seen_ = true;
      memo_ = saved;
      line("store i64 " + emit("add i64 " + k + ", " + vl) + ", ptr " + slot);
      line("br label %" + head);
      start(exit);
    } catch (NotVector &) {
      restore();
      return false;
    }
    int want = vector_lmul(live);
    if (want >= lmul || attempt > 0) return true;
    restore();
    lmul = want;
  }
}

}  // namespace opforge::compiler::llir
