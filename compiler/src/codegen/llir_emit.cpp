//===- llir_emit.cpp - the `llir` stage: a planned ttir kernel as LLVM IR text ===//
//
// Scalars become SSA values; every block consumer that must produce memory
// effects or a buffer (stores, materialized values, reductions, dots, loop
// yields) becomes a loop nest over its shape whose body evaluates the fused
// block ops element by element (loads inside it are predicated by the mask,
// `other` otherwise). LLVM's loop vectorizer then turns the innermost loops
// into vector-length-agnostic RVV loops (vsetvli). Loop counters and
// loop-carried scalars live in allocas that SROA promotes. fp16/bf16 values
// are carried as fp32 and rounded after every operation, as the IR
// interpreter does. Program ids come from the Xmtia CSRs; the kernel ends
// with xmtia.done; SFU functions use the Xmtia vector special-function
// instructions. Every Xmtia encoding is taken from the ISA tables.
//
//===----------------------------------------------------------------------===//
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <sstream>

#include "opforge/compiler/codegen.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"
#include "opforge/support/dtype.h"
#include "xmtia_asm.h"

namespace opforge::compiler {
namespace {

using ttir::Elem;
using ttir::Operation;
using ttir::OpKind;
using ttir::Value;
using Idx = std::vector<std::string>;

std::string llty(Elem e) {
  switch (e) {
    case Elem::I1:
      return "i1";
    case Elem::I8:
      return "i8";
    case Elem::I16:
      return "i16";
    case Elem::I32:
      return "i32";
    case Elem::I64:
      return "i64";
    case Elem::F16:
    case Elem::BF16:
    case Elem::F32:
      return "float";
    case Elem::F64:
      return "double";
    case Elem::Ptr:
      return "ptr";
    default:
      throw Error("codegen: value without an element type");
  }
}
// Type of one element in a block buffer.
std::string bufty(Elem e) { return e == Elem::I1 ? "i8" : llty(e); }
// Type of one element in global memory (what a pointer points to).
std::string memty(Elem e) {
  switch (e) {
    case Elem::I1:
      return "i8";
    case Elem::F16:
    case Elem::BF16:
      return "i16";
    default:
      return llty(e);
  }
}

std::string float_lit(double v, Elem e) {
  char buf[32];
  double d = e == Elem::F64 ? v : static_cast<double>(static_cast<float>(v));
  std::snprintf(buf, sizeof buf, "0x%016llX",
                static_cast<unsigned long long>(std::bit_cast<uint64_t>(d)));
  return buf;
}

// fp16 <-> fp32 in integer code (the target has no Zfh). Values handed to
// __opforge_f32_to_f16 are already fp16-exact (rounded by __opforge_round_f16).
constexpr const char *kHalfHelpers = R"(
define internal float @__opforge_f16_to_f32(i16 %h) alwaysinline {
  %w = zext i16 %h to i32
  %sign = shl i32 %w, 16
  %sign1 = and i32 %sign, -2147483648
  %mag = and i32 %w, 32767
  %u = shl i32 %mag, 13
  %f = bitcast i32 %u to float
  %scaled = fmul float %f, 0x46F0000000000000
  %sb = bitcast float %scaled to i32
  %isinf = icmp uge i32 %mag, 31744
  %infbits = or i32 %u, 2139095040
  %m = select i1 %isinf, i32 %infbits, i32 %sb
  %r = or i32 %m, %sign1
  %rf = bitcast i32 %r to float
  ret float %rf
}
define internal float @__opforge_round_f16(float %x) alwaysinline {
  %b = bitcast float %x to i32
  %sign = and i32 %b, -2147483648
  %a = and i32 %b, 2147483647
  %isnan = icmp ugt i32 %a, 2139095040
  %big = icmp uge i32 %a, 1199566848
  %small = icmp ult i32 %a, 947912704
  %lsb0 = lshr i32 %a, 13
  %lsb = and i32 %lsb0, 1
  %n0 = add i32 %a, 4095
  %n1 = add i32 %n0, %lsb
  %n = and i32 %n1, -8192
  %af = bitcast i32 %a to float
  %t = fadd float %af, 5.000000e-01
  %sub = fsub float %t, 5.000000e-01
  %subb = bitcast float %sub to i32
  %r0 = select i1 %small, i32 %subb, i32 %n
  %r1 = select i1 %big, i32 2139095040, i32 %r0
  %qnan = or i32 %a, 4194304
  %r2 = select i1 %isnan, i32 %qnan, i32 %r1
  %r = or i32 %r2, %sign
  %rf = bitcast i32 %r to float
  ret float %rf
}
define internal i16 @__opforge_f32_to_f16(float %x) alwaysinline {
  %b = bitcast float %x to i32
  %sign0 = lshr i32 %b, 16
  %sign = and i32 %sign0, 32768
  %a = and i32 %b, 2147483647
  %isspecial = icmp uge i32 %a, 2139095040
  %man = lshr i32 %a, 13
  %man10 = and i32 %man, 1023
  %nanbit = select i1 %isspecial, i32 %man10, i32 0
  %nanq = icmp ugt i32 %a, 2139095040
  %nanq1 = select i1 %nanq, i32 512, i32 0
  %spec = or i32 31744, %nanbit
  %spec1 = or i32 %spec, %nanq1
  %norm = sub i32 %man, 114688
  %issub = icmp ult i32 %a, 947912704
  %af = bitcast i32 %a to float
  %sc = fmul float %af, 0x4170000000000000
  %subv = fptoui float %sc to i32
  %r0 = select i1 %issub, i32 %subv, i32 %norm
  %r1 = select i1 %isspecial, i32 %spec1, i32 %r0
  %r = or i32 %r1, %sign
  %h = trunc i32 %r to i16
  ret i16 %h
}
)";

class Emitter {
 public:
  explicit Emitter(const LoweredKernelPlan &plan) : plan_(plan) {}

