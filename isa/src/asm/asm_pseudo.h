//===- asm_pseudo.h - pseudo-instructions of GNU as, expanded to table ones ===//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "asm_internal.h"

namespace opforge::isa::asmimpl {

// Bytes a pseudo-instruction statement needs, or nullopt if the mnemonic is
// not a pseudo-instruction (or this operand count is the real form).
std::optional<uint64_t> pseudo_size(const Assembler &as, const Stmt &st);
// Encode a pseudo-instruction; false if `st` is not one.
bool expand_pseudo(Assembler &as, const Stmt &st);

// Encode one table instruction at byte `at` of the statement (asm_insn.cpp).
void encode_real(Assembler &as, const Stmt &st, uint64_t at, const std::string &mnemonic,
                 const std::vector<Operand> &ops);

// `.insn` in its raw and r/i/s/b/u/j forms (asm_insn_directive.cpp).
void emit_insn_directive(Assembler &as, const Stmt &st);

// The instruction sequence `li` uses for a 64-bit constant, as
// (mnemonic, operands) with `rd` the destination register text.
std::vector<std::pair<std::string, std::vector<std::string>>> li_sequence(const std::string &rd,
                                                                          int64_t value);

}  // namespace opforge::isa::asmimpl
