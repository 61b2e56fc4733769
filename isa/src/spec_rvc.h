//===- spec_rvc.h - compressed (RVC) immediates and operand syntax ---------===//
//
// The tables give a compressed instruction's immediate as scrambled parts
// (c_uimm7hi, c_uimm7lo, ...). The layouts here, in the RISC-V spec's
// notation ("5:3", "2|6"), join them into one logical immediate per operand
// ("cimm_lw"), which encode(), field_operand() and field_range() accept like
// imm_s/imm_b/imm_j. Internal to the codec.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "opforge/isa/encode.h"

namespace opforge::isa::detail {

struct RvcImmPart {
  std::string_view field;  // a part field of fields.csv
  std::vector<int> bits;   // immediate bit held by each field bit, msb first
};

struct RvcImm {
  std::string_view name;  // "cimm_lw"
  bool is_signed = false;
  bool nonzero = false;  // binutils rejects 0 (reserved or a HINT)
  std::vector<RvcImmPart> parts;
  int width = 0;  // highest immediate bit + 1
  int align = 1;  // 1 << lowest immediate bit
};

// The logical immediate called `name`, or nullptr.
const RvcImm *find_rvc_imm(std::string_view name);
// Every logical immediate (for tests).
const std::vector<RvcImm> &rvc_imms();
// The logical immediate an instruction's parts make, or nullptr.
const RvcImm *rvc_imm_of(const InsnSpec &insn);
// Bits of the word holding `value` (not range checked), and back.
uint32_t rvc_imm_pack(const RvcImm &imm, int64_t value);
int64_t rvc_imm_unpack(const RvcImm &imm, uint32_t word);
FieldRange rvc_imm_range(const RvcImm &imm);

// Operands of a 16-bit instruction in binutils order.
std::vector<AsmOperand> rvc_asm_operands(const InsnSpec &insn);

}  // namespace opforge::isa::detail