  std::string run() {
    const ttir::Function &f = *plan_.function;
    for (size_t i = 0; i < f.body->args.size(); ++i)
      load_arg(*f.body->args[i], plan_.args[i].offset_bytes);
    emit_block(*f.body);
    line("unreachable");  // the block after tt.return's xmtia.done
    std::ostringstream os;
    os << "; kernel " << f.name << "\n";
    os << "define void @_start(ptr %args) nounwind \"no-builtins\" {\nentry:\n"
       << allocas_.str() << "  br label %body\nbody:\n"
       << code_.str() << "}\n\n";
    for (auto &d : decls_) os << d << "\n";
    os << kHalfHelpers;
    return os.str();
  }

 private:
  // ---- text helpers -------------------------------------------------------
  std::string fresh() { return "%t" + std::to_string(tmp_++); }
  std::string label() { return "L" + std::to_string(label_++); }
  std::string emit(const std::string &rhs) {
    std::string t = fresh();
    code_ << "  " << t << " = " << rhs << "\n";
    return t;
  }
  void line(const std::string &s) { code_ << "  " << s << "\n"; }
  void start(const std::string &l) { code_ << l << ":\n"; }
  std::string alloca_of(const std::string &ty, int64_t count = 1) {
    std::string a = "%a" + std::to_string(alloca_count_++);
    allocas_ << "  " << a << " = alloca " << ty << ", i64 " << std::max<int64_t>(count, 1)
             << ", align 16\n";
    return a;
  }
  std::string intrinsic(const std::string &name, const std::string &ret,
                        const std::string &args_types) {
    decls_.insert("declare " + ret + " @" + name + "(" + args_types + ")");
    return name;
  }
  [[noreturn]] void fail(const Operation &op, const std::string &why) {
    throw Error("codegen: " + op.describe() + ": " + why);
  }

  // ---- arguments, scalars --------------------------------------------------
  void load_arg(const Value &a, uint32_t offset) {
    std::string p = emit("getelementptr i8, ptr %args, i64 " + std::to_string(offset));
    Elem e = a.type.elem;
    if (a.type.is_block()) throw Error("codegen: block-typed kernel argument " + a.name);
    if (e == Elem::Ptr)
      scalars_[&a] = emit("load ptr, ptr " + p);
    else if (e == Elem::F32 || e == Elem::F64)
      scalars_[&a] = emit("load " + llty(e) + ", ptr " + p);
    else if (e == Elem::F16 || e == Elem::BF16)
      scalars_[&a] = round(e, emit("load float, ptr " + p));
    else if (e == Elem::I64)
      scalars_[&a] = emit("load i64, ptr " + p);
    else
      scalars_[&a] = emit("trunc i64 " + emit("load i64, ptr " + p) + " to " + llty(e));
  }

