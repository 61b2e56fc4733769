//===- plot_script.cpp - where the matplotlib plotting script lives -------===//
#include <cstdlib>

#include "opforge/harness/results.h"

namespace opforge::harness {

std::string plot_script_path() {
  if (const char *env = std::getenv("OPFORGE_PLOT_SCRIPT"); env && *env) return env;
#ifdef OPFORGE_SOURCE_DIR
  return std::string(OPFORGE_SOURCE_DIR) + "/scripts/plot-results.py";
#else
  return "scripts/plot-results.py";
#endif
}

}  // namespace opforge::harness
