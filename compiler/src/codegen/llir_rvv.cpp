//===- llir_rvv.cpp - reduction tree levels as strip-mined RVV loops (vsetvli, no scalar tail) ===//
//
// The levels after the first of a tree reduction (llir_control.cpp,
// tree_reduce) halve a temporary of at most a block's length down to one
// element: 512, 256, ..., 2. Left to LLVM's loop vectorizer every level has
// a scalar remainder loop, and every level shorter than one vector register
// group runs entirely on the scalar FPU (for a 1024-element row about 127
// scalar iterations per reduction on mtia-2i). Here each level is one
// strip-mined loop written with RVV: `vl = vsetvli(half - k)`, vector loads
// of elements k and k + keep, the combine region evaluated on whole vectors
// with vector-predicated (llvm.vp.*) operations at that vl, a vector store;
// the last strip is a short vector, never a scalar loop. The order of the
// combines is the interpreter's (element k with element k + keep), so sums
// stay bit-identical.
//
// Levels short enough for one register group (power-of-two lengths) stay in
// vector registers: each halves by vslidedown and one combine, no memory.
//
// Used when every operand is 32 bits (f32, i32), the reduction is over the
// only axis, and the combine region uses only the operations mapped below;
// otherwise tree_reduce keeps its element loops.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

namespace {

// LMUL for `n` reduction operands: each strip keeps 3n vector groups live
// (two inputs and a result per operand) plus masks.
int rvv_lmul(size_t n) { return n <= 1 ? 8 : n == 2 ? 4 : 2; }

bool supported_elem(Elem e) { return e == Elem::F32 || e == Elem::I32; }

bool supported_region_op(const Operation &o) {
  switch (o.kind) {
    case OpKind::AddF:
    case OpKind::SubF:
    case OpKind::MulF:
    case OpKind::MaxNumF:
    case OpKind::MinNumF:
    case OpKind::AddI:
    case OpKind::SubI:
    case OpKind::MulI:
    case OpKind::MaxSI:
    case OpKind::MinSI:
    case OpKind::MaxUI:
    case OpKind::MinUI:
    case OpKind::CmpF:
    case OpKind::CmpI:
    case OpKind::Select:
    case OpKind::ReduceReturn:
      break;
    case OpKind::AndI:
    case OpKind::OrI:
    case OpKind::XOrI:
      break;
    case OpKind::Constant:
      return !o.results.empty() && !o.result()->type.is_block();
    default:
      return false;
  }
  for (auto &r : o.results)
    if (r->type.is_block() || !(supported_elem(r->type.elem) || r->type.elem == Elem::I1))
      return false;
  for (auto *v : o.operands)
    if (v->type.is_block() || !(supported_elem(v->type.elem) || v->type.elem == Elem::I1))
      return false;
  return true;
}

}  // namespace

bool Emitter::rvv_levels_ok(const Operation &op) const {
  if (op.operands.empty() || op.operands[0]->type.shape.size() != 1) return false;
  for (auto *v : op.operands)
    if (!supported_elem(v->type.elem)) return false;
  // Every region operand must be one of its arguments or results.
  std::set<const Value *> local;
  for (auto &a : op.regions[0]->args) local.insert(a.get());
  for (auto &o : op.regions[0]->ops) {
    if (!supported_region_op(*o)) return false;
    for (auto *v : o->operands)
      if (!local.count(v)) return false;
    for (auto &r : o->results) local.insert(r.get());
  }
  return true;
}

std::string Emitter::rvv_type(Elem e, int lmul) const {
  // <vscale x N x T> holds LMUL registers of 64 * vscale bits.
  int n = 2 * lmul;
  std::string t = e == Elem::I1 ? "i1" : e == Elem::F32 ? "float" : "i32";
  return "<vscale x " + std::to_string(n) + " x " + t + ">";
}

std::string Emitter::rvv_all_true(int lmul) const {
  std::string m = rvv_type(Elem::I1, lmul);
  return m + " shufflevector (" + m + " insertelement (" + m + " poison, i1 true, i64 0), " + m +
         " poison, <vscale x " + std::to_string(2 * lmul) + " x i32> zeroinitializer)";
}

