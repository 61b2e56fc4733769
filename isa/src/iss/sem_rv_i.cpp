//===- sem_rv_i.cpp - RV64I semantics (base integer instructions) ----------===//
#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_i)

namespace {
// Targets need 4-byte alignment, 2-byte with C (HartConfig::compressed).
inline uint64_t jump_to(const Hart &h, uint64_t target) {
  if (target & h.ialign_mask()) [[unlikely]]
    Hart::raise(cause::kInsnMisaligned, target);
  return target;
}
inline uint64_t branch(const Hart &h, uint64_t pc, Insn i, bool taken) {
  return taken ? jump_to(h, pc + i.b_imm()) : pc + 4;
}
}  // namespace

INSN(lui, IntAlu) {
  WRITE_RD(i.u_imm());
  return NEXT;
}
INSN(auipc, IntAlu) {
  WRITE_RD(pc + i.u_imm());
  return NEXT;
}
INSN(jal, Jump) {
  uint64_t t = jump_to(h, pc + i.j_imm());
  WRITE_RD(pc + 4);
  return t;
}
INSN(jalr, Jump) {
  uint64_t t = jump_to(h, (RS1 + i.i_imm()) & ~1ull);
  WRITE_RD(pc + 4);
  return t;
}
INSN(beq, Branch) { return branch(h, pc, i, RS1 == RS2); }
INSN(bne, Branch) { return branch(h, pc, i, RS1 != RS2); }
INSN(blt, Branch) { return branch(h, pc, i, int64_t(RS1) < int64_t(RS2)); }
INSN(bge, Branch) { return branch(h, pc, i, int64_t(RS1) >= int64_t(RS2)); }
INSN(bltu, Branch) { return branch(h, pc, i, RS1 < RS2); }
INSN(bgeu, Branch) { return branch(h, pc, i, RS1 >= RS2); }