  std::string scalar(const Value *v) {
    auto it = scalars_.find(v);
    if (it == scalars_.end())
      throw Error("codegen: internal: scalar value %" + std::to_string(v->id) +
                  " used before it was emitted");
    return it->second;
  }

  std::string constant(const Operation &op) {
    Elem e = op.result()->type.elem;
    const ttir::Attr &a = op.attrs.at("value");
    if (ttir::elem_is_float(e)) {
      double v = std::holds_alternative<double>(a)    ? std::get<double>(a)
                 : std::holds_alternative<int64_t>(a) ? static_cast<double>(std::get<int64_t>(a))
                 : std::get<bool>(a)                  ? 1.0
                                                      : 0.0;
      if (e == Elem::F16) v = fp16_to_fp32(fp32_to_fp16(static_cast<float>(v)));
      if (e == Elem::BF16) v = bf16_to_fp32(fp32_to_bf16(static_cast<float>(v)));
      return float_lit(v, e);
    }
    int64_t v = std::holds_alternative<int64_t>(a) ? std::get<int64_t>(a)
                : std::holds_alternative<bool>(a)  ? (std::get<bool>(a) ? 1 : 0)
                                                   : static_cast<int64_t>(std::get<double>(a));
    if (e == Elem::I1) return (v & 1) ? "true" : "false";
    return std::to_string(v);
  }

  // ---- fp16/bf16 rounding and memory conversions ----------------------------
  std::string round(Elem e, const std::string &x) {
    if (e == Elem::BF16) {
      std::string b = emit("bitcast float " + x + " to i32");
      std::string lsb = emit("and i32 " + emit("lshr i32 " + b + ", 16") + ", 1");
      std::string r =
          emit("and i32 " + emit("add i32 " + emit("add i32 " + b + ", 32767") + ", " + lsb) +
               ", -65536");
      std::string nan = emit("fcmp uno float " + x + ", " + x);
      std::string q = emit("and i32 " + emit("or i32 " + b + ", 4194304") + ", -65536");
      return emit("bitcast i32 " + emit("select i1 " + nan + ", i32 " + q + ", i32 " + r) +
                  " to float");
    }
    if (e == Elem::F16) return emit("call float @__opforge_round_f16(float " + x + ")");
    return x;
  }
  std::string load_mem(Elem e, const std::string &ptr) {
    if (e == Elem::BF16) {
      std::string w = emit("zext i16 " + emit("load i16, ptr " + ptr) + " to i32");
      return emit("bitcast i32 " + emit("shl i32 " + w + ", 16") + " to float");
    }
    if (e == Elem::F16)
      return emit("call float @__opforge_f16_to_f32(i16 " + emit("load i16, ptr " + ptr) + ")");
    if (e == Elem::I1) return emit("icmp ne i8 " + emit("load i8, ptr " + ptr) + ", 0");
    return emit("load " + llty(e) + ", ptr " + ptr);
  }
  void store_mem(Elem e, const std::string &ptr, const std::string &x) {
    if (e == Elem::BF16) {
      std::string b = emit("lshr i32 " + emit("bitcast float " + x + " to i32") + ", 16");
      line("store i16 " + emit("trunc i32 " + b + " to i16") + ", ptr " + ptr);
      return;
    }
    if (e == Elem::F16) {
      line("store i16 " + emit("call i16 @__opforge_f32_to_f16(float " + x + ")") + ", ptr " + ptr);
      return;
    }
    if (e == Elem::I1) {
      line("store i8 " + emit("zext i1 " + x + " to i8") + ", ptr " + ptr);
      return;
    }
    line("store " + llty(e) + " " + x + ", ptr " + ptr);
  }

