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
    "usage: opforge triage RESULTS.h5 [--point N] [--verify [--jobs J]]\n\n"
    "Explain one point of a sweep (0 unless --point says): the bottleneck unit,\n"
    "utilization per unit, where the PEs' cycles stalled by cause, the roofs of\n"
    "every shared resource and the distance from the roofline, and config\n"
    "changes (field=value, for a scenario's overrides or sweep axes) with the\n"
    "stall share each addresses. --verify reruns the point once as it was and\n"
    "once per change (J processes at a time, default: the cores) and ranks the\n"
    "changes by measured speedup (definitions in docs/results.md).\n";

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%5.1f%%", 100 * x);
  return b;
}

std::string speedup_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3fx", x);
  return b;
}

void print_verified(const harness::VerifyResult &v) {
  std::cout << "\nverified (the point rerun with each change; cycles before/after):\n";
  std::cout << "  baseline: " << v.baseline.status << ", " << v.baseline.cycles << " cycles"
            << (v.baseline.reason.empty() ? "" : "  -- " + v.baseline.reason) << "\n";
  if (v.baseline.status != "ok") {
    std::cout << "  (the baseline did not run: no speedups)\n";
    return;
  }
  size_t rank = 0;
  for (const auto &c : v.ranked) {
    std::string verdict = c.status != "ok"         ? "did not run: " + c.reason
                          : c.speedup > 1.0 + 1e-9 ? "helps"
                          : c.speedup < 1.0 - 1e-9 ? "slower: does not help"
                                                   : "no change: does not help";
    std::cout << "  " << ++rank << ". " << c.change.text() << "  " << v.baseline.cycles << " -> "
              << (c.status == "ok" ? std::to_string(c.cycles) : "-") << " cycles  "
              << (c.status == "ok" ? speedup_text(c.speedup) : "-") << "  (" << c.change.addresses
              << ") " << verdict << "\n";
  }
  const harness::VerifiedChange *best = v.ranked.empty() ? nullptr : &v.ranked.front();
  if (best && best->status == "ok" && best->speedup > 1.0 + 1e-9)
    std::cout << "\nrecommended: " << best->change.text() << " (" << speedup_text(best->speedup)
              << " measured)\n";
  else
    std::cout << "\nrecommended: none (no change made the point faster)\n";
}

int run_triage(const std::vector<std::string> &args) {
  std::string file;
  long point = 0;
  long jobs = 0;
  bool verify = false;
  OptionParser p("triage", kUsage);
  p.number("point", &point, "", Sign::NonNegative)
      .flag("verify", &verify)
      .number("jobs", &jobs, "", Sign::NonNegative)
      .positional("results file", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (file.empty() || point < 0)
    return usage_error("triage", "needs RESULTS.h5 [--point N] [--verify]");
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
    harness::TriageAnalysis t = harness::triage_point(r);
    const harness::PointAnalysis &a = t.point;
    std::cout << ", " << r.cycles << " cycles, " << r.instructions << " instructions\n";
    if (r.status != "ok") std::cout << "  reason: " << r.reason << "\n";
    std::cout << "\n";
    std::cout << "bottleneck: " << a.bottleneck << "\n\nutilization per unit:\n";
    for (const auto &u : a.units)
      std::cout << "  " << u.unit << std::string(10 - std::min<size_t>(9, u.unit.size()), ' ')
                << pct(u.utilization) << "   " << u.detail << "\n";
    std::cout << "\nstalls by cause (where the cores waited: PE cycles summed over PEs, share "
                 "of cycles x PEs):\n";
    auto stall_line = [](const harness::StallCause &s) {
      std::cout << "  " << s.cause
                << std::string(s.cause.size() < 30 ? 30 - s.cause.size() : 1, ' ') << pct(s.share)
                << "  " << std::llround(s.cycles) << " cycles  " << s.counters << "\n";
    };
    for (const auto &s : t.stalls)
      if (!s.estimated) stall_line(s);
    std::cout << "the memory stall (non-local loads + DMA wait + instruction fetch) by where its "
                 "requests queued (estimated):\n";
    for (const auto &s : t.stalls)
      if (s.estimated) stall_line(s);
    std::cout << "\nmemory traffic: local " << a.lmem_bytes << " B, DMA " << a.dma_bytes
              << " B, NoC " << a.noc_bytes << " B, SRAM " << a.sram_bytes << " B, DRAM "
              << a.dram_bytes << " B";
    if (a.sram_hit_rate >= 0) std::cout << ", SRAM hit rate " << pct(a.sram_hit_rate);
    std::cout << "\n\nroofs (lower bounds on the cycles, largest first):\n";
    for (const auto &rf : t.roofs)
      std::cout << "  " << rf.name
                << std::string(rf.name.size() < 14 ? 14 - rf.name.size() : 1, ' ')
                << std::llround(rf.cycles) << " cycles  "
                << pct(r.cycles ? rf.cycles / double(r.cycles) : 0) << " of the point's  "
                << rf.detail << "\n";
    std::cout << "roofline: bound by " << a.bound << " at " << std::llround(a.roofline_cycles)
              << " cycles; the point runs at " << pct(a.roofline_fraction) << " of the roofline ("
              << (a.roofline_fraction > 0 ? 1 / a.roofline_fraction : 0) << "x from it)\n";
    if (!r.ops.empty()) {
      std::cout << "\nops (" << r.ops.size() << "):\n";
      for (const auto &o : r.ops)
        std::cout << "  " << o.status << " " << o.cycles << " cycles  " << o.call
                  << (o.reason.empty() ? "" : "  -- " + o.reason) << "\n";
    }
    std::cout << "\nsuggestions (config changes; the share of cycles each addresses):\n";
    if (t.changes.empty()) std::cout << "  (none: no stall cause or roof is large enough)\n";
    for (size_t i = 0; i < t.changes.size(); ++i)
      std::cout << "  " << i + 1 << ". " << t.changes[i].text() << "  (" << t.changes[i].addresses
                << ", " << pct(t.changes[i].share) << "): " << t.changes[i].why << "\n";
    if (verify && !t.changes.empty())
      print_verified(harness::verify_changes(file, size_t(point), t.changes, unsigned(jobs)));
    else if (verify)
      std::cout << "\nverified: nothing to verify\n";
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
