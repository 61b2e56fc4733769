//===- sem_rv_fd.cpp - RV64F and RV64D semantics ---------------------------===//
//
// F and D instructions that differ only in the format share one template
// body over a format descriptor (Single / Double); INSN_FD registers its
// two instantiations under the mnemonics <name>.s and <name>.d. Loads,
// stores, moves and the single<->double conversions stay one body each.
//
//===----------------------------------------------------------------------===//
#include "fp_helpers.h"
#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_fd)

namespace {
inline void require_fp(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusFs)) Hart::raise(cause::kIllegalInsn, i.bits);
}

// Single values live NaN-boxed in the 64-bit f registers; an unboxed value
// reads as the canonical NaN.
struct Single {
  using T = float;
  using Bits = uint32_t;
  static Bits bits(uint64_t reg) {
    return (reg >> 32) == 0xffffffffu ? uint32_t(reg) : fp::kCanonNan32;
  }
  static uint64_t box(Bits b) { return 0xffffffff00000000ull | b; }
};
struct Double {
  using T = double;
  using Bits = uint64_t;
  static Bits bits(uint64_t reg) { return reg; }
  static uint64_t box(Bits b) { return b; }
};

// Operand access for one instruction of format F (checks that FP is on).
template <class F>
struct Fp {
  using T = typename F::T;
  using Bits = typename F::Bits;
  static constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  Hart &h;
  Insn i;
  Fp(Hart &hart, Insn insn) : h(hart), i(insn) { require_fp(h, i); }
  Bits bits1() const { return F::bits(h.f[i.rs1()]); }
  Bits bits2() const { return F::bits(h.f[i.rs2()]); }
  T a() const { return std::bit_cast<T>(bits1()); }
  T b() const { return std::bit_cast<T>(bits2()); }
  T c() const { return std::bit_cast<T>(F::bits(h.f[i.rs3()])); }
  unsigned rm() const { return fp::resolve_rm(h, i.rm(), i.bits); }
  void set_bits(Bits v) {
    h.f[i.rd()] = F::box(v);
    h.mstatus |= csr::kMstatusFs;
  }
  void set(T v) { set_bits(std::bit_cast<Bits>(v)); }
  void set_x(uint64_t v) {
    h.x[i.rd()] = v;
    h.x[0] = 0;
  }
};

