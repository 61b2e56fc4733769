//===- insn.h - operand fields of a 32-bit RISC-V instruction word --------===//
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
};

}  // namespace opforge::isa
