//===- registry.h - the ISS's decode table: table entries + semantics ------===//
#pragma once

#include <array>
#include <vector>

#include "opforge/isa/extension.h"
#include "opforge/isa/spec.h"
#include "semantics.h"

namespace opforge::isa::sem {

struct DecodeEntry {
  uint32_t mask = 0, match = 0;
  int id = -1;  // InsnSpec::id
  InsnFn fn = nullptr;
  InsnClass cls = InsnClass::IntAlu;
  bool has_semantics = false;
  // Excluded field values (16-bit entries: c.jr's rs1 != x0), copied from
  // the InsnSpec so decoding never reads instructions() while it may grow.
  std::vector<InsnSpec::Exclusion> excluded;
};

// Table entries bucketed by major opcode (low 7 bits), built once from
// instructions() and the semantics registry.
struct DecodeTable {
  std::array<std::vector<DecodeEntry>, 128> by_opcode;
  // 16-bit (RVC) entries by quadrant (bits 1..0) and funct3 (bits 15..13).
  std::array<std::vector<DecodeEntry>, 32> compressed;
};
const DecodeTable &decode_table();
// The entry for a word, nullptr if no table entry matches.
const DecodeEntry *decode_for_iss(uint32_t word);
InsnFn illegal_handler();

// ISA extension instructions (extension.h, sem_ext.cpp): added at run time
// under a lock and looked up second, when the built table has no entry
// (their encodings overlap no other). The table built once has the
// built-in instructions only.
void add_extension_semantics(const ExtInsn &insn);
const DecodeEntry *decode_extension(uint32_t word);

}  // namespace opforge::isa::sem
