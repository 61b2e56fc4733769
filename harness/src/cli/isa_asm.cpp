//===- isa_asm.cpp - `opforge asm`: assemble to an ELF object or executable ===//
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "opforge/harness/cli.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"

namespace opforge::cli {
namespace {

const char *const kUsage =
    "usage: opforge asm FILE.s -o OUT [--text-base ADDR] [--entry SYMBOL]\n\n"
    "Assemble RISC-V (RV64IMAFD, Zicsr, Zifencei, V, Zvfbfmin, Xmtia) source in GNU as syntax.\n"
    "OUT ending in .o is a relocatable ELF64 object; anything else (e.g. .elf) is a linked\n"
    "static executable with .text at --text-base (default 0x80000000) and entry at --entry\n"
    "(default _start).\n";

int run_asm(const std::vector<std::string> &args) {
  std::string input, output, entry = "_start";
  uint64_t base = 0x80000000;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const char *opt) -> const std::string * {
      if (i + 1 >= args.size()) return nullptr;
      (void)opt;
      return &args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return kExitOk;
    } else if (a == "-o") {
      const std::string *v = value("-o");
      if (!v) return usage_error("asm", "-o needs a file name");
      output = *v;
    } else if (a == "--text-base") {
      const std::string *v = value("--text-base");
      if (!v) return usage_error("asm", "--text-base needs an address");
      try {
        size_t used = 0;
        base = std::stoull(*v, &used, 0);
        if (used != v->size()) throw std::invalid_argument("trailing");
      } catch (const std::exception &) {
        return usage_error("asm", "bad --text-base '" + *v + "'");
      }
    } else if (a == "--entry") {
      const std::string *v = value("--entry");
      if (!v) return usage_error("asm", "--entry needs a symbol");
      entry = *v;
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("asm", "unknown option '" + a + "'");
    } else if (input.empty()) {
      input = a;
    } else {
      return usage_error("asm", "more than one input file");
    }
  }
  if (input.empty()) return usage_error("asm", "no input file");
  if (output.empty()) return usage_error("asm", "no output file (-o)");
  std::ifstream in(input, std::ios::binary);
  if (!in)
    throw Error("cannot open file",
                ErrorContext{input, "", std::nullopt, std::nullopt, std::nullopt});
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const isa::AsmUnit unit = isa::assemble(source, input);
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