  // ---- buffers ---------------------------------------------------------------
  std::string linear(const Idx &idx, const std::vector<int64_t> &shape) {
    if (idx.empty()) return "0";
    std::string lin = idx[0];
    for (size_t d = 1; d < idx.size(); ++d)
      lin = emit("add i64 " + emit("mul i64 " + lin + ", " + std::to_string(shape[d])) + ", " +
                 idx[d]);
    return lin;
  }
  std::string buffer_for(const Value *v) {
    auto it = bufs_.find(v);
    if (it != bufs_.end()) return it->second;
    return bufs_[v] = alloca_of(bufty(v->type.elem), v->type.numel());
  }
  std::string buf_ptr(const Value *v, const std::string &buf, const Idx &idx) {
    return emit("getelementptr " + bufty(v->type.elem) + ", ptr " + buf + ", i64 " +
                linear(idx, v->type.shape));
  }
  std::string buf_load(const Value *v, const std::string &buf, const Idx &idx) {
    std::string p = buf_ptr(v, buf, idx);
    if (v->type.elem == Elem::I1) return emit("icmp ne i8 " + emit("load i8, ptr " + p) + ", 0");
    return emit("load " + llty(v->type.elem) + ", ptr " + p);
  }
  void buf_store(const Value *v, const std::string &buf, const Idx &idx, const std::string &x) {
    std::string p = buf_ptr(v, buf, idx);
    if (v->type.elem == Elem::I1)
      line("store i8 " + emit("zext i1 " + x + " to i8") + ", ptr " + p);
    else
      line("store " + llty(v->type.elem) + " " + x + ", ptr " + p);
  }

  // ---- loops -------------------------------------------------------------------
  void loop(int64_t lo, int64_t hi, const std::function<void(const std::string &)> &body) {
    std::string slot = alloca_of("i64");
    line("store i64 " + std::to_string(lo) + ", ptr " + slot);
    std::string head = label(), bodyl = label(), exit = label();
    line("br label %" + head);
    start(head);
    std::string i = emit("load i64, ptr " + slot);
    line("br i1 " + emit("icmp slt i64 " + i + ", " + std::to_string(hi)) + ", label %" + bodyl +
         ", label %" + exit);
    start(bodyl);
    auto saved = memo_;
    body(i);
    memo_ = saved;
    line("store i64 " + emit("add nsw i64 " + i + ", 1") + ", ptr " + slot);
    line("br label %" + head);
    start(exit);
  }
  void nest(const std::vector<int64_t> &shape, size_t d, Idx &idx,
            const std::function<void(const Idx &)> &body) {
    if (d == shape.size()) {
      body(idx);
      return;
    }
    loop(0, shape[d], [&](const std::string &i) {
      idx.push_back(i);
      nest(shape, d + 1, idx, body);
      idx.pop_back();
    });
  }
  void loop_nest(const std::vector<int64_t> &shape, const std::function<void(const Idx &)> &body) {
    Idx idx;
    nest(shape, 0, idx, body);
  }
  // Runs `body` only when `cond` holds; code emitted inside leaves no memo behind.
  void when(const std::string &cond, const std::function<void()> &body) {
    std::string yes = label(), join = label();
    line("br i1 " + cond + ", label %" + yes + ", label %" + join);
    start(yes);
    auto saved = memo_;
    body();
    memo_ = saved;
    line("br label %" + join);
    start(join);
  }

  // ---- element evaluation ---------------------------------------------------------
  std::string val(const Value *v, const Idx &idx) {
    return v->type.is_block() ? elem(v, idx) : scalar(v);
  }

  std::string elem(const Value *v, const Idx &idx) {
    std::string key;
    for (auto &i : idx) key += i + ",";
    auto mk = std::make_pair(v, key);
    if (auto it = memo_.find(mk); it != memo_.end()) return it->second;
    std::string r;
    if (auto b = bufs_.find(v); b != bufs_.end())
      r = buf_load(v, b->second, idx);
    else if (!v->def)
      throw Error("codegen: internal: block argument without a buffer");
    else
      r = elem_op(*v->def, idx);
    memo_[mk] = r;
    return r;
  }

