//===- isa_asm.cpp - `opforge asm`: assemble to an ELF object or executable ===//
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "opforge/harness/cli.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

const char *const kUsage =
    "usage: opforge asm FILE.s -o OUT [--text-base ADDR] [--entry SYMBOL] [--march ISA]\n\n"
    "Assemble RISC-V (RV64IMAFDC, Zicsr, Zifencei, Zfh, V, Zvfbfmin, Xmtia) source in GNU as\n"
    "syntax. --march rv64gc (any ISA string with C) accepts compressed c.* mnemonics from the\n"
    "start, as `.option rvc` does; base instructions are never compressed.\n"
    "OUT ending in .o is a relocatable ELF64 object; anything else (e.g. .elf) is a linked\n"
    "static executable with .text at --text-base (default 0x80000000) and entry at --entry\n"
    "(default _start).\n";

int run_asm(const std::vector<std::string> &args) {
  std::string input, output, entry = "_start", march;
  uint64_t base = 0x80000000;
  OptionParser p("asm", kUsage);
  p.text(",o", &output)
      .number("text-base", &base)
      .text("entry", &entry)
      .text("march", &march)
      .positional("input file", &input);
  if (auto rc = p.parse(args)) return *rc;
  if (input.empty()) return usage_error("asm", "no input file");
  if (output.empty()) return usage_error("asm", "no output file (-o)");
  std::ifstream in(input, std::ios::binary);
  if (!in)
    throw Error("cannot open file",
                ErrorContext{input, "", std::nullopt, std::nullopt, std::nullopt});
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  isa::AsmOptions asm_options;
  if (!march.empty()) {
    if (march.rfind("rv64", 0) != 0)
      return usage_error("asm", "--march '" + march + "' must start with rv64");
    const std::string letters = march.substr(4, march.find('_') - 4);
    asm_options.rvc = letters.find('c') != std::string::npos;
  }
  const isa::AsmUnit unit = isa::assemble(source, input, asm_options);
  std::vector<uint8_t> bytes;
  const bool object = output.size() > 2 && output.compare(output.size() - 2, 2, ".o") == 0;
  if (object) {
    bytes = isa::write_object(unit);
  } else {
    isa::LinkOptions opts;
    opts.text_base = base;
    opts.entry_symbol = entry;
    bytes = isa::link_executable(unit, opts);
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out)
    throw Error("cannot create output file",
                ErrorContext{output, "", std::nullopt, std::nullopt, std::nullopt});
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out)
    throw Error("write error", ErrorContext{output, "", std::nullopt, std::nullopt, std::nullopt});
  if (!object) {
    std::error_code ec;  // like ld: executables get the x bits
    std::filesystem::permissions(output,
                                 std::filesystem::perms::owner_exec |
                                     std::filesystem::perms::group_exec |
                                     std::filesystem::perms::others_exec,
                                 std::filesystem::perm_options::add, ec);
  }
  return kExitOk;
}

CommandRegistrar reg{
    {"asm", "assemble RISC-V/RVV/Xmtia source to an ELF object or executable", run_asm}};

}  // namespace
}  // namespace opforge::cli
