//===- isa_sim.cpp - `opforge sim PROGRAM.elf`: run a RISC-V program on the ISS ===//
#include <cstdio>
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/isa/iss.h"
#include "opforge/support/error.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge sim PROGRAM.elf [--vlen BITS] [--max-insns N] [--trace] [--isa-string ISA]\n\n"
    "Run a static RV64 ELF program on the instruction-set simulator (flat memory,\n"
    "functional DMA/DPE) and print the exit verdict, instructions retired and the\n"
    "final PC. Verdicts: PASS/FAIL (HTIF tohost), DONE (xmtia.done), TRAP (an\n"
    "exception without a handler), LIMIT (--max-insns reached).\n\n"
    "  --vlen BITS        vector register length, power of two 128..4096 (default 128)\n"
    "  --max-insns N      stop after N instructions (default 2000000000)\n"
    "  --trace            print every instruction (pc, encoding, mnemonic) to stdout\n"
    "  --isa-string ISA   check the program's ISA, e.g. rv64imafdv_zicsr_zifencei_xmtia\n"
    "Exit status: 0 for PASS/DONE, 1 otherwise, 2 for usage errors.\n";

bool parse_u64(const std::string &s, uint64_t &out) {
  if (s.empty()) return false;
  try {
    size_t used = 0;
    out = std::stoull(s, &used, 0);
    return used == s.size() && s[0] != '-';
  } catch (...) {
    return false;
  }
}

int run_sim(const std::vector<std::string> &args) {
  // With --arch the program runs on the chip model (`opforge chip-sim`).
  for (const auto &a : args)
    if (a == "--arch")
      for (const auto &c : commands())
        if (c.name == "chip-sim") return c.run(args);
  isa::SimOptions opt;
  std::string program;
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string &a = args[k];
    auto value = [&](const char *name) -> const std::string * {
      if (k + 1 >= args.size()) return nullptr;
      (void)name;
      return &args[++k];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return kExitOk;
    } else if (a == "--vlen") {
      const std::string *v = value("--vlen");
      uint64_t bits = 0;
      if (!v || !parse_u64(*v, bits) || bits < 128 || bits > 4096 || (bits & (bits - 1)))
        return usage_error("sim", "--vlen needs a power of two in 128..4096");
      opt.vlen_bits = static_cast<uint32_t>(bits);
    } else if (a == "--max-insns") {
      const std::string *v = value("--max-insns");
      if (!v || !parse_u64(*v, opt.max_instructions) || opt.max_instructions == 0)
        return usage_error("sim", "--max-insns needs a positive integer");
    } else if (a == "--trace") {
      opt.trace = &std::cout;
    } else if (a == "--isa-string") {
      const std::string *v = value("--isa-string");
      if (!v) return usage_error("sim", "--isa-string needs a value");
      opt.isa_string = *v;
      try {
        isa::check_isa_string(opt.isa_string);
      } catch (const Error &e) {
        return usage_error("sim", e.message());
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("sim", "unknown option '" + a + "'");
    } else if (program.empty()) {
      program = a;
    } else {
      return usage_error("sim", "more than one program given ('" + program + "', '" + a + "')");
    }
  }
  if (program.empty()) return usage_error("sim", "no program given");

  const isa::ElfImage image = isa::read_elf(program);
  const isa::SimResult r = isa::run_elf_functional(image, opt);
  char pc[32];
  std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(r.final_pc));
  std::cout << "verdict: " << isa::verdict_name(r.verdict) << "\n"
            << "detail: " << r.message << "\n"
            << "instructions: " << r.instructions << "\n"
            << "final pc: " << pc << "\n";
  return r.ok() ? kExitOk : kExitFailure;
}

CommandRegistrar reg{{"sim", "run a RISC-V ELF program on the instruction-set simulator", run_sim}};
}  // namespace
}  // namespace opforge::cli
