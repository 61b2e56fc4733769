//===- sem_rv_fd.cpp - RV64F and RV64D semantics ---------------------------===//
#include "fp_helpers.h"
#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_fd)

namespace {
inline void require_fp(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusFs)) Hart::raise(cause::kIllegalInsn, i.bits);
}
// Single values live NaN-boxed in the 64-bit f registers.
inline float unbox_s(uint64_t v) {
  return (v >> 32) == 0xffffffffu ? std::bit_cast<float>(uint32_t(v))
                                  : std::bit_cast<float>(fp::kCanonNan32);
}
inline uint64_t box_s(float v) { return 0xffffffff00000000ull | std::bit_cast<uint32_t>(v); }
inline uint64_t box_s_bits(uint32_t b) { return 0xffffffff00000000ull | b; }
inline double as_d(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t d_bits(double v) { return std::bit_cast<uint64_t>(v); }
inline unsigned rm_of(Hart &h, Insn i) { return fp::resolve_rm(h, i.rm(), i.bits); }
}  // namespace

#define FS1 unbox_s(h.f[i.rs1()])
#define FS2 unbox_s(h.f[i.rs2()])
#define FS3 unbox_s(h.f[i.rs3()])
#define FD1 as_d(h.f[i.rs1()])
#define FD2 as_d(h.f[i.rs2()])
#define FD3 as_d(h.f[i.rs3()])
#define WRITE_FRD_BITS(v)         \
  do {                            \
    h.f[i.rd()] = (v);            \
    h.mstatus |= csr::kMstatusFs; \
  } while (0)
#define WRITE_FRD_S(v) WRITE_FRD_BITS(box_s(v))
#define WRITE_FRD_D(v) WRITE_FRD_BITS(d_bits(v))
#define REQ require_fp(h, i)
#define RM rm_of(h, i)

