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
  std::string
      kind;  // reg, freg, vreg, creg, cfreg, simm, uimm, part, csr, rm, bit, fence, vtype, vm
  std::string description;         // one line, from fields.csv
  std::vector<uint32_t> excluded;  // raw values the field may not hold ("reg!0" in fields.csv)
  int width() const { return msb - lsb + 1; }
  uint32_t mask() const {
    return ((msb - lsb + 1) >= 32 ? ~0u : ((1u << (msb - lsb + 1)) - 1u)) << lsb;
  }
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
  // Field values that make a word another instruction or reserved (from
  // fields like rd_n0): a word matches only if (word & mask) != value for each.
  struct Exclusion {
    uint32_t mask = 0, value = 0;
  };
  std::vector<Exclusion> excluded;

  // 2 for a 16-bit compressed encoding (bits 1..0 != 3), else 4.
  int length_bytes() const { return (match & 3u) == 3u ? 4 : 2; }
  bool matches(uint32_t word) const {
    if ((word & mask) != match) return false;
    for (const auto &e : excluded)
      if ((word & e.mask) == e.value) return false;
    return true;
  }
};

// One named CSR from isa/spec/csrs.csv (names for the assembler and
// disassembler; which CSRs a hart implements is the ISS's business).
struct CsrSpec {
  std::string name;       // "mstatus", "mtia.pid_x"
  uint32_t number = 0;    // 12-bit CSR address
  std::string extension;  // "rv_system", "rv_v", "xmtia", ...
  std::string description;
};

// One table file's text, as embedded at build time or given by a test.
struct TableSource {
  std::string file;  // "isa/spec/rv_i.opcodes", "isa/spec/fields.csv"
  std::string text;
};

// A parsed set of tables.
struct InsnTable {
  std::vector<FieldSpec> fields;
  std::vector<InsnSpec> insns;
  std::vector<CsrSpec> csrs;
};

// Parse fields.csv, csrs.csv and *.opcodes texts (sources named
// ".../fields.csv" and ".../csrs.csv" give fields and CSRs; the others are
// opcode tables, extension = file stem).
// Every line is checked: known fields, bit ranges inside 31..0, values that
// fit, no bit both fixed and a field or fixed twice, bits 1..0 fixed, every
// bit of the encoding covered (31..0 when bits 1..0 = 3; 15..0 and nothing
// above for a 16-bit compressed encoding, bits 1..0 = 0..2), 16-bit entries
// fix bits 15..13, unique mnemonics. Throws opforge::Error naming file:line.
InsnTable parse_tables(const std::vector<TableSource> &sources);

namespace detail {
// The isa/spec files embedded into the library (generated at build time).
const std::vector<TableSource> &embedded_tables();
// Append instructions at run time (ISA extension files: use
// register_extension in extension.h, which calls this). Each is checked
// against every instruction and the others given: a mnemonic already taken,
// or an encoding that overlaps ((m1 & m2 & (match1 ^ match2)) == 0), throws
// opforge::Error naming both (their `source`) and adds none. Returns the ids.
std::vector<int> add_instructions(std::vector<InsnSpec> insns);
// The number of instructions of the built-in tables: instructions()[0, n)
// never change, so indexing them is safe while others are being added.
size_t builtin_instruction_count();
}  // namespace detail

// All instructions of all tables, in a stable order (table files sorted by
// name, lines in file order), then those added at run time (extension.h) in
// the order added. Loaded once; thread-safe after first call. References
// stay valid when instructions are added; iterate it only while no
// extension is being registered (callers register before running programs).
const std::vector<InsnSpec> &instructions();
// Every field of fields.csv.
const std::vector<FieldSpec> &fields();
const FieldSpec *find_field(std::string_view name);

// Lookup by mnemonic; nullptr if unknown.
const InsnSpec *find_insn(std::string_view name);
// Named CSRs (csrs.csv), lookup by name or number; nullptr if unknown.
const std::vector<CsrSpec> &csrs();
const CsrSpec *find_csr(std::string_view name);
const CsrSpec *find_csr(uint32_t number);

// Decode an instruction word; nullptr if no table entry matches. A word
// whose bits 1..0 are not 3 is a 16-bit compressed instruction: only its
// low 16 bits are read.
const InsnSpec *decode(uint32_t word);

}  // namespace opforge::isa
