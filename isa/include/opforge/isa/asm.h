//===- asm.h - GNU as compatible assembler for opforge's RISC-V subset -----===//
//
// assemble() turns source text into sections, symbols and fixups (an
// AsmUnit); elf_writer.h writes that as a relocatable ELF64 object or links
// it into a static executable. Instruction encodings come from the tables
// (spec.h / encode.h); the syntax is GNU as's: labels (also numeric local
// labels 1: / 1b / 1f), # comments, the common directives, %hi/%lo/
// %pcrel_hi/%pcrel_lo, CSR names, rounding modes, v0.t masks, vtype strings
// the usual pseudo-instructions and `.insn`. Errors are opforge::Error with
// file:line:col; nothing is silently truncated.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace opforge::isa {

struct SourcePos {
  int line = 0;
  int col = 0;
};

// A location to patch once symbol addresses are known. `type` is an ELF
// R_RISCV_* relocation number (R_RISCV_BRANCH, R_RISCV_JAL, R_RISCV_CALL_PLT,
// R_RISCV_PCREL_HI20, R_RISCV_PCREL_LO12_I/S, R_RISCV_HI20, R_RISCV_LO12_I/S,
// R_RISCV_32, R_RISCV_64). For PCREL_LO12 the symbol is the label of the
// matching auipc, as in ELF.
struct Fixup {
  uint32_t type = 0;
  uint64_t offset = 0;  // within the section
  std::string symbol;
  int64_t addend = 0;
  SourcePos pos;
};

struct AsmSection {
  std::string name;    // ".text", ".data", ".rodata", ".bss", ...
  uint32_t type = 1;   // SHT_PROGBITS or SHT_NOBITS
  uint64_t flags = 0;  // SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR
  uint64_t align = 1;  // bytes
  std::vector<uint8_t> data;
  uint64_t nobits_size = 0;  // size of a SHT_NOBITS section
  std::vector<Fixup> fixups;
  uint64_t size() const { return type == 8 ? nobits_size : data.size(); }
};

struct AsmSymbol {
  std::string name;
  int section = -1;       // index into AsmUnit::sections; -1 undefined
  bool absolute = false;  // .equ/.set constant (section ignored)
  uint64_t value = 0;     // offset in section, or the constant
  bool global = false;
  uint8_t type = 0;  // STT_NOTYPE / STT_FUNC / STT_OBJECT from .type
  uint64_t size = 0;
  SourcePos pos;  // definition or first use
};

struct AsmUnit {
  std::string filename;
  std::vector<AsmSection> sections;
  std::vector<AsmSymbol> symbols;
  // Compressed instructions were enabled (.option rvc, AsmOptions::rvc): the
  // ELF says so (e_flags RVC, C in .riscv.attributes) for objdump and ld.
  bool rvc = false;
  const AsmSymbol *find_symbol(std::string_view name) const;
};

struct AsmOptions {
  // Start as after `.option rvc`: compressed c.* mnemonics accepted (like
  // GNU as -march=rv64gc, but base instructions are never compressed).
  bool rvc = false;
};

// Assemble one source file. Throws opforge::Error("file:line:col: ...").
AsmUnit assemble(std::string_view source, const std::string &filename,
                 const AsmOptions &options = {});

// Convenience for tests and tools: the bytes of .text of a source with no
// relocations left (branches/jumps to labels in .text resolve; anything
// needing a relocation is an error).
std::vector<uint8_t> assemble_text_bytes(std::string_view source,
                                         const std::string &filename = "<input>");

}  // namespace opforge::isa
