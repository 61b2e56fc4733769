//===- spec.h - the instruction tables, as loaded from isa/spec/*.opcodes --===//
//
// Every encoding fact lives in the plain-text tables under isa/spec/
// (riscv-opcodes line format) plus isa/spec/fields.csv. This header is the
// only view the rest of opforge has of them: the decoder, encoder,
// assembler, disassembler, the ISS's semantics registry and the compiler's
// `.insn` emission are all derived from InsnSpec records.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace opforge::isa {

// One operand field from isa/spec/fields.csv (e.g. rd = bits 11..7).
struct FieldSpec {
  std::string name;  // "rd", "rs1", "imm12", "bimm12hi", "vm", "zimm11", ...
  int msb = 0;       // highest bit in the instruction word
  int lsb = 0;       // lowest bit
  uint32_t mask() const { return ((msb - lsb + 1) >= 32 ? ~0u : ((1u << (msb - lsb + 1)) - 1u)) << lsb; }
  uint32_t extract(uint32_t word) const { return (word & mask()) >> lsb; }
};

// One instruction from a table line.
struct InsnSpec {
  int id = -1;                      // dense index into instructions()
  std::string name;                 // mnemonic as written by GNU as: "add", "vadd.vv", "xmtia.done"
  std::string extension;            // table file stem: "rv_i", "rv64_i", "rv_v", "xmtia", ...
  uint32_t mask = 0;                // bits fixed by the encoding
  uint32_t match = 0;               // their values
  std::vector<std::string> fields;  // operand field names in table order
  std::string source;               // "isa/spec/rv_i.opcodes:12" for error messages
};

// All instructions of all tables, in a stable order (table files sorted by
// name, lines in file order). Loaded once; thread-safe after first call.
const std::vector<InsnSpec> &instructions();
// Every field of fields.csv.
const std::vector<FieldSpec> &fields();
const FieldSpec *find_field(std::string_view name);

// Lookup by mnemonic; nullptr if unknown.
const InsnSpec *find_insn(std::string_view name);
// Decode a 32-bit instruction word; nullptr if no table entry matches.
// (16-bit compressed instructions are not part of the target ISA.)
const InsnSpec *decode(uint32_t word);

}  // namespace opforge::isa
