//===- llir_apply.cpp - element-wise ops: arithmetic, conversions, SFU -----===//
#include <cmath>
#include <functional>

#include "llir_emitter.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

namespace {

// C fmod on fp32 (also exact for fp16/bf16 values, which the scalar code holds
// as fp32): |x| = mx * 2^ex, |y| = my * 2^ey with 24-bit integer significands;
// the remainder is (mx * 2^(ex-ey)) mod my scaled by 2^ey, computed exactly with
// 64-bit integer remainders, 39 bits of exponent difference at a time (the
// largest difference, 253, needs 7 steps). The result has x's sign; NaN for a
// NaN operand, an infinite x or a zero y; x itself when |x| < |y| or y is
// infinite. Straight-line code: no libm on the target.
std::string fmod32(const std::function<std::string(const std::string &)> &emit,
                   const std::string &x, const std::string &y) {
  auto i32 = [&](const std::string &s) { return emit(s); };
  std::string bx = i32("bitcast float " + x + " to i32");
  std::string by = i32("bitcast float " + y + " to i32");
  std::string ax = i32("and i32 " + bx + ", 2147483647");
  std::string ay = i32("and i32 " + by + ", 2147483647");
  std::string sx = i32("and i32 " + bx + ", -2147483648");
  auto split = [&](const std::string &a, std::string &m, std::string &e) {
    std::string ex = i32("lshr i32 " + a + ", 23");
    std::string frac = i32("and i32 " + a + ", 8388607");
    std::string sub = i32("icmp eq i32 " + ex + ", 0");
    m = i32("select i1 " + sub + ", i32 " + frac + ", i32 " + i32("or i32 " + frac + ", 8388608"));
    e = i32("select i1 " + sub + ", i32 1, i32 " + ex);
  };
  std::string mx, ex, my, ey;
  split(ax, mx, ex);
  split(ay, my, ey);
  std::string yzero = i32("icmp eq i32 " + ay + ", 0");
  std::string m64 = i32("zext i32 " + i32("select i1 " + yzero + ", i32 1, i32 " + my) + " to i64");
  std::string r = i32("urem i64 " + i32("zext i32 " + mx + " to i64") + ", " + m64);
  std::string d = i32("sub i32 " + ex + ", " + ey);
  d = i32("select i1 " + i32("icmp slt i32 " + d + ", 0") + ", i32 0, i32 " + d);
  for (int step = 0; step < 7; ++step) {
    std::string s =
        i32("select i1 " + i32("icmp ult i32 " + d + ", 39") + ", i32 " + d + ", i32 39");
    r = i32("urem i64 " + i32("shl i64 " + r + ", " + i32("zext i32 " + s + " to i64")) + ", " +
            m64);
    d = i32("sub i32 " + d + ", " + s);
  }
  // r * 2^(ey - 150) in two exact power-of-two steps (each factor a normal float).
  std::string e = i32("sub i32 " + ey + ", 150");
  std::string e1 = i32("ashr i32 " + e + ", 1");
  std::string e2 = i32("sub i32 " + e + ", " + e1);
  auto pow2 = [&](const std::string &k) {
    return i32("bitcast i32 " + i32("shl i32 " + i32("add i32 " + k + ", 127") + ", 23") +
               " to float");
  };
  std::string f = i32("uitofp i64 " + r + " to float");
  f = i32("fmul float " + i32("fmul float " + f + ", " + pow2(e1)) + ", " + pow2(e2));
  std::string res = i32("or i32 " + i32("bitcast float " + f + " to i32") + ", " + sx);
  std::string small = i32("icmp ult i32 " + ax + ", " + ay);
  std::string yinf = i32("icmp eq i32 " + ay + ", 2139095040");
  std::string keep = i32("or i1 " + small + ", " + yinf);
  res = i32("select i1 " + keep + ", i32 " + bx + ", i32 " + res);
  std::string nan = i32("or i1 " + i32("icmp uge i32 " + ax + ", 2139095040") + ", " +
                        i32("or i1 " + yzero + ", " + i32("icmp ugt i32 " + ay + ", 2139095040")));
  res = i32("select i1 " + nan + ", i32 2143289344, i32 " + res);
  return i32("bitcast i32 " + res + " to float");
}

}  // namespace