INSN(lb, Load) {
  WRITE_RD(uint64_t(int64_t(h.load<int8_t>(RS1 + i.i_imm()))));
  return NEXT;
}
INSN(lh, Load) {
  WRITE_RD(uint64_t(int64_t(h.load<int16_t>(RS1 + i.i_imm()))));
  return NEXT;
}
INSN(lw, Load) {
  WRITE_RD(uint64_t(int64_t(h.load<int32_t>(RS1 + i.i_imm()))));
  return NEXT;
}
INSN(ld, Load) {
  WRITE_RD(h.load<uint64_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(lbu, Load) {
  WRITE_RD(h.load<uint8_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(lhu, Load) {
  WRITE_RD(h.load<uint16_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(lwu, Load) {
  WRITE_RD(h.load<uint32_t>(RS1 + i.i_imm()));
  return NEXT;
}
INSN(sb, Store) {
  h.store<uint8_t>(RS1 + i.s_imm(), uint8_t(RS2));
  return NEXT;
}
INSN(sh, Store) {
  h.store<uint16_t>(RS1 + i.s_imm(), uint16_t(RS2));
  return NEXT;
}
INSN(sw, Store) {
  h.store<uint32_t>(RS1 + i.s_imm(), uint32_t(RS2));
  return NEXT;
}
INSN(sd, Store) {
  h.store<uint64_t>(RS1 + i.s_imm(), RS2);
  return NEXT;
}

INSN(addi, IntAlu) {
  WRITE_RD(RS1 + i.i_imm());
  return NEXT;
}
INSN(slti, IntAlu) {
  WRITE_RD(int64_t(RS1) < i.i_imm());
  return NEXT;
}
INSN(sltiu, IntAlu) {
  WRITE_RD(RS1 < uint64_t(i.i_imm()));
  return NEXT;
}
INSN(xori, IntAlu) {
  WRITE_RD(RS1 ^ i.i_imm());
  return NEXT;
}
INSN(ori, IntAlu) {
  WRITE_RD(RS1 | i.i_imm());
  return NEXT;
}
INSN(andi, IntAlu) {
  WRITE_RD(RS1 & i.i_imm());
  return NEXT;
}
INSN(slli, IntAlu) {
  WRITE_RD(RS1 << i.shamt());
  return NEXT;
}
INSN(srli, IntAlu) {
  WRITE_RD(RS1 >> i.shamt());
  return NEXT;
}
INSN(srai, IntAlu) {
  WRITE_RD(uint64_t(int64_t(RS1) >> i.shamt()));
  return NEXT;
}
INSN(add, IntAlu) {
  WRITE_RD(RS1 + RS2);
  return NEXT;
}
INSN(sub, IntAlu) {
  WRITE_RD(RS1 - RS2);
  return NEXT;
}
INSN(sll, IntAlu) {
  WRITE_RD(RS1 << (RS2 & 63));
  return NEXT;
}
INSN(slt, IntAlu) {
  WRITE_RD(int64_t(RS1) < int64_t(RS2));
  return NEXT;
}
INSN(sltu, IntAlu) {
  WRITE_RD(RS1 < RS2);
  return NEXT;
}
INSN(xor, IntAlu) {
  WRITE_RD(RS1 ^ RS2);
  return NEXT;
}
INSN(srl, IntAlu) {
  WRITE_RD(RS1 >> (RS2 & 63));
  return NEXT;
}
INSN(sra, IntAlu) {
  WRITE_RD(uint64_t(int64_t(RS1) >> (RS2 & 63)));
  return NEXT;
}
INSN(or, IntAlu) {
  WRITE_RD(RS1 | RS2);
  return NEXT;
}
INSN(and, IntAlu) {
  WRITE_RD(RS1 & RS2);
  return NEXT;
}

INSN(addiw, IntAlu) {
  WRITE_RD(sext32(RS1 + i.i_imm()));
  return NEXT;
}
INSN(slliw, IntAlu) {
  WRITE_RD(sext32(uint32_t(RS1) << (i.shamt() & 31)));
  return NEXT;
}
INSN(srliw, IntAlu) {
  WRITE_RD(sext32(uint32_t(RS1) >> (i.shamt() & 31)));
  return NEXT;
}
INSN(sraiw, IntAlu) {
  WRITE_RD(sext32(uint32_t(int32_t(RS1) >> (i.shamt() & 31))));
  return NEXT;
}
INSN(addw, IntAlu) {
  WRITE_RD(sext32(RS1 + RS2));
  return NEXT;
}
INSN(subw, IntAlu) {
  WRITE_RD(sext32(RS1 - RS2));
  return NEXT;
}
INSN(sllw, IntAlu) {
  WRITE_RD(sext32(uint32_t(RS1) << (RS2 & 31)));
  return NEXT;
}
INSN(srlw, IntAlu) {
  WRITE_RD(sext32(uint32_t(RS1) >> (RS2 & 31)));
  return NEXT;
}
INSN(sraw, IntAlu) {
  WRITE_RD(sext32(uint32_t(int32_t(RS1) >> (RS2 & 31))));
  return NEXT;
}

// Memory ordering: the ISS is a single in-order hart, so fences only matter
// for the decoded-instruction cache (fence.i).
INSN(fence, System) { return NEXT; }
INSN(fence_i, System) {
  h.flush_icache();
  return NEXT;
}

INSN(ecall, System) {
  if (h.ecall_hook()) return NEXT;
  Hart::raise(cause::kEcallM, 0);
}
INSN(ebreak, System) { Hart::raise(cause::kBreakpoint, pc); }
INSN(mret, System) {
  uint64_t s = h.mstatus;
  bool mpie = s & csr::kMstatusMpie;
  s = (s & ~csr::kMstatusMie) | (mpie ? csr::kMstatusMie : 0);
  s |= csr::kMstatusMpie;  // MPIE = 1; MPP stays M (the only mode)
  h.mstatus = s;
  if (h.mepc & h.ialign_mask()) Hart::raise(cause::kInsnMisaligned, h.mepc);
  return h.mepc;
}
INSN(wfi, System) {
  h.request_stop(StopReason::Wfi);
  return NEXT;
}
