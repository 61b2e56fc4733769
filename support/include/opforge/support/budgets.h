//===- budgets.h - limits on untrusted work: steps, bytes, grids, launches, blocks ===//
//
// Generated code is data: a wrapper, a kernel or a program may loop forever or
// ask for more memory than the host has. Every interpreter, compiler stage and
// simulator that runs it checks one of these budgets and, when it is exceeded,
// fails with an opforge::Error naming the budget and its command-line option:
//   "wrapper interpreter: step budget of 10000000 exceeded (--max-wrapper-steps)"
// The process holds one Budgets (set from the command line before any work
// starts; read-only afterwards, so threads may read it freely). The options,
// defaults and where each is checked are documented in docs/library.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace opforge {

struct Budgets {
  // Wrapper interpreter, per wrapper call: statements, calls and sequence
  // elements built (a list of n items costs n steps, so steps also bound the
  // interpreter's own memory).
  int64_t wrapper_steps = 2'000'000;
  // Bytes of tensors one wrapper call allocates (device memory; host memory on the
  // IR interpreter).
  int64_t wrapper_bytes = int64_t{1} << 30;
  // Kernel launches one wrapper call makes.
  int64_t launches = 10'000;
  // Programs in one launch grid (x * y * z).
  int64_t grid_programs = int64_t{1} << 24;
  // IR interpreter, per launch: block elements processed by executed ops (an op on
  // a block of 1024 elements costs 1024 + 16, a dot also its multiply-adds).
  int64_t interp_steps = 1'000'000'000;
  // IR interpreter: bytes of one block value.
  int64_t interp_block_bytes = int64_t{256} << 20;
  // Compiler: elements of one block type (checked before code generation).
  int64_t block_elements = int64_t{1} << 20;
  // ELF loader: bytes of one loadable segment in memory (p_memsz).
  int64_t elf_segment_bytes = int64_t{1} << 30;

  struct Option {
    const char *name;     // "--max-wrapper-steps"
    int64_t Budgets::*field;
    const char *help;     // one line, with the unit
  };
  static const std::vector<Option> &options();
  // The option that sets `field` ("--max-wrapper-steps").
  static std::string option_name(int64_t Budgets::*field);
};

// The process's budgets.
const Budgets &budgets();
void set_budgets(const Budgets &b);

// "wrapper interpreter: step budget of 10000000 exceeded (--max-wrapper-steps)";
// `where` names the part ("wrapper interpreter"), `what` the budget ("step budget"),
// `unit` follows the number ("bytes"; may be empty).
std::string budget_exceeded(const std::string &where, const std::string &what,
                            int64_t Budgets::*field, const std::string &unit = "");

// Command-line parsing shared by the commands: when args[i] is a budget option
// ("--max-X N" or "--max-X=N"), stores it in `b`, advances i past its value and
// returns true; throws opforge::Error for a missing or non-positive value.
bool parse_budget_option(const std::vector<std::string> &args, size_t &i, Budgets &b);
// Lines for a command's usage text, one per budget option with its default.
std::string budget_options_help();

}  // namespace opforge
