//===- isa_disasm.cpp - `opforge disasm`: objdump-style listing of a file --===//
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/isa/disasm.h"

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
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return kExitOk;
    } else if (a == "--base") {
      if (i + 1 >= args.size()) return usage_error("disasm", "--base needs an address");
      const std::string &v = args[++i];
      try {
        size_t used = 0;
        base = std::stoull(v, &used, 0);
        if (used != v.size()) throw std::invalid_argument("trailing");
      } catch (const std::exception &) {
        return usage_error("disasm", "bad --base '" + v + "'");
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("disasm", "unknown option '" + a + "'");
    } else if (input.empty()) {
      input = a;
    } else {
      return usage_error("disasm", "more than one input file");
    }
  }
  if (input.empty()) return usage_error("disasm", "no input file");
  std::cout << isa::disassemble_file(input, base);
  return kExitOk;
}

CommandRegistrar reg{
    {"disasm", "disassemble a RISC-V ELF file or raw binary (objdump syntax)", run_disasm}};

}  // namespace
}  // namespace opforge::cli
