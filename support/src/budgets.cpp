//===- budgets.cpp - the process's limits on untrusted work and their options ===//
#include "opforge/support/budgets.h"

#include <cerrno>
#include <cstdlib>

#include "opforge/support/error.h"

namespace opforge {

namespace {
Budgets &current() {
  static Budgets b;
  return b;
}
}  // namespace

const std::vector<Budgets::Option> &Budgets::options() {
  static const std::vector<Option> opts = {
      {"--max-wrapper-steps", &Budgets::wrapper_steps,
       "wrapper interpreter: statements, calls and sequence elements built per wrapper call"},
      {"--max-wrapper-bytes", &Budgets::wrapper_bytes,
       "wrapper interpreter: bytes of tensors one wrapper call allocates"},
      {"--max-launches", &Budgets::launches, "kernel launches per wrapper call"},
      {"--max-grid-programs", &Budgets::grid_programs, "programs in one launch grid"},
      {"--max-interp-steps", &Budgets::interp_steps,
       "IR interpreter: block elements processed per launch"},
      {"--max-interp-block-bytes", &Budgets::interp_block_bytes,
       "IR interpreter: bytes of one block value"},
      {"--max-block-elements", &Budgets::block_elements,
       "compiler: elements of one block (checked before code generation)"},
      {"--max-elf-segment-bytes", &Budgets::elf_segment_bytes,
       "ELF loader: bytes of one loadable segment (p_memsz)"},
  };
  return opts;
}

std::string Budgets::option_name(int64_t Budgets::*field) {
  for (const auto &o : options())
    if (o.field == field) return o.name;
  return "?";
}

const Budgets &budgets() { return current(); }
void set_budgets(const Budgets &b) { current() = b; }

std::string budget_exceeded(const std::string &where, const std::string &what,
                            int64_t Budgets::*field, const std::string &unit) {
  return where + ": " + what + " of " + std::to_string(budgets().*field) +
         (unit.empty() ? "" : " " + unit) + " exceeded (" +
         Budgets::option_name(field) + ")";
}

bool parse_budget_option(const std::vector<std::string> &args, size_t &i, Budgets &b) {
  const std::string &a = args[i];
  for (const auto &o : Budgets::options()) {
    const std::string name = o.name;
    std::string text;
    if (a == name) {
      if (i + 1 >= args.size()) throw Error("option " + name + " needs a value");
      text = args[++i];
    } else if (a.rfind(name + "=", 0) == 0) {
      text = a.substr(name.size() + 1);
    } else {
      continue;
    }
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v <= 0)
      throw Error("option " + name + " needs a positive integer, got '" +
                  text.substr(0, 40) + "'");
    b.*o.field = v;
    return true;
  }
  return false;
}

std::string budget_options_help() {
  const Budgets defaults;
  std::string out;
  for (const auto &o : Budgets::options()) {
    std::string line = std::string("  ") + o.name + " N";
    if (line.size() < 28) line.append(28 - line.size(), ' ');
    out += line + o.help + " (default " + std::to_string(defaults.*o.field) + ")\n";
  }
  return out;
}

}  // namespace opforge