// The combine region on whole vectors at vector length `vl`.
std::vector<std::string> Emitter::rvv_combine(const ttir::Block &region,
                                              const std::vector<std::string> &args, int lmul,
                                              const std::string &vl) {
  std::map<const Value *, std::string> vec;
  for (size_t k = 0; k < args.size(); ++k) vec[region.arg(k)] = args[k];
  const std::string vl32 = emit("trunc i64 " + vl + " to i32");
  const std::string all = rvv_all_true(lmul);
  const std::string suffix = "nxv" + std::to_string(2 * lmul);
  auto vt = [&](const Value *v) { return rvv_type(v->type.elem, lmul); };
  auto sfx = [&](const Value *v) {
    Elem e = v->type.elem;
    return suffix + (e == Elem::F32 ? "f32" : e == Elem::I32 ? "i32" : "i1");
  };
  for (auto &o : region.ops) {
    if (o->kind == OpKind::ReduceReturn) {
      std::vector<std::string> out;
      for (auto *v : o->operands) out.push_back(vec.at(v));
      return out;
    }
    const Value *r = o->result();
    std::string t = vt(r);
    auto in = [&](size_t i) { return vt(o->operands[i]) + " " + vec.at(o->operands[i]); };
    auto vp = [&](const char *name) {
      std::string f = std::string("llvm.vp.") + name + "." + sfx(r);
      decls_.insert("declare " + t + " @" + f + "(" + t + ", " + t + ", " +
                    rvv_type(Elem::I1, lmul) + ", i32)");
      return emit("call " + t + " @" + f + "(" + in(0) + ", " + in(1) + ", " + all + ", i32 " +
                  vl32 + ")");
    };
    auto riscv = [&](const char *name) {  // llvm.riscv.vX(passthru, a, b, vl)
      std::string f = std::string("llvm.riscv.") + name + "." + sfx(r) + "." + sfx(r) + ".i64";
      decls_.insert("declare " + t + " @" + f + "(" + t + ", " + t + ", " + t + ", i64)");
      return emit("call " + t + " @" + f + "(" + t + " undef, " + in(0) + ", " + in(1) + ", i64 " +
                  vl + ")");
    };
    std::string x;
    switch (o->kind) {
      case OpKind::Constant: {
        std::string ins = emit("insertelement " + t + " poison, " + llty(r->type.elem) + " " +
                               constant(*o) + ", i64 0");
        x = emit("shufflevector " + t + " " + ins + ", " + t + " poison, <vscale x " +
                 std::to_string(2 * lmul) + " x i32> zeroinitializer");
        break;
      }
      case OpKind::AddF:
        x = vp("fadd");
        break;
      case OpKind::SubF:
        x = vp("fsub");
        break;
      case OpKind::MulF:
        x = vp("fmul");
        break;
      case OpKind::AddI:
        x = vp("add");
        break;
      case OpKind::SubI:
        x = vp("sub");
        break;
      case OpKind::MulI:
        x = vp("mul");
        break;
      case OpKind::AndI:
        x = vp("and");
        break;
      case OpKind::OrI:
        x = vp("or");
        break;
      case OpKind::XOrI:
        x = vp("xor");
        break;
      case OpKind::MaxNumF:
        x = riscv("vfmax");
        break;
      case OpKind::MinNumF:
        x = riscv("vfmin");
        break;
      case OpKind::MaxSI:
        x = riscv("vmax");
        break;
      case OpKind::MinSI:
        x = riscv("vmin");
        break;
      case OpKind::MaxUI:
        x = riscv("vmaxu");
        break;
      case OpKind::MinUI:
        x = riscv("vminu");
        break;
      case OpKind::CmpF:
      case OpKind::CmpI: {
        bool f = o->kind == OpKind::CmpF;
        const Value *a = o->operands[0];
        std::string at = vt(a), mt = rvv_type(Elem::I1, lmul);
        std::string fn = std::string(f ? "llvm.vp.fcmp." : "llvm.vp.icmp.") + sfx(a);
        decls_.insert("declare " + mt + " @" + fn + "(" + at + ", " + at + ", metadata, " + mt +
                      ", i32)");
        x = emit("call " + mt + " @" + fn + "(" + in(0) + ", " + in(1) + ", metadata !\"" +
                 o->str_attr("predicate") + "\", " + all + ", i32 " + vl32 + ")");
        break;
      }
      case OpKind::Select: {
        std::string fn = "llvm.vp.select." + sfx(r);
        decls_.insert("declare " + t + " @" + fn + "(" + rvv_type(Elem::I1, lmul) + ", " + t +
                      ", " + t + ", i32)");
        x = emit("call " + t + " @" + fn + "(" + in(0) + ", " + in(1) + ", " + in(2) + ", i32 " +
                 vl32 + ")");
        break;
      }
      default:
        fail(*o, "internal: not mapped to RVV");
    }
    vec[r] = x;
  }
  throw Error("codegen: combine region without tt.reduce.return");
}

