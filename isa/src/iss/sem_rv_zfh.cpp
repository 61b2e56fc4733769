//===- sem_rv_zfh.cpp - Zfh half-precision semantics -----------------------===//
//
// Half values live NaN-boxed in the 64-bit f registers (bits 63..16 all
// ones); an unboxed value reads as the canonical NaN 0x7e00. Arithmetic is
// fp_half.h's: exact in double, one software rounding to binary16 in the
// static or dynamic (frm) rounding mode, flags into fflags.
//
//===----------------------------------------------------------------------===//
#include "fp_half.h"
#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using fp::Half;

OPF_SEM_UNIT(rv_zfh)

namespace {
inline void require_fp(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusFs)) Hart::raise(cause::kIllegalInsn, i.bits);
}
inline Half unbox(uint64_t reg) {
  return Half{(reg >> 16) == 0xffffffffffffull ? uint16_t(reg) : fp::kCanonNan16};
}

// Operand access for one half instruction (checks that FP is on).
struct Hp {
  Hart &h;
  Insn i;
  Hp(Hart &hart, Insn insn) : h(hart), i(insn) { require_fp(h, i); }
  Half a() const { return unbox(h.f[i.rs1()]); }
  Half b() const { return unbox(h.f[i.rs2()]); }
  Half c() const { return unbox(h.f[i.rs3()]); }
  unsigned rm() const { return fp::resolve_rm(h, i.rm(), i.bits); }
  void set(Half v) {
    h.f[i.rd()] = 0xffffffffffff0000ull | v.bits;
    h.mstatus |= csr::kMstatusFs;
  }
  void set_x(uint64_t v) {
    h.x[i.rd()] = v;
    h.x[0] = 0;
  }
};
inline Half sgnj(Half a, Half b, int kind) {
  const uint16_t s = kind == 0   ? (b.bits & 0x8000u)
                     : kind == 1 ? (~b.bits & 0x8000u)
                                 : ((a.bits ^ b.bits) & 0x8000u);
  return Half{static_cast<uint16_t>((a.bits & 0x7fffu) | s)};
}
template <class Int>
uint64_t to_int(Hart &h, Insn i, uint64_t pc) {
  Hp o(h, i);
  const Int v = fp::half_to_int<Int>(h, o.a(), o.rm());
  o.set_x(sizeof(Int) == 4 ? sext32(uint64_t(v)) : uint64_t(v));
  return pc + 4;
}
template <class Int>
uint64_t from_int(Hart &h, Insn i, uint64_t pc) {
  Hp o(h, i);
  o.set(fp::half_from_int(h, Int(h.x[i.rs1()]), o.rm()));
  return pc + 4;
}
}  // namespace

#define HOP(ident, cls, expr) \
  INSN(ident, cls) {          \
    Hp o(h, i);               \
    o.set(expr);              \
    return NEXT;              \
  }
HOP(fadd_h, FpAdd, fp::add(h, o.rm(), o.a(), o.b()))
HOP(fsub_h, FpAdd, fp::sub(h, o.rm(), o.a(), o.b()))
HOP(fmul_h, FpMul, fp::mul(h, o.rm(), o.a(), o.b()))
HOP(fdiv_h, FpDiv, fp::div(h, o.rm(), o.a(), o.b()))
HOP(fsqrt_h, FpSqrt, fp::sqrt(h, o.rm(), o.a()))
HOP(fmadd_h, FpFma, fp::fma(h, o.rm(), o.a(), o.b(), o.c()))
HOP(fmsub_h, FpFma, fp::fma(h, o.rm(), o.a(), o.b(), -o.c()))
HOP(fnmsub_h, FpFma, fp::fma(h, o.rm(), -o.a(), o.b(), o.c()))
HOP(fnmadd_h, FpFma, fp::fma(h, o.rm(), -o.a(), o.b(), -o.c()))
HOP(fsgnj_h, FpMisc, sgnj(o.a(), o.b(), 0))
HOP(fsgnjn_h, FpMisc, sgnj(o.a(), o.b(), 1))
HOP(fsgnjx_h, FpMisc, sgnj(o.a(), o.b(), 2))
HOP(fmin_h, FpMisc, fp::min(h, o.a(), o.b()))
HOP(fmax_h, FpMisc, fp::max(h, o.a(), o.b()))
#undef HOP

#define HCMP(ident, expr) \
  INSN(ident, FpMisc) {   \
    Hp o(h, i);           \
    o.set_x(expr);        \
    return NEXT;          \
  }
HCMP(feq_h, fp::feq(h, o.a(), o.b()))
HCMP(flt_h, fp::flt(h, o.a(), o.b()))
HCMP(fle_h, fp::fle(h, o.a(), o.b()))
HCMP(fclass_h, fp::fclass(o.a()))
#undef HCMP

static Registrar reg_fcvt_w_h("fcvt_w_h", &to_int<int32_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_wu_h("fcvt_wu_h", &to_int<uint32_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_l_h("fcvt_l_h", &to_int<int64_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_lu_h("fcvt_lu_h", &to_int<uint64_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_h_w("fcvt_h_w", &from_int<int32_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_h_wu("fcvt_h_wu", &from_int<uint32_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_h_l("fcvt_h_l", &from_int<int64_t>, InsnClass::FpMisc);
static Registrar reg_fcvt_h_lu("fcvt_h_lu", &from_int<uint64_t>, InsnClass::FpMisc);

// ---- between the formats (single and double values are NaN-boxed as in sem_rv_fd) ----
namespace {
inline float unbox_single(uint64_t reg) {
  return std::bit_cast<float>((reg >> 32) == 0xffffffffu ? uint32_t(reg) : fp::kCanonNan32);
}
}  // namespace
INSN(fcvt_s_h, FpMisc) {
  Hp o(h, i);
  (void)o.rm();  // a reserved rounding mode is still illegal
  h.f[i.rd()] = 0xffffffff00000000ull | std::bit_cast<uint32_t>(fp::widen_half<float>(h, o.a()));
  h.mstatus |= csr::kMstatusFs;
  return NEXT;
}
INSN(fcvt_d_h, FpMisc) {
  Hp o(h, i);
  (void)o.rm();
  h.f[i.rd()] = std::bit_cast<uint64_t>(fp::widen_half<double>(h, o.a()));
  h.mstatus |= csr::kMstatusFs;
  return NEXT;
}
INSN(fcvt_h_s, FpMisc) {
  Hp o(h, i);
  o.set(fp::narrow_half(h, unbox_single(h.f[i.rs1()]), o.rm()));
  return NEXT;
}
INSN(fcvt_h_d, FpMisc) {
  Hp o(h, i);
  o.set(fp::narrow_half(h, std::bit_cast<double>(h.f[i.rs1()]), o.rm()));
  return NEXT;
}

// ---- loads, stores, moves (raw bits, no NaN-box check on the way out) ----
INSN(flh, Load) {
  Hp o(h, i);
  o.set(Half{h.load<uint16_t>(RS1 + i.i_imm())});
  return NEXT;
}
INSN(fsh, Store) {
  require_fp(h, i);
  h.store<uint16_t>(RS1 + i.s_imm(), uint16_t(h.f[i.rs2()]));
  return NEXT;
}
INSN(fmv_x_h, FpMisc) {
  require_fp(h, i);
  WRITE_RD(static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(h.f[i.rs1()]))));
  return NEXT;
}
INSN(fmv_h_x, FpMisc) {
  Hp o(h, i);
  o.set(Half{uint16_t(RS1)});
  return NEXT;
}
