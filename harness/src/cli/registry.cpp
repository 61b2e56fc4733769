//===- registry.cpp - subcommand registry for the opforge CLI -------------===//
#include <iostream>

#include "opforge/harness/cli.h"

namespace opforge::cli {

static std::vector<Command> &registry() {
  static std::vector<Command> r;
  return r;
}

void register_command(Command cmd) { registry().push_back(std::move(cmd)); }
const std::vector<Command> &commands() { return registry(); }

int usage_error(const std::string &command, const std::string &message) {
  std::cerr << "opforge " << command << ": error: " << message << "\n"
            << "usage: see 'opforge " << command << " --help'\n";
  return kExitUsage;
}

}  // namespace opforge::cli
