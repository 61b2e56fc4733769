//===- registry.h - the ISS's decode table: table entries + semantics ------===//
#pragma once

#include <array>
#include <vector>

#include "semantics.h"

namespace opforge::isa::sem {

struct DecodeEntry {
  uint32_t mask = 0, match = 0;
  int id = -1;  // InsnSpec::id
  InsnFn fn = nullptr;
  InsnClass cls = InsnClass::IntAlu;
  bool has_semantics = false;
};

// Table entries bucketed by major opcode (low 7 bits), built once from
// instructions() and the semantics registry.
struct DecodeTable {
  std::array<std::vector<DecodeEntry>, 128> by_opcode;
};
const DecodeTable &decode_table();
// The entry for a word, nullptr if no table entry matches.
const DecodeEntry *decode_for_iss(uint32_t word);
InsnFn illegal_handler();

}  // namespace opforge::isa::sem
