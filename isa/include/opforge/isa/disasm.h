//===- disasm.h - instruction words and ELF files to objdump-style text ----===//
//
// Text matches `riscv64-unknown-elf-objdump -d -M no-aliases` (binutils
// 2.40): "mnemonic<TAB>operands" with ABI register names; words no table
// entry matches print as ".4byte<TAB>0x<hex>".
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace opforge::isa {

// Optional symbolizer for branch/jump targets: returns e.g. "loop" or
// "foo+0x8" for an address, or nullopt.
using Symbolizer = std::function<std::optional<std::string>(uint64_t addr)>;

// One instruction. `pc` is its address. Branch and jump targets print as
// absolute addresses like objdump: "0x1f0" when there is no symbolizer,
// "1f0 <loop+0x8>" with one (just "1f0" when it finds no symbol).
std::string disassemble(uint32_t word, uint64_t pc = 0, const Symbolizer &sym = {});

// A listing in objdump -d layout. ELF64 RISC-V files (relocatable or
// executable): every executable section, with symbol labels. Anything else
// is disassembled as a raw little-endian binary starting at `raw_base`.
// Throws opforge::Error naming the file for unreadable or malformed input.
std::string disassemble_file(const std::string &path, uint64_t raw_base = 0);
// Same for bytes already in memory (`name` is used in messages and header).
std::string disassemble_bytes(const std::vector<uint8_t> &bytes, const std::string &name,
                              uint64_t raw_base = 0);

}  // namespace opforge::isa
