//===- harness_report.cpp - `opforge report`: table across sweep points ---===//
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/support/error.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge report RESULTS.h5\n\n"
    "Print a table across the points of a sweep: swept fields, status, cycles,\n"
    "speedup against the first successful point of the same workload,\n"
    "instructions, DMA and DRAM bytes, DPE MACs, SRAM hits/misses, and the\n"
    "reason of failed points.\n";

int run_report(const std::vector<std::string> &args) {
  std::string file;
  for (const auto &a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return kExitOk;
    }
    if (!a.empty() && a[0] == '-') return usage_error("report", "unknown option '" + a + "'");
    if (!file.empty()) return usage_error("report", "more than one results file given");
    file = a;
  }
  if (file.empty()) return usage_error("report", "no results file given");
  try {
    std::cout << harness::format_report(file);
    return kExitOk;
  } catch (const std::exception &e) {
    std::cerr << "opforge report: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{{"report", "print a comparison table of a sweep's results", run_report}};

}  // namespace
}  // namespace opforge::cli