// ---- arithmetic ----
template <class F>
uint64_t fadd(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::add(h, o.rm(), o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fsub(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::sub(h, o.rm(), o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fmul(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::mul(h, o.rm(), o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fdiv(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::div(h, o.rm(), o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fsqrt(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::sqrt(h, o.rm(), o.a()));
  return pc + 4;
}
// Fused multiply-add family: (+-a) * b + (+-c), one rounding.
template <class F, bool kNegProduct, bool kNegAddend>
uint64_t fused(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  const typename F::T a = kNegProduct ? -o.a() : o.a();
  const typename F::T c = kNegAddend ? -o.c() : o.c();
  o.set(fp::fma(h, o.rm(), a, o.b(), c));
  return pc + 4;
}
template <class F>
uint64_t fmadd(Hart &h, Insn i, uint64_t pc) {
  return fused<F, false, false>(h, i, pc);
}
template <class F>
uint64_t fmsub(Hart &h, Insn i, uint64_t pc) {
  return fused<F, false, true>(h, i, pc);
}
template <class F>
uint64_t fnmsub(Hart &h, Insn i, uint64_t pc) {
  return fused<F, true, false>(h, i, pc);
}
template <class F>
uint64_t fnmadd(Hart &h, Insn i, uint64_t pc) {
  return fused<F, true, true>(h, i, pc);
}

// ---- sign injection (bit operations, no canonicalization) ----
template <class F>
uint64_t fsgnj(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_bits((o.bits1() & ~o.kSign) | (o.bits2() & o.kSign));
  return pc + 4;
}
template <class F>
uint64_t fsgnjn(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_bits((o.bits1() & ~o.kSign) | (~o.bits2() & o.kSign));
  return pc + 4;
}
template <class F>
uint64_t fsgnjx(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_bits(o.bits1() ^ (o.bits2() & o.kSign));
  return pc + 4;
}

// ---- min/max, compares, classify ----
template <class F>
uint64_t fmin(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::min(h, o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fmax(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::max(h, o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t feq(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_x(fp::feq(h, o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t flt(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_x(fp::flt(h, o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fle(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_x(fp::fle(h, o.a(), o.b()));
  return pc + 4;
}
template <class F>
uint64_t fclass(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set_x(fp::fclass(o.a()));
  return pc + 4;
}

// ---- conversions with integers (32-bit results are sign-extended) ----
template <class F, class Int>
uint64_t to_int(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  const Int v = fp::to_int<Int>(h, o.a(), o.rm());
  o.set_x(sizeof(Int) == 4 ? sext32(uint64_t(v)) : uint64_t(v));
  return pc + 4;
}
template <class F>
uint64_t fcvt_w(Hart &h, Insn i, uint64_t pc) {
  return to_int<F, int32_t>(h, i, pc);
}
template <class F>
uint64_t fcvt_wu(Hart &h, Insn i, uint64_t pc) {
  return to_int<F, uint32_t>(h, i, pc);
}
template <class F>
uint64_t fcvt_l(Hart &h, Insn i, uint64_t pc) {
  return to_int<F, int64_t>(h, i, pc);
}
template <class F>
uint64_t fcvt_lu(Hart &h, Insn i, uint64_t pc) {
  return to_int<F, uint64_t>(h, i, pc);
}
template <class F, class Int>
uint64_t from_int(Hart &h, Insn i, uint64_t pc) {
  Fp<F> o(h, i);
  o.set(fp::from_int<typename F::T>(h, Int(h.x[i.rs1()]), o.rm()));
  return pc + 4;
}
}  // namespace

// Registers template<F> body `ident` as "<ident>.s" and "<ident>.d".
#define INSN_FD(ident, cls)                                                      \
  static Registrar reg_##ident##_s(#ident "_s", &ident<Single>, InsnClass::cls); \
  static Registrar reg_##ident##_d(#ident "_d", &ident<Double>, InsnClass::cls)
// Registers from_int<F, Int> as "fcvt.s.<suffix>" and "fcvt.d.<suffix>".
#define INSN_FD_FROM_INT(suffix, Int)                                             \
  static Registrar reg_fcvt_s_##suffix("fcvt_s_" #suffix, &from_int<Single, Int>, \
                                       InsnClass::FpMisc);                        \
  static Registrar reg_fcvt_d_##suffix("fcvt_d_" #suffix, &from_int<Double, Int>, InsnClass::FpMisc)

INSN_FD(fadd, FpAdd);
INSN_FD(fsub, FpAdd);
INSN_FD(fmul, FpMul);
INSN_FD(fdiv, FpDiv);
INSN_FD(fsqrt, FpSqrt);
INSN_FD(fmadd, FpFma);
INSN_FD(fmsub, FpFma);
INSN_FD(fnmsub, FpFma);
INSN_FD(fnmadd, FpFma);
INSN_FD(fsgnj, FpMisc);
INSN_FD(fsgnjn, FpMisc);
INSN_FD(fsgnjx, FpMisc);
INSN_FD(fmin, FpMisc);
INSN_FD(fmax, FpMisc);
INSN_FD(feq, FpMisc);
INSN_FD(flt, FpMisc);
INSN_FD(fle, FpMisc);
INSN_FD(fclass, FpMisc);
INSN_FD(fcvt_w, FpMisc);
INSN_FD(fcvt_wu, FpMisc);
INSN_FD(fcvt_l, FpMisc);
INSN_FD(fcvt_lu, FpMisc);
INSN_FD_FROM_INT(w, int32_t);
INSN_FD_FROM_INT(wu, uint32_t);
INSN_FD_FROM_INT(l, int64_t);
INSN_FD_FROM_INT(lu, uint64_t);

// ---- loads, stores, moves: the width is the difference ----
INSN(flw, Load) {
  Fp<Single> o(h, i);
  o.set_bits(h.load<uint32_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(fld, Load) {
  Fp<Double> o(h, i);
  o.set_bits(h.load<uint64_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(fsw, Store) {
  require_fp(h, i);
  h.store<uint32_t>(RS1 + i.s_imm(), uint32_t(h.f[i.rs2()]));
  return NEXT;
}
INSN(fsd, Store) {
  require_fp(h, i);
  h.store<uint64_t>(RS1 + i.s_imm(), h.f[i.rs2()]);
  return NEXT;
}
INSN(fmv_x_w, FpMisc) {
  require_fp(h, i);
  WRITE_RD(sext32(h.f[i.rs1()]));
  return NEXT;
}
INSN(fmv_w_x, FpMisc) {
  Fp<Single> o(h, i);
  o.set_bits(uint32_t(RS1));
  return NEXT;
}
INSN(fmv_x_d, FpMisc) {
  require_fp(h, i);
  WRITE_RD(h.f[i.rs1()]);
  return NEXT;
}
INSN(fmv_d_x, FpMisc) {
  Fp<Double> o(h, i);
  o.set_bits(RS1);
  return NEXT;
}

// ---- between the formats ----
INSN(fcvt_s_d, FpMisc) {
  Fp<Double> src(h, i);
  Fp<Single> dst(h, i);
  dst.set(fp::narrow(h, src.a(), src.rm()));
  return NEXT;
}
INSN(fcvt_d_s, FpMisc) {
  Fp<Single> src(h, i);
  Fp<Double> dst(h, i);
  (void)src.rm();  // a reserved rounding mode is still illegal
  dst.set(fp::widen(h, src.a()));
  return NEXT;
}
