//===- main.cpp - the opforge command-line tool ----------------------------===//
#include <algorithm>
#include <iostream>
#include <new>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "opforge/harness/cli.h"
#include "opforge/isa/extension.h"
#include "opforge/support/budgets.h"
#include "opforge/support/error.h"
#include "opforge/support/log.h"

using namespace opforge;

static void print_help() {
  std::cout
      << "opforge - Triton kernels for an MTIA-class accelerator, proven on its SystemC model\n\n"
         "usage: opforge [--log-level LEVEL] <command> [options]\n\ncommands:\n";
  auto cmds = cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto &a, auto &b) { return a.name < b.name; });
  for (const auto &c : cmds) {
    std::string pad(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ');
    std::cout << "  " << c.name << pad << c.summary << "\n";
  }
  std::cout << "\nRun 'opforge <command> --help' for a command's options.\n"
               "\nBudgets for untrusted work (any command, before or after its name; inherited by\n"
               "the processes it starts through OPFORGE_BUDGETS; docs/library.md):\n"
            << budget_options_help()
            << "\nISA extensions (any command, before or after its name; inherited through\n"
               "OPFORGE_ISA_EXT, paths separated by ':'; docs/isa/extensions.md):\n"
               "  --isa-ext FILE    load the extension instructions of FILE (repeatable)\n";
}

// Budget options from OPFORGE_BUDGETS (set by a parent opforge), then from the command line
// (removed from `args`); the result is exported again for child processes. Returns an error
// message, or "".
static std::string take_budget_options(std::vector<std::string> &args) {
  Budgets b;
  try {
    if (const char *env = std::getenv("OPFORGE_BUDGETS")) {
      std::vector<std::string> words;
      std::istringstream in(env);
      for (std::string w; in >> w;) words.push_back(w);
      for (size_t i = 0; i < words.size(); ++i)
        if (!parse_budget_option(words, i, b))
          return "OPFORGE_BUDGETS: unknown budget option '" + words[i] + "'";
    }
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i)
      if (!parse_budget_option(args, i, b)) rest.push_back(args[i]);
    args = std::move(rest);
  } catch (const Error &e) {
    return e.message();
  }
  set_budgets(b);
  std::string exported;
  for (const auto &o : Budgets::options())
    exported +=
        std::string(exported.empty() ? "" : " ") + o.name + "=" + std::to_string(b.*o.field);
  ::setenv("OPFORGE_BUDGETS", exported.c_str(), 1);
  return "";
}

// ISA extension files from OPFORGE_ISA_EXT (set by a parent opforge), then --isa-ext FILE
// anywhere on the command line (removed from `args`); all are registered, and exported
// again as absolute paths for child processes (sweep points). Returns the exit code on
// an error, or -1.
static int take_isa_ext_options(std::vector<std::string> &args) {
  std::vector<std::string> paths, rest;
  if (const char *env = std::getenv("OPFORGE_ISA_EXT")) {
    std::string list(env);
    for (size_t i = 0; i <= list.size();) {
      size_t j = std::min(list.find(':', i), list.size());
      if (j > i) paths.push_back(list.substr(i, j - i));
      i = j + 1;
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--isa-ext") {
      if (i + 1 >= args.size()) return cli::usage_error("", "--isa-ext needs a FILE");
      paths.push_back(args[++i]);
    } else if (args[i].starts_with("--isa-ext=")) {
      paths.push_back(args[i].substr(10));
    } else {
      rest.push_back(args[i]);
    }
  }
  args = std::move(rest);
  if (paths.empty()) return -1;
  std::string exported;
  for (std::string &p : paths) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(p, ec);
    if (!ec) p = abs.lexically_normal().string();
    exported += (exported.empty() ? "" : ":") + p;
  }
  try {
    isa::register_extension_files(paths);
  } catch (const Error &e) {
    std::cerr << "opforge: error: " << e.what() << "\n";
    return cli::kExitFailure;
  }
  ::setenv("OPFORGE_ISA_EXT", exported.c_str(), 1);
  return -1;
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (std::string why = take_budget_options(args); !why.empty()) return cli::usage_error("", why);
  if (int rc = take_isa_ext_options(args); rc >= 0) return rc;
  // Global options before the command.
  size_t i = 0;
  while (i < args.size() && args[i].starts_with("-")) {
    if (args[i] == "--help" || args[i] == "-h") {
      print_help();
      return cli::kExitOk;
    }
    std::string level;
    if (args[i] == "--log-level" && i + 1 < args.size()) {
      level = args[i + 1];
      i += 2;
    } else if (args[i].starts_with("--log-level=")) {
      level = args[i].substr(12);
      i += 1;
    } else {
      return cli::usage_error("", "unknown option '" + args[i] + "'");
    }
    if (!log::set_level_from_string(level))
      return cli::usage_error(
          "", "bad --log-level '" + level + "' (expected trace, debug, info, warn, error, off)");
  }
  if (i >= args.size()) {
    print_help();
    return cli::kExitUsage;
  }
  const std::string name = args[i];
  std::vector<std::string> rest(args.begin() + static_cast<long>(i) + 1, args.end());
  for (const auto &c : cli::commands()) {
    if (c.name != name) continue;
    try {
      return c.run(rest);
    } catch (const Error &e) {
      std::cerr << "opforge " << name << ": error: " << e.what() << "\n";
      return cli::kExitFailure;
    } catch (const std::bad_alloc &) {
      std::cerr << "opforge " << name
                << ": error: out of memory (this process could not allocate what the command "
                   "needed; the budget options bound untrusted work, see 'opforge --help', and "
                   "'ulimit -v' bounds the process)\n";
      return cli::kExitFailure;
    } catch (const std::exception &e) {
      std::cerr << "opforge " << name << ": internal error: " << e.what() << "\n";
      return cli::kExitFailure;
    }
  }
  std::cerr << "opforge: error: unknown command '" << name << "'\n"
            << "usage: opforge [--log-level LEVEL] <command> [options]; see 'opforge --help'\n";
  return cli::kExitUsage;
}
