//===- version.cpp - `opforge version` -------------------------------------===//
#include <iostream>

#include "opforge/harness/cli.h"
#include "options.h"

#ifndef OPFORGE_VERSION
#define OPFORGE_VERSION "unknown"
#endif
#ifndef OPFORGE_GIT_SHA
#define OPFORGE_GIT_SHA "unknown"
#endif

namespace opforge::cli {
namespace {
int run_version(const std::vector<std::string> &args) {
  OptionParser p("version",
                 "usage: opforge version\n\nPrint opforge's version and the git commit it was "
                 "built from.\n");
  if (auto rc = p.parse(args)) return *rc;
  std::cout << "opforge " << OPFORGE_VERSION << " (" << OPFORGE_GIT_SHA << ")\n";
  return kExitOk;
}
CommandRegistrar reg{{"version", "print the version and git commit", run_version}};
}  // namespace
}  // namespace opforge::cli
