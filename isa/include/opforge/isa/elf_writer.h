//===- elf_writer.h - AsmUnit to relocatable ELF64 objects or executables --===//
//
// write_object(): an ELF64 little-endian RISC-V relocatable object with
// .symtab and .rela sections (R_RISCV_*), readable by GNU binutils.
// link_executable(): a static ET_EXEC image, every fixup resolved, text at
// LinkOptions::text_base (default 0x80000000, the RISC-V test convention),
// other sections after it, entry at `_start` (else the start of .text), and
// a .symtab kept so tools (and the ISS's tohost lookup) see the symbols.
// Undefined symbols and out-of-range fixups are opforge::Error naming the
// source file:line:col of the reference.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/isa/asm.h"

namespace opforge::isa {

struct LinkOptions {
  uint64_t text_base = 0x80000000;
  std::string entry_symbol = "_start";
};

// The unit after layout: section addresses, fixups applied to the bytes.
struct LinkedImage {
  AsmUnit unit;                        // sections hold the final bytes
  std::vector<uint64_t> section_addr;  // per unit.sections
  uint64_t entry = 0;
  uint64_t symbol_address(const AsmSymbol &s) const;
};

LinkedImage link(const AsmUnit &unit, const LinkOptions &opts = {});
std::vector<uint8_t> link_executable(const AsmUnit &unit, const LinkOptions &opts = {});
std::vector<uint8_t> write_object(const AsmUnit &unit);

}  // namespace opforge::isa