std::string Emitter::apply(const Operation &op, const std::vector<std::string> &in) {
  if (op.kind == OpKind::Bitcast) return bitcast(op, in[0]);  // llir_atomic.cpp
  Elem re = op.result()->type.elem;
  Elem ie = op.operands.empty() ? re : op.operands[0]->type.elem;
  std::string rt = llty(re), it = llty(ie);
  auto bin = [&](const char *inst) {
    return emit(std::string(inst) + " " + it + " " + in[0] + ", " + in[1]);
  };
  auto fbin = [&](const char *inst) { return round(re, bin(inst)); };
  auto call = [&](const std::string &name, int n) {
    std::string types, args;
    for (int k = 0; k < n; ++k) {
      types += (k ? ", " : "") + it;
      args += (k ? ", " : "") + it + " " + in[k];
    }
    return emit("call " + rt + " @" + intrinsic(name, rt, types) + "(" + args + ")");
  };
  std::string fsuf = it == "double" ? "f64" : "f32";
  switch (op.kind) {
    case OpKind::AddI:
      return bin("add");
    case OpKind::SubI:
      return bin("sub");
    case OpKind::MulI:
      return bin("mul");
    case OpKind::AndI:
      return bin("and");
    case OpKind::OrI:
      return bin("or");
    case OpKind::XOrI:
      return bin("xor");
    case OpKind::AddF:
      return fbin("fadd");
    case OpKind::SubF:
      return fbin("fsub");
    case OpKind::MulF:
      return fbin("fmul");
    case OpKind::DivF:
      return fbin("fdiv");
    case OpKind::NegF:
      return emit("fneg " + it + " " + in[0]);
    case OpKind::DivSI:
    case OpKind::RemSI:
    case OpKind::DivUI:
    case OpKind::RemUI:
      return divide(op.kind, it, ie, in);
    case OpKind::MulHiUI: {  // high half of the unsigned double-width product (RVV: vmulhu)
      std::string wt = "i" + std::to_string(2 * ttir::elem_bits(ie));
      std::string p = emit("mul " + wt + " " + emit("zext " + it + " " + in[0] + " to " + wt) +
                           ", " + emit("zext " + it + " " + in[1] + " to " + wt));
      std::string h = emit("lshr " + wt + " " + p + ", " + std::to_string(ttir::elem_bits(ie)));
      return emit("trunc " + wt + " " + h + " to " + it);
    }
    case OpKind::RemF:
      if (it != "float") fail(op, "float64 remainder (%, fmod) is not supported on this target");
      return fmod32([this](const std::string &s) { return emit(s); }, in[0], in[1]);
    case OpKind::ShLI:
    case OpKind::ShRSI:
    case OpKind::ShRUI: {
      std::string amt =
          emit("and " + it + " " + in[1] + ", " + std::to_string(ttir::elem_bits(ie) - 1));
      const char *inst = op.kind == OpKind::ShLI    ? "shl"
                         : op.kind == OpKind::ShRSI ? "ashr"
                                                    : "lshr";
      return emit(std::string(inst) + " " + it + " " + in[0] + ", " + amt);
    }
    case OpKind::CmpI:
      return emit("icmp " + op.str_attr("predicate") + " " + it + " " + in[0] + ", " + in[1]);
    case OpKind::CmpF:
      return emit("fcmp " + op.str_attr("predicate") + " " + it + " " + in[0] + ", " + in[1]);
    case OpKind::Select:
      return emit("select i1 " + in[0] + ", " + rt + " " + in[1] + ", " + rt + " " + in[2]);
    case OpKind::MaxSI:
    case OpKind::MinSI:
    case OpKind::MaxUI:
    case OpKind::MinUI: {
      const char *p = op.kind == OpKind::MaxSI   ? "sge"
                      : op.kind == OpKind::MinSI ? "sle"
                      : op.kind == OpKind::MaxUI ? "uge"
                                                 : "ule";
      std::string c = emit(std::string("icmp ") + p + " " + it + " " + in[0] + ", " + in[1]);
      return emit("select i1 " + c + ", " + it + " " + in[0] + ", " + it + " " + in[1]);
    }
    case OpKind::MaxNumF:
      return call("llvm.maxnum." + fsuf, 2);
    case OpKind::MinNumF:
      return call("llvm.minnum." + fsuf, 2);
    case OpKind::MaximumF:
    case OpKind::MinimumF: {
      std::string m =
          call(op.kind == OpKind::MaximumF ? "llvm.maxnum." + fsuf : "llvm.minnum." + fsuf, 2);
      std::string nan = emit("fcmp uno " + it + " " + in[0] + ", " + in[1]);
      return emit("select i1 " + nan + ", " + it + " " + float_lit(NAN, ie) + ", " + it + " " + m);
    }
    case OpKind::Fma:
      return round(re, call("llvm.fma." + fsuf, 3));
    case OpKind::Sqrt:
      return round(re, call("llvm.sqrt." + fsuf, 1));
    case OpKind::AbsF:
      return call("llvm.fabs." + fsuf, 1);
    case OpKind::Floor:
      return round(re, call("llvm.floor." + fsuf, 1));
    case OpKind::Ceil:
      return round(re, call("llvm.ceil." + fsuf, 1));
    case OpKind::AbsI: {
      std::string neg = emit("sub " + it + " 0, " + in[0]);
      std::string c = emit("icmp slt " + it + " " + in[0] + ", 0");
      return emit("select i1 " + c + ", " + it + " " + neg + ", " + it + " " + in[0]);
    }
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Tanh:
    case OpKind::Erf:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Rsqrt:
      return round(re, sfu(op.kind, it, in[0]));
    case OpKind::Exp2: {
      std::string x = emit("fmul " + it + " " + in[0] + ", " + float_lit(M_LN2, ie));
      return round(re, sfu(OpKind::Exp, it, x));
    }
    case OpKind::Log2: {
      std::string l = sfu(OpKind::Log, it, in[0]);
      return round(re, emit("fmul " + it + " " + l + ", " + float_lit(1.0 / M_LN2, ie)));
    }
    case OpKind::ExtSI:
    case OpKind::ExtUI:
    case OpKind::TruncI: {
      if (ttir::elem_bits(ie) == ttir::elem_bits(re)) return in[0];
      const char *inst = op.kind == OpKind::TruncI  ? "trunc"
                         : op.kind == OpKind::ExtSI ? "sext"
                                                    : "zext";
      return emit(std::string(inst) + " " + it + " " + in[0] + " to " + rt);
    }
    case OpKind::SIToFP:
    case OpKind::UIToFP:
      return round(re, emit(std::string(op.kind == OpKind::SIToFP ? "sitofp " : "uitofp ") + it +
                            " " + in[0] + " to " + rt));
    case OpKind::FPToSI:
    case OpKind::FPToUI: {
      bool u = op.kind == OpKind::FPToUI;
      std::string name = std::string(u ? "llvm.fptoui.sat." : "llvm.fptosi.sat.") + rt + "." + fsuf;
      return emit("call " + rt + " @" + intrinsic(name, rt, it) + "(" + it + " " + in[0] + ")");
    }
    case OpKind::ExtF:
    case OpKind::TruncF: {
      if (it == rt) return round(re, in[0]);
      if (op.kind == OpKind::ExtF) return emit("fpext " + it + " " + in[0] + " to " + rt);
      return round(re, emit("fptrunc " + it + " " + in[0] + " to " + rt));
    }
    case OpKind::AddPtr: {
      Elem pe = op.operands[0]->type.pointee;
      return emit("getelementptr " + memty(pe) + ", ptr " + in[0] + ", " +
                  llty(op.operands[1]->type.elem) + " " + in[1]);
    }
    default:
      fail(op, "not supported by the code generator yet");
  }
}

