//===- harness_report.cpp - `opforge report`: table across sweep points ---===//
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge report RESULTS.h5 [--ops]\n\n"
    "Print a table across the points of a sweep: swept fields, status, cycles,\n"
    "simulated time, speedup against the first successful point of the same\n"
    "workload, instructions, utilization per unit, bytes per memory level, SRAM\n"
    "hit rate, roofline fraction and the reason of failed points. Then, where\n"
    "they apply: a workload x sweep-value grid (status, cycles, change against\n"
    "the first value), memory-system counters (DRAM channels, SRAM banks, NoC\n"
    "links) and, for points with several ATen calls (traces), cycles per\n"
    "overload and the total simulated time. --ops also lists every call.\n";

int run_report(const std::vector<std::string> &args) {
  std::string file;
  bool all_calls = false;
  OptionParser p("report", kUsage);
  p.flag("ops", &all_calls).positional("RESULTS.h5", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (file.empty()) return usage_error("report", "no results file given");
  try {
    std::cout << harness::format_report(file, all_calls);
    return kExitOk;
  } catch (const std::exception &e) {
    std::cerr << "opforge report: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{{"report", "print a comparison table of a sweep's results", run_report}};

}  // namespace
}  // namespace opforge::cli
