//===- iss.h - run a RISC-V program to a verdict -----------------------------===//
//
// The ISS's top level, independent of where memory and accelerators live:
// run_program() loads an ElfImage through any MemoryIf, runs one Hart
// against any AcceleratorIf and turns the stop reason into a verdict (HTIF
// tohost: 1 = pass, (n<<1)|1 = fail code n; xmtia.done; trap; limit).
// `opforge sim` uses it with FlatMemory + FunctionalAccelerator; the chip
// model can call it with its own adapters.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "opforge/isa/elf_loader.h"
#include "opforge/isa/hart.h"

namespace opforge::isa {

struct SimOptions {
  uint32_t vlen_bits = 128;
  uint64_t max_instructions = 2'000'000'000ull;
  std::string isa_string;         // empty: everything the ISS implements; no 'c': RVC is illegal
  std::ostream *trace = nullptr;  // one line per instruction when set
  CostModel cost;
  XmtiaIds xmtia;
  uint64_t stack_top = 0;  // sp at entry; 0: leave sp = 0
  // Called after the hart is set up and before it runs (extra set-up, hooks).
  std::function<void(Hart &)> prepare;
};

enum class Verdict { Pass, Fail, Done, Trap, InsnLimit, Unsupported, Wfi };
const char *verdict_name(Verdict v);

struct SimResult {
  Verdict verdict = Verdict::Trap;
  uint64_t fail_code = 0;     // Verdict::Fail
  uint64_t tohost_value = 0;  // the raw value written to tohost
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  uint64_t final_pc = 0;
  TrapInfo trap;        // Verdict::Trap
  std::string message;  // one line for people
  bool ok() const { return verdict == Verdict::Pass || verdict == Verdict::Done; }
};

// Every mnemonic with a semantics body, sorted (coverage checks against
// the tables: each table entry must have one and vice versa), including the
// registered ISA extension instructions (extension.h).
std::vector<std::string> semantics_mnemonics();

// Validate an ISA string such as "rv64imafdv_zicsr_zifencei_zvfbfmin_xmtia"
// (or "rv64gv") against what the ISS implements; throws opforge::Error.
void check_isa_string(const std::string &isa);

// Load `image` into `mem`, run from its entry point, report the verdict.
SimResult run_program(const ElfImage &image, MemoryIf &mem, AcceleratorIf &accel,
                      const SimOptions &opt);

// Convenience: a FlatMemory spanning the image plus `extra_bytes` above it
// (stack at the top), a FunctionalAccelerator, then run_program().
SimResult run_elf_functional(const ElfImage &image, const SimOptions &opt,
                             uint64_t extra_bytes = 16ull << 20);

}  // namespace opforge::isa
