//===- elf_loader.h - static RISC-V ELF64 executables for the ISS ----------===//
//
// Reads a static little-endian ELF64 EM_RISCV executable, validates every
// header and offset against the file size, and loads its PT_LOAD segments
// through MemoryIf. Symbols `tohost` and `fromhost` (HTIF) are looked up in
// .symtab. Malformed, truncated or non-RISC-V input throws opforge::Error
// naming the file and the problem.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "opforge/isa/memory_if.h"

namespace opforge::isa {

struct ElfSegment {
  uint64_t vaddr = 0;
  uint64_t memsz = 0;         // bytes in memory (>= data.size(); the rest is zero)
  uint32_t flags = 0;         // PF_X = 1, PF_W = 2, PF_R = 4
  std::vector<uint8_t> data;  // file contents (filesz bytes)
};

struct ElfImage {
  std::string path;  // for messages
  uint64_t entry = 0;
  std::vector<ElfSegment> segments;
  std::map<std::string, uint64_t> symbols;  // defined symbols from .symtab
  std::optional<uint64_t> tohost, fromhost;
  uint64_t low_addr() const;   // lowest segment address
  uint64_t high_addr() const;  // one past the highest segment byte
};

// Parse bytes of an ELF file; `name` is used in error messages.
ElfImage parse_elf(std::span<const uint8_t> bytes, const std::string &name);
// Read and parse a file.
ElfImage read_elf(const std::string &path);
// Copy every segment into memory (zero-filling memsz beyond the file data).
void load_elf(const ElfImage &image, MemoryIf &mem);

}  // namespace opforge::isa