// Levels 1.. of the tree over the temporaries `tmp` (element types `elems`,
// `keep0` elements after level 0): while more than one is left, element k
// combines with element k + keep for k < half, in strips of vsetvli's length.
void Emitter::rvv_levels(const Operation &op, const std::vector<std::string> &tmp, int64_t keep0) {
  const size_t n = op.operands.size();
  const int lmul = rvv_lmul(n);
  decls_.insert("declare i64 @llvm.riscv.vsetvli.i64(i64, i64, i64)");
  std::string cur_slot = alloca_of("i64");
  line("store i64 " + std::to_string(keep0) + ", ptr " + cur_slot);
  std::string head = label(), body = label(), exit = label();
  // With power-of-two lengths (every level even) the levels that fit one
  // register group run in registers (register_levels); the others here.
  // (single-operand reductions: a multi-operand combine is more code than
  // the memory levels it saves).
  const bool in_registers = n == 1 && (keep0 & (keep0 - 1)) == 0;
  std::string limit = "1";
  if (in_registers) {
    decls_.insert("declare i64 @llvm.riscv.vsetvlimax.i64(i64, i64)");
    limit = emit("call i64 @llvm.riscv.vsetvlimax.i64(i64 2, i64 " +
                 std::to_string(vlmul_bits(lmul)) + ")");
  }
  line("br label %" + head);
  start(head);
  std::string cur = emit("load i64, ptr " + cur_slot);
  line("br i1 " + emit("icmp sgt i64 " + cur + ", " + limit) + ", label %" + body + ", label %" +
       exit);
  start(body);
  std::string half = emit("lshr i64 " + cur + ", 1");
  std::string keep = emit("sub i64 " + cur + ", " + half);
  rvv_pairwise(op, tmp, tmp, half, keep, lmul);
  line("store i64 " + keep + ", ptr " + cur_slot);
  line("br label %" + head);
  start(exit);
  if (in_registers) register_levels(op, tmp, emit("load i64, ptr " + cur_slot), lmul);
}

// One level as a strip loop: dst[k] = combine(src[k], src[k + keep]) for
// k < half (vsetvli strips; dst may be src).
void Emitter::rvv_pairwise(const Operation &op, const std::vector<std::string> &src,
                           const std::vector<std::string> &dst, const std::string &half,
                           const std::string &keep, int lmul) {
  const size_t n = op.operands.size();
  const ttir::Block &region = *op.regions[0];
  std::string k_slot = alloca_of("i64");
  std::string shead = label(), sbody = label(), sexit = label();
  line("store i64 0, ptr " + k_slot);
  line("br label %" + shead);
  start(shead);
  std::string k = emit("load i64, ptr " + k_slot);
  line("br i1 " + emit("icmp slt i64 " + k + ", " + half) + ", label %" + sbody + ", label %" +
       sexit);
  start(sbody);
  auto saved = memo_;
  std::string vl =
      emit("call i64 @llvm.riscv.vsetvli.i64(i64 " + emit("sub i64 " + half + ", " + k) +
           ", i64 2, i64 " + std::to_string(vlmul_bits(lmul)) + ")");
  std::string vl32 = emit("trunc i64 " + vl + " to i32");
  std::string hi = emit("add i64 " + k + ", " + keep);
  std::vector<std::string> args(2 * n);
  std::vector<std::string> lo_ptr(n), dst_ptr(n);
  for (size_t j = 0; j < n; ++j) {
    Elem e = op.operands[j]->type.elem;
    std::string t = rvv_type(e, lmul), st = llty(e);
    std::string fn =
        "llvm.vp.load.nxv" + std::to_string(2 * lmul) + (e == Elem::F32 ? "f32" : "i32") + ".p0";
    decls_.insert("declare " + t + " @" + fn + "(ptr, " + rvv_type(Elem::I1, lmul) + ", i32)");
    lo_ptr[j] = emit("getelementptr " + st + ", ptr " + src[j] + ", i64 " + k);
    dst_ptr[j] = emit("getelementptr " + st + ", ptr " + dst[j] + ", i64 " + k);
    std::string hp = emit("getelementptr " + st + ", ptr " + src[j] + ", i64 " + hi);
    args[j] = emit("call " + t + " @" + fn + "(ptr " + lo_ptr[j] + ", " + rvv_all_true(lmul) +
                   ", i32 " + vl32 + ")");
    args[n + j] = emit("call " + t + " @" + fn + "(ptr " + hp + ", " + rvv_all_true(lmul) +
                       ", i32 " + vl32 + ")");
  }
  std::vector<std::string> r = rvv_combine(region, args, lmul, vl);
  for (size_t j = 0; j < n; ++j) {
    Elem e = op.operands[j]->type.elem;
    std::string t = rvv_type(e, lmul);
    std::string fn =
        "llvm.vp.store.nxv" + std::to_string(2 * lmul) + (e == Elem::F32 ? "f32" : "i32") + ".p0";
    decls_.insert("declare void @" + fn + "(" + t + ", ptr, " + rvv_type(Elem::I1, lmul) +
                  ", i32)");
    line("call void @" + fn + "(" + t + " " + r[j] + ", ptr " + dst_ptr[j] + ", " +
         rvv_all_true(lmul) + ", i32 " + vl32 + ")");
  }
  memo_ = saved;
  line("store i64 " + emit("add i64 " + k + ", " + vl) + ", ptr " + k_slot);
  line("br label %" + shead);
  start(sexit);
}

