//===- sem_rv_c.cpp - RV64C semantics (16-bit compressed instructions) -----===//
//
// One body per compressed instruction, each the base instruction it expands
// to (the spec's RVC expansion) with the next pc 2 bytes on. Operands come
// from Insn's rvc_* accessors. x0 destinations of c.addi/c.li/c.lui/c.mv/
// c.add/c.slli are HINTs and execute as no-ops (WRITE_RD keeps x0 zero).
//
//===----------------------------------------------------------------------===//
#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_c)

#define CNEXT (pc + 2)
#define XS1 (h.x[i.rvc_rs1s()])
#define XS2 (h.x[i.rvc_rs2s()])
#define WRITE_RS1S(v)        \
  do {                       \
    h.x[i.rvc_rs1s()] = (v); \
  } while (0)

namespace {
inline void require_fp(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusFs)) Hart::raise(cause::kIllegalInsn, i.bits);
}
// With C, targets need only 2-byte alignment (jalr-like ones clear bit 0).
inline uint64_t jump_to(Hart &h, uint64_t target) {
  if (target & h.ialign_mask()) [[unlikely]]
    Hart::raise(cause::kInsnMisaligned, target);
  return target;
}
}  // namespace

// Quadrant 0: loads and stores through x8..x15.
INSN(c_addi4spn, IntAlu) {
  h.x[i.rvc_rs2s()] = h.x[2] + i.rvc_addi4spn_imm();
  return CNEXT;
}
INSN(c_lw, Load) {
  h.x[i.rvc_rs2s()] = uint64_t(int64_t(h.load<int32_t>(XS1 + i.rvc_lw_imm())));
  return CNEXT;
}
INSN(c_ld, Load) {
  h.x[i.rvc_rs2s()] = h.load<uint64_t>(XS1 + i.rvc_ld_imm());
  return CNEXT;
}
INSN(c_fld, Load) {
  require_fp(h, i);
  h.f[i.rvc_rs2s()] = h.load<uint64_t>(XS1 + i.rvc_ld_imm());
  h.mstatus |= csr::kMstatusFs;
  return CNEXT;
}
INSN(c_sw, Store) {
  h.store<uint32_t>(XS1 + i.rvc_lw_imm(), uint32_t(XS2));
  return CNEXT;
}
INSN(c_sd, Store) {
  h.store<uint64_t>(XS1 + i.rvc_ld_imm(), XS2);
  return CNEXT;
}
INSN(c_fsd, Store) {
  require_fp(h, i);
  h.store<uint64_t>(XS1 + i.rvc_ld_imm(), h.f[i.rvc_rs2s()]);
  return CNEXT;
}

// Quadrant 1: immediates, x8..x15 arithmetic, jumps and branches.
INSN(c_addi, IntAlu) {
  WRITE_RD(h.x[i.rd()] + i.rvc_imm6());
  return CNEXT;
}
INSN(c_addiw, IntAlu) {
  WRITE_RD(sext32(h.x[i.rd()] + i.rvc_imm6()));
  return CNEXT;
}
INSN(c_li, IntAlu) {
  WRITE_RD(i.rvc_imm6());
  return CNEXT;
}
INSN(c_addi16sp, IntAlu) {
  h.x[2] += i.rvc_addi16sp_imm();
  return CNEXT;
}
INSN(c_lui, IntAlu) {
  WRITE_RD(i.rvc_lui_imm());
  return CNEXT;
}
INSN(c_srli, IntAlu) {
  WRITE_RS1S(XS1 >> i.rvc_shamt());
  return CNEXT;
}
INSN(c_srai, IntAlu) {
  WRITE_RS1S(uint64_t(int64_t(XS1) >> i.rvc_shamt()));
  return CNEXT;
}
INSN(c_andi, IntAlu) {
  WRITE_RS1S(XS1 & uint64_t(i.rvc_imm6()));
  return CNEXT;
}
INSN(c_sub, IntAlu) {
  WRITE_RS1S(XS1 - XS2);
  return CNEXT;
}
INSN(c_xor, IntAlu) {
  WRITE_RS1S(XS1 ^ XS2);
  return CNEXT;
}
INSN(c_or, IntAlu) {
  WRITE_RS1S(XS1 | XS2);
  return CNEXT;
}
INSN(c_and, IntAlu) {
  WRITE_RS1S(XS1 & XS2);
  return CNEXT;
}
INSN(c_subw, IntAlu) {
  WRITE_RS1S(sext32(XS1 - XS2));
  return CNEXT;
}
INSN(c_addw, IntAlu) {
  WRITE_RS1S(sext32(XS1 + XS2));
  return CNEXT;
}
INSN(c_j, Jump) { return jump_to(h, pc + i.rvc_j_imm()); }
INSN(c_beqz, Branch) { return XS1 == 0 ? jump_to(h, pc + i.rvc_b_imm()) : CNEXT; }
INSN(c_bnez, Branch) { return XS1 != 0 ? jump_to(h, pc + i.rvc_b_imm()) : CNEXT; }

// Quadrant 2: sp-relative loads and stores, shifts, moves, jumps through registers.
INSN(c_slli, IntAlu) {
  WRITE_RD(h.x[i.rd()] << i.rvc_shamt());
  return CNEXT;
}
INSN(c_lwsp, Load) {
  WRITE_RD(uint64_t(int64_t(h.load<int32_t>(h.x[2] + i.rvc_lwsp_imm()))));
  return CNEXT;
}
INSN(c_ldsp, Load) {
  WRITE_RD(h.load<uint64_t>(h.x[2] + i.rvc_ldsp_imm()));
  return CNEXT;
}
INSN(c_fldsp, Load) {
  require_fp(h, i);
  h.f[i.rd()] = h.load<uint64_t>(h.x[2] + i.rvc_ldsp_imm());
  h.mstatus |= csr::kMstatusFs;
  return CNEXT;
}
INSN(c_swsp, Store) {
  h.store<uint32_t>(h.x[2] + i.rvc_swsp_imm(), uint32_t(h.x[i.rvc_rs2()]));
  return CNEXT;
}
INSN(c_sdsp, Store) {
  h.store<uint64_t>(h.x[2] + i.rvc_sdsp_imm(), h.x[i.rvc_rs2()]);
  return CNEXT;
}
INSN(c_fsdsp, Store) {
  require_fp(h, i);
  h.store<uint64_t>(h.x[2] + i.rvc_sdsp_imm(), h.f[i.rvc_rs2()]);
  return CNEXT;
}
INSN(c_jr, Jump) { return h.x[i.rd()] & ~1ull; }
INSN(c_jalr, Jump) {
  const uint64_t t = h.x[i.rd()] & ~1ull;
  h.x[1] = pc + 2;
  return t;
}
INSN(c_mv, IntAlu) {
  WRITE_RD(h.x[i.rvc_rs2()]);
  return CNEXT;
}
INSN(c_add, IntAlu) {
  WRITE_RD(h.x[i.rd()] + h.x[i.rvc_rs2()]);
  return CNEXT;
}
INSN(c_ebreak, System) { Hart::raise(cause::kBreakpoint, pc); }