std::string Emitter::divide(OpKind k, const std::string &it, Elem ie,
                            const std::vector<std::string> &in) {
  // RISC-V semantics (as the IR interpreter): x/0 = -1 (all ones unsigned),
  // x%0 = x, MIN/-1 = MIN, MIN%-1 = 0. LLVM would call these undefined.
  bool is_signed = k == OpKind::DivSI || k == OpKind::RemSI;
  bool is_div = k == OpKind::DivSI || k == OpKind::DivUI;
  std::string zero = emit("icmp eq " + it + " " + in[1] + ", 0");
  std::string bad = zero;
  if (is_signed) {
    int bits = ttir::elem_bits(ie);
    std::string minv =
        bits >= 64 ? std::to_string(INT64_MIN) : std::to_string(-(int64_t(1) << (bits - 1)));
    std::string ovf = emit("and i1 " + emit("icmp eq " + it + " " + in[0] + ", " + minv) + ", " +
                           emit("icmp eq " + it + " " + in[1] + ", -1"));
    bad = emit("or i1 " + zero + ", " + ovf);
  }
  std::string safe = emit("select i1 " + bad + ", " + it + " 1, " + it + " " + in[1]);
  const char *inst = is_div ? (is_signed ? "sdiv" : "udiv") : (is_signed ? "srem" : "urem");
  std::string q = emit(std::string(inst) + " " + it + " " + in[0] + ", " + safe);
  return emit("select i1 " + zero + ", " + it + " " + (is_div ? "-1" : in[0]) + ", " + it + " " +
              q);
}

std::string Emitter::sfu(OpKind k, const std::string &it, const std::string &x) {
  std::string f = it == "float" ? x : emit("fptrunc double " + x + " to float");
  std::string r = emit("call float asm \"" + sfu_scalar_asm(k) +
                       "\", \"=f,f,~{v8},~{vl},~{vtype}\"(float " + f + ")");
  return it == "float" ? r : emit("fpext float " + r + " to double");
}

}  // namespace opforge::compiler::llir