// Level 0 from the operands' own buffers (every operand an fp32/i32 block in
// memory format) into the temporaries; false when an operand is not.
bool Emitter::rvv_level0(const Operation &op, const std::vector<std::string> &tmp, int64_t half0,
                         int64_t keep0) {
  if (!rvv_levels_ok(op) || half0 < 1) return false;
  std::vector<std::string> src;
  for (auto *v : op.operands) {
    std::string b;
    if (v->type.elem == Elem::F32) {
      b = f32_buffer_of(v);
    } else if (auto d = dma_raw_.find(v); d != dma_raw_.end()) {
      b = d->second;
    } else if (auto u = bufs_.find(v); u != bufs_.end()) {
      b = u->second;
    }
    if (b.empty()) return false;
    src.push_back(b);
  }
  decls_.insert("declare i64 @llvm.riscv.vsetvli.i64(i64, i64, i64)");
  rvv_pairwise(op, src, tmp, std::to_string(half0), std::to_string(keep0),
               rvv_lmul(op.operands.size()));
  return true;
}

// The last levels (`cur` <= one register group, a power of two): the
// temporaries are loaded once, and each level combines the register group
// with itself slid down by half its length (vslidedown, vl = half) until
// one element is left; it is stored to the temporaries' element 0.
void Emitter::register_levels(const Operation &op, const std::vector<std::string> &tmp,
                              const std::string &cur, int lmul) {
  const size_t n = op.operands.size();
  const ttir::Block &region = *op.regions[0];
  std::string all = rvv_all_true(lmul);
  std::vector<std::string> acc(n), ty(n), sfx(n);
  std::string cur32 = emit("trunc i64 " + cur + " to i32");
  for (size_t j = 0; j < n; ++j) {
    Elem e = op.operands[j]->type.elem;
    ty[j] = rvv_type(e, lmul);
    sfx[j] = "nxv" + std::to_string(2 * lmul) + (e == Elem::F32 ? "f32" : "i32");
    std::string fn = "llvm.vp.load." + sfx[j] + ".p0";
    decls_.insert("declare " + ty[j] + " @" + fn + "(ptr, " + rvv_type(Elem::I1, lmul) + ", i32)");
    acc[j] = alloca_of(ty[j]);
    line(
        "store " + ty[j] + " " +
        emit("call " + ty[j] + " @" + fn + "(ptr " + tmp[j] + ", " + all + ", i32 " + cur32 + ")") +
        ", ptr " + acc[j]);
  }
  std::string len_slot = alloca_of("i64");
  line("store i64 " + cur + ", ptr " + len_slot);
  std::string head = label(), body = label(), exit = label();
  line("br label %" + head);
  start(head);
  std::string len = emit("load i64, ptr " + len_slot);
  line("br i1 " + emit("icmp sgt i64 " + len + ", 1") + ", label %" + body + ", label %" + exit);
  start(body);
  std::string half = emit("lshr i64 " + len + ", 1");
  std::vector<std::string> args(2 * n);
  for (size_t j = 0; j < n; ++j) {
    std::string fn = "llvm.riscv.vslidedown." + sfx[j] + ".i64";
    decls_.insert("declare " + ty[j] + " @" + fn + "(" + ty[j] + ", " + ty[j] + ", i64, i64, i64)");
    args[j] = emit("load " + ty[j] + ", ptr " + acc[j]);
    args[n + j] = emit("call " + ty[j] + " @" + fn + "(" + ty[j] + " undef, " + ty[j] + " " +
                       args[j] + ", i64 " + half + ", i64 " + half + ", i64 3)");
  }
  std::vector<std::string> r = rvv_combine(region, args, lmul, half);
  for (size_t j = 0; j < n; ++j) line("store " + ty[j] + " " + r[j] + ", ptr " + acc[j]);
  line("store i64 " + half + ", ptr " + len_slot);
  line("br label %" + head);
  start(exit);
  for (size_t j = 0; j < n; ++j) {
    Elem e = op.operands[j]->type.elem;
    std::string x = emit("extractelement " + ty[j] + " " +
                         emit("load " + ty[j] + ", ptr " + acc[j]) + ", i64 0");
    line("store " + llty(e) + " " + x + ", ptr " + tmp[j]);
  }
}

}  // namespace opforge::compiler::llir
