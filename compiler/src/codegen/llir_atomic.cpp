//===- llir_atomic.cpp - tt.atomic_rmw / tt.atomic_cas as RISC-V atomics; tt.bitcast ===//
//
// Every element of an atomic block (its mask permitting) is one atomic
// operation on global memory, in element order, as the IR interpreter does.
// Integer read-modify-writes are LLVM `atomicrmw` (AMO instructions: amoadd,
// amomax[u], amomin[u], amoand, amoor, amoxor, amoswap; 8/16-bit elements
// through LR/SC on the containing word); integer compare-and-swap is
// `cmpxchg` (an LR/SC loop). Floating-point operations are a `cmpxchg` loop
// on the element's bits around the same arithmetic the interpreter does
// (fp16/bf16 rounded, max/min propagating NaN). Masked-off elements return 0.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "llir_emitter.h"

namespace opforge::compiler::llir {
namespace {

std::string int_rmw(const std::string &kind) {
  if (kind == "add" || kind == "max" || kind == "min" || kind == "umax" || kind == "umin" ||
      kind == "and" || kind == "or" || kind == "xor" || kind == "xchg")
    return kind;
  return {};
}

}  // namespace

std::string Emitter::float_bits(Elem e, const std::string &x) {
  if (e == Elem::BF16)
    return emit("trunc i32 " + emit("lshr i32 " + emit("bitcast float " + x + " to i32") + ", 16") +
                " to i16");
  if (e == Elem::F16) return call_helper("__opforge_f32_to_f16", "i16", "float", x);
  return emit("bitcast " + llty(e) + " " + x + " to " +
              memty(e == Elem::F64 ? Elem::I64 : Elem::I32));
}

std::string Emitter::float_of_bits(Elem e, const std::string &b) {
  if (e == Elem::BF16)
    return emit("bitcast i32 " + emit("shl i32 " + emit("zext i16 " + b + " to i32") + ", 16") +
                " to float");
  if (e == Elem::F16) return call_helper("__opforge_f16_to_f32", "float", "i16", b);
  return emit("bitcast " + std::string(e == Elem::F64 ? "i64 " : "i32 ") + b + " to " + llty(e));
}

std::string Emitter::bitcast(const Operation &op, const std::string &x) {
  Elem from = op.operands[0]->type.elem, to = op.result()->type.elem;
  auto half = [](Elem e) { return e == Elem::F16 || e == Elem::BF16; };
  if (half(from) || half(to)) {
    std::string bits = half(from) ? float_bits(from, x) : x;  // i16
    if (!half(from) && from != Elem::I16) fail(op, "bitcast between types of different widths");
    if (half(to)) return float_of_bits(to, bits);
    if (to != Elem::I16) fail(op, "bitcast between types of different widths");
    return bits;
  }
  if (from == Elem::Ptr || to == Elem::Ptr || from == Elem::I1 || to == Elem::I1 ||
      memory_elem_bytes(from) != memory_elem_bytes(to))
    fail(op, "bitcast between these types is not supported");
  if (from == to) return x;
  return emit("bitcast " + llty(from) + " " + x + " to " + llty(to));
}

std::string Emitter::atomic_one(const Operation &op, Elem e, const std::string &ptr,
                                const std::string &v, const std::string &cmp) {
  bool is_cas = op.kind == OpKind::AtomicCAS;
  std::string kind = is_cas ? "cas" : op.str_attr("rmw_op");
  if (e == Elem::I1 || e == Elem::Ptr || e == Elem::None)
    fail(op, "atomics on " + std::string(ttir::elem_name(e)) + " elements are not supported");
  if (!ttir::elem_is_float(e)) {
    std::string ty = llty(e);
    if (is_cas)
      return emit("extractvalue {" + ty + ", i1} " +
                  emit("cmpxchg ptr " + ptr + ", " + ty + " " + cmp + ", " + ty + " " + v +
                       " seq_cst seq_cst") +
                  ", 0");
    std::string k = int_rmw(kind);
    if (k.empty()) fail(op, "atomic '" + kind + "' is not defined on integers");
    return emit("atomicrmw " + k + " ptr " + ptr + ", " + ty + " " + v + " seq_cst");
  }
  // Floats: compare-and-swap loop on the bits.
  std::string bty = memty(e == Elem::F64 ? Elem::I64 : e == Elem::F32 ? Elem::I32 : e);
  std::string fty = llty(e);
  std::string slot = alloca_of(bty);
  line("store " + bty + " " +
       emit("load atomic " + bty + ", ptr " + ptr + " monotonic, align " +
            std::to_string(memory_elem_bytes(e))) +
       ", ptr " + slot);
  std::string head = label(), done = label();
  line("br label %" + head);
  start(head);
  auto saved = memo_;
  std::string cur = emit("load " + bty + ", ptr " + slot);
  std::string a = float_of_bits(e, cur), r;
  if (kind == "fadd" || kind == "add") {
    r = round(e, emit("fadd " + fty + " " + a + ", " + v));
  } else if (kind == "max" || kind == "min") {
    // std::max(a, b) / std::min(a, b), NaN when either is NaN.
    std::string pick = kind == "max" ? emit("fcmp olt " + fty + " " + a + ", " + v)
                                     : emit("fcmp olt " + fty + " " + v + ", " + a);
    std::string m = emit("select i1 " + pick + ", " + fty + " " + v + ", " + fty + " " + a);
    std::string nan = emit("fcmp uno " + fty + " " + a + ", " + v);
    r = emit("select i1 " + nan + ", " + fty + " " + float_lit(std::nan(""), e) + ", " + fty + " " +
             m);
  } else if (kind == "xchg") {
    r = v;
  } else if (kind == "cas") {
    std::string eq = emit("fcmp oeq " + fty + " " + a + ", " + cmp);
    r = emit("select i1 " + eq + ", " + fty + " " + v + ", " + fty + " " + a);
  } else {
    fail(op, "atomic '" + kind + "' is not defined on floats");
  }
  std::string pair = emit("cmpxchg ptr " + ptr + ", " + bty + " " + cur + ", " + bty + " " +
                          float_bits(e, r) + " seq_cst seq_cst");
  line("store " + bty + " " + emit("extractvalue {" + bty + ", i1} " + pair + ", 0") + ", ptr " +
       slot);
  line("br i1 " + emit("extractvalue {" + bty + ", i1} " + pair + ", 1") + ", label %" + done +
       ", label %" + head);
  start(done);
  memo_ = saved;
  return a;  // the value the successful exchange replaced
}

void Emitter::atomic(const Operation &op) {
  bool is_cas = op.kind == OpKind::AtomicCAS;
  const Value *ptrv = op.operands[0];
  const Value *valv = op.operands[is_cas ? 2 : 1];
  const Value *cmpv = is_cas ? op.operands[1] : nullptr;
  const Value *maskv = !is_cas && op.operands.size() == 3 ? op.operands[2] : nullptr;
  const Value *res = op.result();
  Elem e = ptrv->type.pointee;
  std::string rty = llty(res->type.elem);
  std::string zero = ttir::elem_is_float(e) ? float_lit(0, e) : "0";
  std::string buf = res->type.is_block() ? buffer_for(res) : std::string();
  auto body = [&](const Idx &idx) {
    std::string slot = alloca_of(rty);
    line("store " + rty + " " + zero + ", ptr " + slot);
    auto put = [&] {
      std::string old =
          atomic_one(op, e, val(ptrv, idx), val(valv, idx), cmpv ? val(cmpv, idx) : std::string());
      line("store " + rty + " " + old + ", ptr " + slot);
    };
    if (maskv)
      when(val(maskv, idx), put);
    else
      put();
    std::string old = emit("load " + rty + ", ptr " + slot);
    if (res->type.is_block())
      buf_store(res, buf, idx, old);
    else
      scalars_[res] = old;
  };
  if (ptrv->type.is_block())
    loop_nest(ptrv->type.shape, body);
  else
    body({});
}

}  // namespace opforge::compiler::llir