  std::string elem_op(const Operation &op, const Idx &idx) {
    const Value *v = op.result();
    switch (op.kind) {
      case OpKind::Constant:
        return constant(op);
      case OpKind::MakeRange:
        return emit("trunc i64 " +
                    emit("add i64 " + idx[0] + ", " + std::to_string(op.int_attr("start"))) +
                    " to i32");
      case OpKind::Splat:
        return scalar(op.operands[0]);
      case OpKind::Broadcast: {
        const Value *src = op.operands[0];
        if (!src->type.is_block()) return scalar(src);
        Idx s = idx;
        for (size_t d = 0; d < s.size(); ++d)
          if (src->type.shape[d] == 1 && v->type.shape[d] != 1) s[d] = "0";
        return elem(src, s);
      }
      case OpKind::ExpandDims: {
        Idx s = idx;
        s.erase(s.begin() + op.int_attr("axis"));
        return val(op.operands[0], s);
      }
      case OpKind::Load:
        return load(op, idx);
      default:
        break;
    }
    if (op.results.size() != 1 || !op.regions.empty())
      fail(op, "cannot be fused into an element loop");
    std::vector<std::string> in;
    for (auto *o : op.operands) in.push_back(val(o, idx));
    return apply(op, in);
  }

  std::string load(const Operation &op, const Idx &idx) {
    Elem e = op.result()->type.elem;
    std::string ptr = val(op.operands[0], idx);
    if (op.operands.size() < 2) return load_mem(e, ptr);
    std::string mask = val(op.operands[1], idx);
    std::string slot = alloca_of(llty(e));
    std::string other = op.operands.size() > 2   ? val(op.operands[2], idx)
                        : ttir::elem_is_float(e) ? float_lit(0, e)
                        : e == Elem::I1          ? "false"
                        : e == Elem::Ptr         ? "null"
                                                 : "0";
    line("store " + llty(e) + " " + other + ", ptr " + slot);
    when(mask, [&] { line("store " + llty(e) + " " + load_mem(e, ptr) + ", ptr " + slot); });
    return emit("load " + llty(e) + ", ptr " + slot);
  }

  // ---- element-wise operations (scalars and block elements alike) --------------------
  std::string apply(const Operation &op, const std::vector<std::string> &in) {
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
        return emit("select i1 " + nan + ", " + it + " " + float_lit(NAN, ie) + ", " + it + " " +
                    m);
      }
      case OpKind::Fma:
        return round(re, call("llvm.fma." + fsuf, 3));
      case OpKind::Sqrt:
        return round(re, call("llvm.sqrt." + fsuf, 1));
      case OpKind::AbsF:
        return call("llvm.fabs." + fsuf, 1);
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
        std::string name =
            std::string(u ? "llvm.fptoui.sat." : "llvm.fptosi.sat.") + rt + "." + fsuf;
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

