//===- isa_sim.cpp - `opforge sim PROGRAM.elf`: run a RISC-V program on the ISS ===//
#include <cstdio>
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/isa/iss.h"
#include "opforge/support/error.h"
#include "options.h"

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

int run_sim(const std::vector<std::string> &args) {
  // With --arch the program runs on the chip model (`opforge chip-sim`).
  for (const auto &a : args)
    if (a == "--arch" || a.starts_with("--arch="))
      for (const auto &c : commands())
        if (c.name == "chip-sim") return c.run(args);
  isa::SimOptions opt;
  std::string program;
  uint64_t vlen_bits = opt.vlen_bits;
  bool trace = false;
  OptionParser p("sim", kUsage);
  p.number("vlen", &vlen_bits)
      .number("max-insns", &opt.max_instructions, "", Sign::Positive)
      .flag("trace", &trace)
      .text("isa-string", &opt.isa_string)
      .positional("program", &program);
  if (auto rc = p.parse(args)) return *rc;
  if (vlen_bits < 128 || vlen_bits > 4096 || (vlen_bits & (vlen_bits - 1)))
    return p.error("--vlen needs a power of two in 128..4096, got " + std::to_string(vlen_bits));
  opt.vlen_bits = static_cast<uint32_t>(vlen_bits);
  if (trace) opt.trace = &std::cout;
  if (p.given("isa-string")) {
    try {
      isa::check_isa_string(opt.isa_string);
    } catch (const Error &e) {
      return p.error(e.message());
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
