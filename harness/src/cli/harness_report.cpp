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
    "hit rate and roofline fraction. Then the failed points with their whole\n"
    "reason (wrapped, never cut); per point, the fields of its resolved config\n"
    "that differ from the scenario's base (arch preset + overrides), as\n"
    "field=value; and, where they apply: a workload x sweep-value grid (status,\n"
    "cycles, change against the first value), memory-system counters (DRAM\n"
    "channels, SRAM banks, NoC links) and, for points with several ATen calls\n"
    "(traces), cycles per overload and the total simulated time. --ops also\n"
    "lists every call.\n";

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