  std::string divide(OpKind k, const std::string &it, Elem ie, const std::vector<std::string> &in) {
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

  std::string sfu(OpKind k, const std::string &it, const std::string &x) {
    std::string f = it == "float" ? x : emit("fptrunc double " + x + " to float");
    std::string r = emit("call float asm \"" + sfu_scalar_asm(k) +
                         "\", \"=f,f,~{v8},~{vl},~{vtype}\"(float " + f + ")");
    return it == "float" ? r : emit("fpext float " + r + " to double");
  }

  // ---- ops at their place in program order ---------------------------------------------
  void emit_block(const ttir::Block &b) {
    for (auto &opp : b.ops) emit_op(*opp);
  }

  void emit_op(const Operation &op) {
    switch (op.kind) {
      case OpKind::ProgramId:
      case OpKind::NumPrograms: {
        std::string csr = std::string(op.kind == OpKind::ProgramId ? "mtia.pid_" : "mtia.nprog_") +
                          "xyz"[op.int_attr("axis")];
        std::string r = emit("call i64 asm \"" + csr_read_asm(csr) + "\", \"=r\"()");
        scalars_[op.result()] = emit("trunc i64 " + r + " to i32");
        return;
      }
      case OpKind::Store:
        return store(op);
      case OpKind::Return: {
        line("call void asm sideeffect \"" + done_asm() + "\", \"~{memory}\"()");
        line("unreachable");
        start(label());
        return;
      }
      case OpKind::Barrier:
        return;
      case OpKind::For:
        return for_loop(op);
      case OpKind::If:
        return if_op(op);
      case OpKind::Reduce:
        return reduce(op);
      case OpKind::Dot:
        return dot(op);
      default:
        break;
    }
    const Value *v = op.results.empty() ? nullptr : op.result();
    if (!v) fail(op, "not supported by the code generator yet");
    if (!v->type.is_block()) {
      if (op.kind == OpKind::Constant)
        scalars_[v] = constant(op);
      else if (op.kind == OpKind::Load)
        scalars_[v] = load(op, {});
      else {
        std::vector<std::string> in;
        for (auto *o : op.operands) in.push_back(scalar(o));
        scalars_[v] = apply(op, in);
      }
      return;
    }
    if (!plan_.buffers.count(v)) return;  // fused: evaluated where consumed
    std::string buf = alloca_of(bufty(v->type.elem), v->type.numel());
    if (op.kind == OpKind::Trans) {
      const auto &order = op.ints_attr("order");
      loop_nest(v->type.shape, [&](const Idx &idx) {
        Idx s(idx.size());
        for (size_t d = 0; d < idx.size(); ++d) s[order[d]] = idx[d];
        buf_store(v, buf, idx, elem(op.operands[0], s));
      });
    } else if (op.kind == OpKind::Reshape) {
      const auto &in_shape = op.operands[0]->type.shape;
      loop_nest(v->type.shape, [&](const Idx &idx) {
        std::string lin = linear(idx, v->type.shape);
        Idx s(in_shape.size());
        for (size_t d = in_shape.size(); d-- > 0;) {
          s[d] = emit("urem i64 " + lin + ", " + std::to_string(in_shape[d]));
          lin = emit("udiv i64 " + lin + ", " + std::to_string(in_shape[d]));
        }
        buf_store(v, buf, idx, elem(op.operands[0], s));
      });
    } else {
      loop_nest(v->type.shape, [&](const Idx &idx) { buf_store(v, buf, idx, elem_op(op, idx)); });
    }
    bufs_[v] = buf;
  }

  void store(const Operation &op) {
    const Value *ptrv = op.operands[0], *valv = op.operands[1];
    const Value *maskv = op.operands.size() > 2 ? op.operands[2] : nullptr;
    Elem e = valv->type.elem;
    auto body = [&](const Idx &idx) {
      auto put = [&] { store_mem(e, val(ptrv, idx), val(valv, idx)); };
      if (maskv)
        when(val(maskv, idx), put);
      else
        put();
    };
    if (ptrv->type.is_block())
      loop_nest(ptrv->type.shape, body);
    else
      body({});
  }

  // Copies block `src` (evaluated element-wise) into buffer `dst` of value `dv`.
  void fill(const Value *dv, const std::string &dst, const Value *src) {
    loop_nest(dv->type.shape, [&](const Idx &idx) { buf_store(dv, dst, idx, elem(src, idx)); });
  }

  void for_loop(const Operation &op) {
    const ttir::Block &body = *op.regions[0];
    Elem ive = op.operands[0]->type.elem;
    std::string ity = llty(ive);
    std::vector<std::string> slots;  // scalar carried slots, or the block buffer
    for (size_t j = 3; j < op.operands.size(); ++j) {
      const Value *init = op.operands[j], *arg = body.arg(j - 2);
      if (arg->type.is_block()) {
        std::string buf = buffer_for(arg);
        fill(arg, buf, init);
        slots.push_back(buf);
      } else {
        std::string s = alloca_of(llty(arg->type.elem));
        line("store " + llty(arg->type.elem) + " " + scalar(init) + ", ptr " + s);
        slots.push_back(s);
      }
    }
    std::string ivs = alloca_of(ity);
    line("store " + ity + " " + scalar(op.operands[0]) + ", ptr " + ivs);
    std::string head = label(), bl = label(), exit = label();
    line("br label %" + head);
    start(head);
    std::string iv = emit("load " + ity + ", ptr " + ivs);
    line("br i1 " + emit("icmp slt " + ity + " " + iv + ", " + scalar(op.operands[1])) +
         ", label %" + bl + ", label %" + exit);
    start(bl);
    auto saved = memo_;
    scalars_[body.arg(0)] = iv;
    for (size_t j = 1; j < body.args.size(); ++j)
      if (!body.arg(j)->type.is_block())
        scalars_[body.arg(j)] =
            emit("load " + llty(body.arg(j)->type.elem) + ", ptr " + slots[j - 1]);
    for (auto &o : body.ops) {
      if (o->kind == OpKind::Yield)
        yield_into(*o, body, slots, true);
      else
        emit_op(*o);
    }
    memo_ = saved;
    // Stop before the induction variable would wrap past the bound.
    std::string next = emit("add " + ity + " " + iv + ", " + scalar(op.operands[2]));
    std::string last =
        emit("icmp sgt " + ity + " " + iv + ", " +
             emit("sub " + ity + " " + scalar(op.operands[1]) + ", " + scalar(op.operands[2])));
    line("store " + ity + " " + next + ", ptr " + ivs);
    line("br i1 " + last + ", label %" + exit + ", label %" + head);
    start(exit);
    for (size_t j = 0; j < op.results.size(); ++j) {
      const Value *r = op.result(j);
      if (r->type.is_block())
        bufs_[r] = slots[j];
      else
        scalars_[r] = emit("load " + llty(r->type.elem) + ", ptr " + slots[j]);
    }
  }

  // Writes a yield's operands into the slots / buffers of the carried values
  // (via temporaries when the loop's own buffers feed the new values).
  void yield_into(const Operation &y, const ttir::Block &, const std::vector<std::string> &slots,
                  bool via_temp) {
    std::vector<std::string> temps(y.operands.size());
    for (size_t j = 0; j < y.operands.size(); ++j) {
      const Value *v = y.operands[j];
      if (v->type.is_block() && via_temp) {
        temps[j] = alloca_of(bufty(v->type.elem), v->type.numel());
        fill(v, temps[j], v);
      }
    }
    for (size_t j = 0; j < y.operands.size(); ++j) {
      const Value *v = y.operands[j];
      if (v->type.is_block()) {
        if (via_temp) {
          // An element loop, not llvm.memcpy: there is no C library to call.
          std::string ty = bufty(v->type.elem);
          loop(0, v->type.numel(), [&](const std::string &i) {
            std::string x = emit("load " + ty + ", ptr " +
                                 emit("getelementptr " + ty + ", ptr " + temps[j] + ", i64 " + i));
            line("store " + ty + " " + x + ", ptr " +
                 emit("getelementptr " + ty + ", ptr " + slots[j] + ", i64 " + i));
          });
        } else {
          fill(v, slots[j], v);
        }
      } else {
        line("store " + llty(v->type.elem) + " " + scalar(v) + ", ptr " + slots[j]);
      }
    }
  }

  void if_op(const Operation &op) {
    std::vector<std::string> slots;
    for (auto &r : op.results) {
      if (r->type.is_block())
        slots.push_back(buffer_for(r.get()));
      else
        slots.push_back(alloca_of(llty(r->type.elem)));
    }
    std::string thenl = label(), elsel = label(), join = label();
    line("br i1 " + scalar(op.operands[0]) + ", label %" + thenl + ", label %" + elsel);
    for (size_t k = 0; k < 2; ++k) {
      start(k == 0 ? thenl : elsel);
      if (k < op.regions.size()) {
        auto saved = memo_;
        for (auto &o : op.regions[k]->ops) {
          if (o->kind == OpKind::Yield)
            yield_into(*o, *op.regions[k], slots, false);
          else
            emit_op(*o);
        }
        memo_ = saved;
      }
      line("br label %" + join);
    }
    start(join);
    for (size_t j = 0; j < op.results.size(); ++j) {
      const Value *r = op.result(j);
      if (!r->type.is_block())
        scalars_[r] = emit("load " + llty(r->type.elem) + ", ptr " + slots[j]);
    }
  }

  // Applies a combine region to scalar values; returns the values it returns.
  std::vector<std::string> combine(const ttir::Block &region,
                                   const std::vector<std::string> &args) {
    for (size_t k = 0; k < args.size(); ++k) scalars_[region.arg(k)] = args[k];
    for (auto &o : region.ops) {
      if (o->kind == OpKind::ReduceReturn) {
        std::vector<std::string> out;
        for (auto *v : o->operands) out.push_back(scalar(v));
        return out;
      }
      emit_op(*o);
    }
    throw Error("codegen: combine region without tt.reduce.return");
  }

  void reduce(const Operation &op) {
    size_t n = op.operands.size();
    int64_t axis = op.int_attr("axis");
    const auto &in_shape = op.operands[0]->type.shape;
    const ttir::Block &region = *op.regions[0];
    std::vector<std::string> accs(n), bufs(n);
    for (size_t j = 0; j < n; ++j) {
      accs[j] = alloca_of(llty(op.operands[j]->type.elem));
      if (op.result(j)->type.is_block()) bufs[j] = buffer_for(op.result(j));
    }
    const auto &out_shape = op.result(0)->type.shape;
    auto one = [&](const Idx &oidx) {
      auto at = [&](const std::string &k) {
        Idx s = oidx;
        s.insert(s.begin() + axis, k);
        return s;
      };
      for (size_t j = 0; j < n; ++j)
        line("store " + llty(op.operands[j]->type.elem) + " " + elem(op.operands[j], at("0")) +
             ", ptr " + accs[j]);
      loop(1, in_shape[axis], [&](const std::string &k) {
        std::vector<std::string> args;
        for (size_t j = 0; j < n; ++j)
          args.push_back(emit("load " + llty(op.operands[j]->type.elem) + ", ptr " + accs[j]));
        for (size_t j = 0; j < n; ++j) args.push_back(elem(op.operands[j], at(k)));
        auto r = combine(region, args);
        for (size_t j = 0; j < n; ++j)
          line("store " + llty(op.operands[j]->type.elem) + " " + r[j] + ", ptr " + accs[j]);
      });
      for (size_t j = 0; j < n; ++j) {
        std::string a = emit("load " + llty(op.operands[j]->type.elem) + ", ptr " + accs[j]);
        if (op.result(j)->type.is_block())
          buf_store(op.result(j), bufs[j], oidx, a);
        else
          scalars_[op.result(j)] = a;
      }
    };
    if (out_shape.empty())
      one({});
    else
      loop_nest(out_shape, one);
  }

  void dot(const Operation &op) {
    const Value *a = op.operands[0], *b = op.operands[1], *c = op.operands[2], *r = op.result();
    std::string buf = buffer_for(r);
    int64_t k_len = a->type.shape[1];
    Elem re = r->type.elem;
    std::string rt = llty(re);
    std::string acc = alloca_of(rt);
    loop_nest(r->type.shape, [&](const Idx &idx) {
      line("store " + rt + " " + elem(c, idx) + ", ptr " + acc);
      loop(0, k_len, [&](const std::string &k) {
        std::string x = elem(a, {idx[0], k}), y = elem(b, {k, idx[1]});
        std::string s = emit("load " + rt + ", ptr " + acc);
        std::string t;
        if (ttir::elem_is_float(re)) {
          if (a->type.elem == Elem::F64 && re != Elem::F64)
            fail(op, "fp64 operands with a narrower accumulator");
          t = emit("call " + rt + " @" + intrinsic("llvm.fma.f32", "float", "float, float, float") +
                   "(float " + x + ", float " + y + ", float " + s + ")");
        } else {
          std::string xe = emit("sext " + llty(a->type.elem) + " " + x + " to " + rt);
          std::string ye = emit("sext " + llty(b->type.elem) + " " + y + " to " + rt);
          t = emit("add " + rt + " " + s + ", " + emit("mul " + rt + " " + xe + ", " + ye));
        }
        line("store " + rt + " " + t + ", ptr " + acc);
      });
      buf_store(r, buf, idx, emit("load " + rt + ", ptr " + acc));
    });
  }

  const LoweredKernelPlan &plan_;
  std::ostringstream allocas_, code_;
  std::set<std::string> decls_;
  int tmp_ = 0, label_ = 0, alloca_count_ = 0;
  std::map<const Value *, std::string> scalars_;
  std::map<const Value *, std::string> bufs_;
  std::map<std::pair<const Value *, std::string>, std::string> memo_;
};

}  // namespace

std::string emit_llvm_ir(const LoweredKernelPlan &plan) { return Emitter(plan).run(); }

}  // namespace opforge::compiler