// ---- loads, stores, moves ----
INSN(flw, Load) {
  REQ;
  WRITE_FRD_BITS(box_s_bits(h.load<uint32_t>(RS1 + i.i_imm())));
  return NEXT;
}
INSN(fld, Load) {
  REQ;
  WRITE_FRD_BITS(h.load<uint64_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(fsw, Store) {
  REQ;
  h.store<uint32_t>(RS1 + i.s_imm(), uint32_t(h.f[i.rs2()]));
  return NEXT;
}
INSN(fsd, Store) {
  REQ;
  h.store<uint64_t>(RS1 + i.s_imm(), h.f[i.rs2()]);
  return NEXT;
}
INSN(fmv_x_w, FpMisc) {
  REQ;
  WRITE_RD(sext32(h.f[i.rs1()]));
  return NEXT;
}
INSN(fmv_w_x, FpMisc) {
  REQ;
  WRITE_FRD_BITS(box_s_bits(uint32_t(RS1)));
  return NEXT;
}
INSN(fmv_x_d, FpMisc) {
  REQ;
  WRITE_RD(h.f[i.rs1()]);
  return NEXT;
}
INSN(fmv_d_x, FpMisc) {
  REQ;
  WRITE_FRD_BITS(RS1);
  return NEXT;
}

// ---- arithmetic ----
INSN(fadd_s, FpAdd) {
  REQ;
  WRITE_FRD_S(fp::add(h, RM, FS1, FS2));
  return NEXT;
}
INSN(fsub_s, FpAdd) {
  REQ;
  WRITE_FRD_S(fp::sub(h, RM, FS1, FS2));
  return NEXT;
}
INSN(fmul_s, FpMul) {
  REQ;
  WRITE_FRD_S(fp::mul(h, RM, FS1, FS2));
  return NEXT;
}
INSN(fdiv_s, FpDiv) {
  REQ;
  WRITE_FRD_S(fp::div(h, RM, FS1, FS2));
  return NEXT;
}
INSN(fsqrt_s, FpSqrt) {
  REQ;
  WRITE_FRD_S(fp::sqrt(h, RM, FS1));
  return NEXT;
}
INSN(fmadd_s, FpFma) {
  REQ;
  WRITE_FRD_S(fp::fma(h, RM, FS1, FS2, FS3));
  return NEXT;
}
INSN(fmsub_s, FpFma) {
  REQ;
  WRITE_FRD_S(fp::fma(h, RM, FS1, FS2, -FS3));
  return NEXT;
}
INSN(fnmsub_s, FpFma) {
  REQ;
  WRITE_FRD_S(fp::fma(h, RM, -FS1, FS2, FS3));
  return NEXT;
}
INSN(fnmadd_s, FpFma) {
  REQ;
  WRITE_FRD_S(fp::fma(h, RM, -FS1, FS2, -FS3));
  return NEXT;
}
INSN(fadd_d, FpAdd) {
  REQ;
  WRITE_FRD_D(fp::add(h, RM, FD1, FD2));
  return NEXT;
}
INSN(fsub_d, FpAdd) {
  REQ;
  WRITE_FRD_D(fp::sub(h, RM, FD1, FD2));
  return NEXT;
}
INSN(fmul_d, FpMul) {
  REQ;
  WRITE_FRD_D(fp::mul(h, RM, FD1, FD2));
  return NEXT;
}
INSN(fdiv_d, FpDiv) {
  REQ;
  WRITE_FRD_D(fp::div(h, RM, FD1, FD2));
  return NEXT;
}
INSN(fsqrt_d, FpSqrt) {
  REQ;
  WRITE_FRD_D(fp::sqrt(h, RM, FD1));
  return NEXT;
}
INSN(fmadd_d, FpFma) {
  REQ;
  WRITE_FRD_D(fp::fma(h, RM, FD1, FD2, FD3));
  return NEXT;
}
INSN(fmsub_d, FpFma) {
  REQ;
  WRITE_FRD_D(fp::fma(h, RM, FD1, FD2, -FD3));
  return NEXT;
}
INSN(fnmsub_d, FpFma) {
  REQ;
  WRITE_FRD_D(fp::fma(h, RM, -FD1, FD2, FD3));
  return NEXT;
}
INSN(fnmadd_d, FpFma) {
  REQ;
  WRITE_FRD_D(fp::fma(h, RM, -FD1, FD2, -FD3));
  return NEXT;
}

// ---- sign injection (bit operations, no canonicalization) ----
namespace {
inline uint32_t sbits(float v) { return std::bit_cast<uint32_t>(v); }
}  // namespace
INSN(fsgnj_s, FpMisc) {
  REQ;
  WRITE_FRD_BITS(box_s_bits((sbits(FS1) & 0x7fffffffu) | (sbits(FS2) & 0x80000000u)));
  return NEXT;
}
INSN(fsgnjn_s, FpMisc) {
  REQ;
  WRITE_FRD_BITS(box_s_bits((sbits(FS1) & 0x7fffffffu) | (~sbits(FS2) & 0x80000000u)));
  return NEXT;
}
INSN(fsgnjx_s, FpMisc) {
  REQ;
  WRITE_FRD_BITS(box_s_bits(sbits(FS1) ^ (sbits(FS2) & 0x80000000u)));
  return NEXT;
}
INSN(fsgnj_d, FpMisc) {
  REQ;
  WRITE_FRD_BITS((h.f[i.rs1()] & ~(1ull << 63)) | (h.f[i.rs2()] & (1ull << 63)));
  return NEXT;
}
INSN(fsgnjn_d, FpMisc) {
  REQ;
  WRITE_FRD_BITS((h.f[i.rs1()] & ~(1ull << 63)) | (~h.f[i.rs2()] & (1ull << 63)));
  return NEXT;
}
INSN(fsgnjx_d, FpMisc) {
  REQ;
  WRITE_FRD_BITS(h.f[i.rs1()] ^ (h.f[i.rs2()] & (1ull << 63)));
  return NEXT;
}

// ---- min/max, compares, classify ----
INSN(fmin_s, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::min(h, FS1, FS2));
  return NEXT;
}
INSN(fmax_s, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::max(h, FS1, FS2));
  return NEXT;
}
INSN(fmin_d, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::min(h, FD1, FD2));
  return NEXT;
}
INSN(fmax_d, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::max(h, FD1, FD2));
  return NEXT;
}
INSN(feq_s, FpMisc) {
  REQ;
  WRITE_RD(fp::feq(h, FS1, FS2));
  return NEXT;
}
INSN(flt_s, FpMisc) {
  REQ;
  WRITE_RD(fp::flt(h, FS1, FS2));
  return NEXT;
}
INSN(fle_s, FpMisc) {
  REQ;
  WRITE_RD(fp::fle(h, FS1, FS2));
  return NEXT;
}
INSN(feq_d, FpMisc) {
  REQ;
  WRITE_RD(fp::feq(h, FD1, FD2));
  return NEXT;
}
INSN(flt_d, FpMisc) {
  REQ;
  WRITE_RD(fp::flt(h, FD1, FD2));
  return NEXT;
}
INSN(fle_d, FpMisc) {
  REQ;
  WRITE_RD(fp::fle(h, FD1, FD2));
  return NEXT;
}
INSN(fclass_s, FpMisc) {
  REQ;
  WRITE_RD(fp::fclass(FS1));
  return NEXT;
}
INSN(fclass_d, FpMisc) {
  REQ;
  WRITE_RD(fp::fclass(FD1));
  return NEXT;
}

