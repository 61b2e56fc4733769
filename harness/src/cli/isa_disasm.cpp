//===- isa_disasm.cpp - `opforge disasm`: objdump-style listing of a file --===//
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/isa/disasm.h"
#include "options.h"

namespace opforge::cli {
namespace {

const char *const kUsage =
    "usage: opforge disasm FILE [--base ADDR]\n\n"
    "Disassemble a RISC-V ELF64 file (every executable section, with symbols) or a raw\n"
    "little-endian binary (starting at --base, default 0) in the syntax of\n"
    "'riscv64-unknown-elf-objdump -d -M no-aliases'.\n";

int run_disasm(const std::vector<std::string> &args) {
  std::string input;
  uint64_t base = 0;
  OptionParser p("disasm", kUsage);
  p.number("base", &base).positional("input file", &input);
  if (auto rc = p.parse(args)) return *rc;
  if (input.empty()) return usage_error("disasm", "no input file");
  std::cout << isa::disassemble_file(input, base);
  return kExitOk;
}

CommandRegistrar reg{
    {"disasm", "disassemble a RISC-V ELF file or raw binary (objdump syntax)", run_disasm}};

}  // namespace
}  // namespace opforge::cli
