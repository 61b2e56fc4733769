//===- main.cpp - the opforge command-line tool ----------------------------===//
#include <algorithm>
#include <iostream>

#include "opforge/harness/cli.h"
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
  std::cout << "\nRun 'opforge <command> --help' for a command's options.\n";
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
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
    } catch (const std::exception &e) {
      std::cerr << "opforge " << name << ": internal error: " << e.what() << "\n";
      return cli::kExitFailure;
    }
  }
  std::cerr << "opforge: error: unknown command '" << name << "'\n"
            << "usage: opforge [--log-level LEVEL] <command> [options]; see 'opforge --help'\n";
  return cli::kExitUsage;
}
