//===- harness_triage.cpp - `opforge triage`: why a sweep point is slow ---===//
#include <cmath>
#include <cstdio>
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge triage RESULTS.h5 --point N\n\n"
    "Explain one point of a sweep: the bottleneck unit, utilization per unit,\n"
    "stall breakdown, distance from the roofline and the top three suggestions\n"
    "(definitions in docs/results.md).\n";

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%5.1f%%", 100 * x);
  return b;
}

int run_triage(const std::vector<std::string> &args) {
  std::string file;
  long point = -1;
  OptionParser p("triage", kUsage);
  p.number("point", &point, "", Sign::NonNegative).positional("results file", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (file.empty() || point < 0) return usage_error("triage", "needs RESULTS.h5 --point N");
  try {
    harness::PointResult r = harness::read_result_point(file, size_t(point));
    std::cout << "point " << r.index << " (" << r.workload << ")";
    for (auto it = r.axis_values.begin(); it != r.axis_values.end(); ++it)
      std::cout << " " << it.key() << "=" << it.value().dump();
    std::cout << ": " << r.status;
    if (r.status != "ok" && r.counters.empty()) {
      std::cout << "\n  reason: " << r.reason << "\n";
      return kExitFailure;
    }
    harness::PointAnalysis a = harness::analyze_point(r);
    std::cout << ", " << r.cycles << " cycles, " << r.instructions << " instructions\n";
    if (r.status != "ok") std::cout << "  reason: " << r.reason << "\n";
    std::cout << "\n";
    std::cout << "bottleneck: " << a.bottleneck << "\n\nutilization per unit:\n";
    for (const auto &u : a.units)
      std::cout << "  " << u.unit << std::string(6 - std::min<size_t>(6, u.unit.size()), ' ')
                << pct(u.utilization) << "   " << u.detail << "\n";
    std::cout << "\nstall breakdown (summed over PEs, share of PE cycles):\n";
    double pe_cycles = std::max(1.0, double(r.cycles));
    double pes = 1;
    try {
      pes = r.config.at("pe_grid").at("rows").get<double>() *
            r.config.at("pe_grid").at("cols").get<double>();
    } catch (const std::exception &) {
    }
    if (a.stalls.empty()) std::cout << "  (no stall counters)\n";
    for (const auto &[n, v] : a.stalls)
      std::cout << "  " << n << std::string(n.size() < 20 ? 20 - n.size() : 1, ' ') << v
                << " cycles  " << pct(double(v) / (pe_cycles * pes)) << "\n";
    std::cout << "\nmemory traffic: local " << a.lmem_bytes << " B, DMA " << a.dma_bytes
              << " B, NoC " << a.noc_bytes << " B, SRAM " << a.sram_bytes << " B, DRAM "
              << a.dram_bytes << " B";
    if (a.sram_hit_rate >= 0) std::cout << ", SRAM hit rate " << pct(a.sram_hit_rate);
    std::cout << "\n\nroofline: bound by " << a.bound << " at " << std::llround(a.roofline_cycles)
              << " cycles (DRAM " << std::llround(a.dram_bound_cycles) << ", DPE "
              << std::llround(a.dpe_bound_cycles) << ", issue "
              << std::llround(a.issue_bound_cycles) << "); the point runs at "
              << pct(a.roofline_fraction) << " of the roofline ("
              << (a.roofline_fraction > 0 ? 1 / a.roofline_fraction : 0) << "x from it)\n";
    if (!r.ops.empty()) {
      std::cout << "\nops (" << r.ops.size() << "):\n";
      for (const auto &o : r.ops)
        std::cout << "  " << o.status << " " << o.cycles << " cycles  " << o.call
                  << (o.reason.empty() ? "" : "  -- " + o.reason) << "\n";
    }
    std::cout << "\nsuggestions:\n";
    if (a.suggestions.empty()) std::cout << "  (none: no unit is near its limit)\n";
    for (size_t i = 0; i < a.suggestions.size(); ++i)
      std::cout << "  " << i + 1 << ". " << a.suggestions[i] << "\n";
    return kExitOk;
  } catch (const std::exception &e) {
    std::cerr << "opforge triage: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{
    {"triage", "explain a sweep point: bottleneck, utilization, stalls, roofline, suggestions",
     run_triage}};

}  // namespace
}  // namespace opforge::cli
