//===- insn.h - operand fields of a RISC-V instruction word (32 or 16 bits) ===//
//
// The ISS's semantics bodies read operands through these accessors. Field
// positions are the base-ISA formats every table entry uses (rd 11..7, rs1
// 19..15, ...); which fields an instruction has is recorded in the tables.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace opforge::isa {

struct Insn {
  uint32_t bits = 0;

  constexpr uint32_t field(int msb, int lsb) const {
    return (bits >> lsb) & ((1u << (msb - lsb + 1)) - 1u);
  }
  constexpr int64_t sfield(int msb, int lsb) const {
    return static_cast<int64_t>(static_cast<int32_t>(bits << (31 - msb)) >> (31 - msb + lsb));
  }

  constexpr unsigned opcode() const { return bits & 0x7f; }
  constexpr unsigned rd() const { return (bits >> 7) & 31; }
  constexpr unsigned rs1() const { return (bits >> 15) & 31; }
  constexpr unsigned rs2() const { return (bits >> 20) & 31; }
  constexpr unsigned rs3() const { return bits >> 27; }
  constexpr unsigned funct3() const { return (bits >> 12) & 7; }
  constexpr unsigned rm() const { return (bits >> 12) & 7; }
  constexpr unsigned csr() const { return bits >> 20; }
  constexpr unsigned shamt() const { return (bits >> 20) & 63; }

  constexpr int64_t i_imm() const { return static_cast<int32_t>(bits) >> 20; }
  constexpr int64_t s_imm() const {
    return int64_t(static_cast<int32_t>(bits & 0xfe000000u) >> 20) | int64_t((bits >> 7) & 31);
  }
  constexpr int64_t b_imm() const {
    return (sfield(31, 31) << 12) | (field(7, 7) << 11) | (field(30, 25) << 5) |
           (field(11, 8) << 1);
  }
  constexpr int64_t u_imm() const { return static_cast<int32_t>(bits & 0xfffff000u); }
  constexpr int64_t j_imm() const {
    return (sfield(31, 31) << 20) | (field(19, 12) << 12) | (field(20, 20) << 11) |
           (field(30, 21) << 1);
  }

  // Vector fields.
  constexpr unsigned vd() const { return rd(); }
  constexpr unsigned vs1() const { return rs1(); }
  constexpr unsigned vs2() const { return rs2(); }
  constexpr unsigned vs3() const { return rd(); }
  constexpr bool vm() const { return (bits >> 25) & 1; }  // 1: unmasked
  constexpr int64_t simm5() const { return sfield(19, 15); }
  constexpr unsigned uimm5() const { return rs1(); }
  constexpr unsigned nf() const { return bits >> 29; }
  constexpr unsigned mop() const { return (bits >> 26) & 3; }
  constexpr unsigned vzimm11() const { return (bits >> 20) & 0x7ff; }  // vsetvli
  constexpr unsigned vzimm10() const { return (bits >> 20) & 0x3ff; }  // vsetivli

  // Compressed (RVC) fields of a 16-bit instruction, as Spike's insn_t reads
  // them; the layouts are spec_rvc.cpp's, and a test checks every accessor
  // against field_operand() over all 16-bit words.
  constexpr unsigned rvc_rs2() const { return (bits >> 2) & 31; }        // c_rs2, 6..2
  constexpr unsigned rvc_rs1s() const { return 8 + ((bits >> 7) & 7); }  // rs1_p, rd_rs1_p
  constexpr unsigned rvc_rs2s() const { return 8 + ((bits >> 2) & 7); }  // rs2_p, rd_p
  constexpr uint64_t rvc_x(int lo, int len) const { return (bits >> lo) & ((1u << len) - 1u); }
  constexpr int64_t rvc_imm6() const { return int64_t(rvc_x(2, 5)) | (sfield(12, 12) << 5); }
  constexpr unsigned rvc_shamt() const { return unsigned(rvc_x(2, 5) | (rvc_x(12, 1) << 5)); }
  constexpr uint64_t rvc_addi4spn_imm() const {
    return (rvc_x(6, 1) << 2) | (rvc_x(5, 1) << 3) | (rvc_x(11, 2) << 4) | (rvc_x(7, 4) << 6);
  }
  constexpr int64_t rvc_addi16sp_imm() const {
    return int64_t((rvc_x(6, 1) << 4) | (rvc_x(2, 1) << 5) | (rvc_x(5, 1) << 6) |
                   (rvc_x(3, 2) << 7)) |
           (sfield(12, 12) << 9);
  }
  constexpr int64_t rvc_lui_imm() const { return rvc_imm6() << 12; }
  constexpr uint64_t rvc_lw_imm() const {
    return (rvc_x(6, 1) << 2) | (rvc_x(10, 3) << 3) | (rvc_x(5, 1) << 6);
  }
  constexpr uint64_t rvc_ld_imm() const { return (rvc_x(10, 3) << 3) | (rvc_x(5, 2) << 6); }
  constexpr uint64_t rvc_lwsp_imm() const {
    return (rvc_x(4, 3) << 2) | (rvc_x(12, 1) << 5) | (rvc_x(2, 2) << 6);
  }
  constexpr uint64_t rvc_ldsp_imm() const {
    return (rvc_x(5, 2) << 3) | (rvc_x(12, 1) << 5) | (rvc_x(2, 3) << 6);
  }
  constexpr uint64_t rvc_swsp_imm() const { return (rvc_x(9, 4) << 2) | (rvc_x(7, 2) << 6); }
  constexpr uint64_t rvc_sdsp_imm() const { return (rvc_x(10, 3) << 3) | (rvc_x(7, 3) << 6); }
  constexpr int64_t rvc_j_imm() const {
    return int64_t((rvc_x(3, 3) << 1) | (rvc_x(11, 1) << 4) | (rvc_x(2, 1) << 5) |
                   (rvc_x(7, 1) << 6) | (rvc_x(6, 1) << 7) | (rvc_x(9, 2) << 8) |
                   (rvc_x(8, 1) << 10)) |
           (sfield(12, 12) << 11);
  }
  constexpr int64_t rvc_b_imm() const {
    return int64_t((rvc_x(3, 2) << 1) | (rvc_x(10, 2) << 3) | (rvc_x(2, 1) << 5) |
                   (rvc_x(5, 2) << 6)) |
           (sfield(12, 12) << 8);
  }
};

}  // namespace opforge::isa