// ---- conversions ----
INSN(fcvt_w_s, FpMisc) {
  REQ;
  WRITE_RD(uint64_t(int64_t(fp::to_int<int32_t>(h, FS1, RM))));
  return NEXT;
}
INSN(fcvt_wu_s, FpMisc) {
  REQ;
  WRITE_RD(sext32(fp::to_int<uint32_t>(h, FS1, RM)));
  return NEXT;
}
INSN(fcvt_l_s, FpMisc) {
  REQ;
  WRITE_RD(uint64_t(fp::to_int<int64_t>(h, FS1, RM)));
  return NEXT;
}
INSN(fcvt_lu_s, FpMisc) {
  REQ;
  WRITE_RD(fp::to_int<uint64_t>(h, FS1, RM));
  return NEXT;
}
INSN(fcvt_w_d, FpMisc) {
  REQ;
  WRITE_RD(uint64_t(int64_t(fp::to_int<int32_t>(h, FD1, RM))));
  return NEXT;
}
INSN(fcvt_wu_d, FpMisc) {
  REQ;
  WRITE_RD(sext32(fp::to_int<uint32_t>(h, FD1, RM)));
  return NEXT;
}
INSN(fcvt_l_d, FpMisc) {
  REQ;
  WRITE_RD(uint64_t(fp::to_int<int64_t>(h, FD1, RM)));
  return NEXT;
}
INSN(fcvt_lu_d, FpMisc) {
  REQ;
  WRITE_RD(fp::to_int<uint64_t>(h, FD1, RM));
  return NEXT;
}
INSN(fcvt_s_w, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::from_int<float>(h, int32_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_s_wu, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::from_int<float>(h, uint32_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_s_l, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::from_int<float>(h, int64_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_s_lu, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::from_int<float>(h, uint64_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_d_w, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::from_int<double>(h, int32_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_d_wu, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::from_int<double>(h, uint32_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_d_l, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::from_int<double>(h, int64_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_d_lu, FpMisc) {
  REQ;
  WRITE_FRD_D(fp::from_int<double>(h, uint64_t(RS1), RM));
  return NEXT;
}
INSN(fcvt_s_d, FpMisc) {
  REQ;
  WRITE_FRD_S(fp::narrow(h, FD1, RM));
  return NEXT;
}
INSN(fcvt_d_s, FpMisc) {
  REQ;
  (void)RM;
  WRITE_FRD_D(fp::widen(h, FS1));
  return NEXT;
}
