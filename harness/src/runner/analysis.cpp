//===- analysis.cpp - utilization, stalls and roofline of a sweep point ---===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "opforge/harness/results.h"

namespace opforge::harness {
namespace {
using nlohmann::json;

double cfg(const json &c, const char *pointer, double fallback) {
  try {
    const json &v = c.at(json::json_pointer(pointer));
    if (v.is_number()) return v.get<double>();
  } catch (const std::exception &) {
  }
  return fallback;
}

bool ends_with(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Sum {
  uint64_t total = 0;
  size_t count = 0;  // counters that matched (one per unit instance)
};

Sum sum(const std::vector<std::pair<std::string, uint64_t>> &counters, const std::string &prefix,
        const std::string &suffix) {
  Sum s;
  for (const auto &[n, v] : counters)
    if (n.rfind(prefix, 0) == 0 && ends_with(n, suffix)) {
      s.total += v;
      ++s.count;
    }
  return s;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * x);
  return b;
}

}  // namespace

PointAnalysis analyze_point(const PointResult &r) {
  PointAnalysis a;
  a.cycles = r.cycles;
  a.instructions = r.instructions;
  const auto &c = r.counters;
  const json &conf = r.config;
  double pes = cfg(conf, "/pe_grid/rows", 1) * cfg(conf, "/pe_grid/cols", 1);
  double clock_ghz = cfg(conf, "/clock_ghz", 1);
  double engines = cfg(conf, "/pe/dma/engines", 1);
  double dram_bpc = cfg(conf, "/dram/bandwidth_gbps", 0) / clock_ghz;
  double cyc = std::max<double>(1, double(r.cycles));

  auto unit = [&](const std::string &name, double busy, double capacity, std::string detail) {
    UnitUse u;
    u.unit = name;
    u.utilization = capacity > 0 ? std::min(1.0, busy / capacity) : 0;
    u.detail = std::move(detail);
    a.units.push_back(u);
  };
  Sum core = sum(c, "pe[", ".core.cycles");
  unit("core", double(core.total), cyc * pes,
       std::to_string(core.total) + " core-busy cycles over " + std::to_string(int64_t(pes)) +
           " PEs");
  Sum dma = sum(c, "pe[", ".dma.busy_cycles");
  unit("dma", double(dma.total), cyc * pes * engines,
       std::to_string(dma.total) + " engine-busy cycles, " + std::to_string(int64_t(engines)) +
           " engines per PE");
  Sum dpe = sum(c, "pe[", ".dpe.busy_cycles");
  unit("dpe", double(dpe.total), cyc * pes, std::to_string(dpe.total) + " DPE-busy cycles");
  Sum sfu = sum(c, "pe[", ".sfu.busy_cycles");
  unit("sfu", double(sfu.total), cyc * pes, std::to_string(sfu.total) + " SFU-busy cycles");
  Sum noc = sum(c, "noc.link[", ".busy_cycles");
  unit("noc", double(noc.total), cyc * double(std::max<size_t>(noc.count, 1)),
       std::to_string(noc.count) + " links");
  Sum sram = sum(c, "sram.bank[", ".busy_cycles");
  unit("sram", double(sram.total), cyc * double(std::max<size_t>(sram.count, 1)),
       std::to_string(sram.count) + " banks");
  a.dram_bytes =
      sum(c, "dram.ch[", ".bytes_read").total + sum(c, "dram.ch[", ".bytes_written").total;
  unit(
      "dram", double(a.dram_bytes), cyc * dram_bpc,
      std::to_string(a.dram_bytes) + " bytes at " + std::to_string(dram_bpc) + " bytes/cycle peak");

  a.sram_bytes = sum(c, "sram.", "bytes_read").total + sum(c, "sram.", "bytes_written").total;
  a.lmem_bytes =
      sum(c, "pe[", ".lmem.bytes_read").total + sum(c, "pe[", ".lmem.bytes_written").total;
  a.dma_bytes = sum(c, "pe[", ".dma.bytes_read").total + sum(c, "pe[", ".dma.bytes_written").total;
  a.noc_bytes = sum(c, "noc.bytes", "").total;
  uint64_t hits = sum(c, "sram.hits", "").total, misses = sum(c, "sram.misses", "").total;
  if (hits + misses) a.sram_hit_rate = double(hits) / double(hits + misses);
  a.dpe_macs = sum(c, "pe[", ".dpe.macs").total;

  std::map<std::string, uint64_t> stalls;
  for (const auto &[n, v] : c) {
    auto k = n.find(".stall.");
    if (n.rfind("pe[", 0) == 0 && k != std::string::npos) stalls[n.substr(k + 7)] += v;
  }
  for (const auto &[n, v] : stalls) a.stalls.emplace_back(n, v);
  std::sort(a.stalls.begin(), a.stalls.end(),
            [](const auto &x, const auto &y) { return x.second > y.second; });

  // Roofline bounds.
  double macs_pc = cfg(conf, "/pe/dpe/macs_per_cycle/fp32", 0) * pes;
  a.dram_bound_cycles = dram_bpc > 0 ? double(a.dram_bytes) / dram_bpc : 0;
  a.dpe_bound_cycles = macs_pc > 0 ? double(a.dpe_macs) / macs_pc : 0;
  a.issue_bound_cycles = double(a.instructions) / std::max(1.0, pes);
  a.roofline_cycles = a.dram_bound_cycles;
  a.bound = "dram";
  if (a.dpe_bound_cycles > a.roofline_cycles) {
    a.roofline_cycles = a.dpe_bound_cycles;
    a.bound = "dpe";
  }
  if (a.issue_bound_cycles > a.roofline_cycles) {
    a.roofline_cycles = a.issue_bound_cycles;
    a.bound = "issue";
  }
  a.roofline_fraction = r.cycles ? a.roofline_cycles / double(r.cycles) : 0;

  // Bottleneck: the busiest unit.
  const UnitUse *top = nullptr;
  for (const auto &u : a.units)
    if (!top || u.utilization > top->utilization) top = &u;
  a.bottleneck = top && top->utilization > 0 ? top->unit : "none";

  // Suggestions, most useful first.
  std::vector<std::pair<double, std::string>> s;
  auto use = [&](const std::string &n) {
    for (const auto &u : a.units)
      if (u.unit == n) return u.utilization;
    return 0.0;
  };
  std::string hit = a.sram_hit_rate >= 0 ? "; SRAM hit rate " + pct(a.sram_hit_rate) : "";
  if (use("dram") > 0.6)
    s.push_back({use("dram"), "DRAM-bound at " + pct(use("dram")) + " of channel bandwidth" + hit +
                                  ": add DRAM channels/bandwidth, or raise reuse (larger SRAM, "
                                  "blocking) to cut DRAM traffic"});
  if (a.sram_hit_rate >= 0 && a.sram_hit_rate < 0.5 && a.dram_bytes > 0)
    s.push_back({0.5 + (0.5 - a.sram_hit_rate) * 0.5,
                 "SRAM hit rate " + pct(a.sram_hit_rate) +
                     ": the working set streams through the cache; a scratch-mode SRAM with "
                     "explicit DMA staging or a larger SRAM would keep it on chip"});
  if (!a.stalls.empty() && a.stalls.front().second > 0) {
    double frac = double(a.stalls.front().second) / (cyc * pes);
    const std::string &n = a.stalls.front().first;
    std::string fix =
        n.find("dma_queue") != std::string::npos
            ? "more DMA engines or deeper DMA queues (pe.dma.engines, pe.dma.outstanding)"
        : n.find("dma_wait") != std::string::npos
            ? "double-buffer DMA transfers so compute overlaps them"
        : n.find("dpe") != std::string::npos ? "a deeper DPE queue or larger tiles"
                                             : "fewer local-memory bank conflicts "
                                               "(more banks, different strides)";
    s.push_back(
        {std::min(1.0, frac), "cores stall " + pct(frac) + " of PE cycles on " + n + ": " + fix});
  }
  if (use("dma") > 0.7)
    s.push_back({use("dma"), "DMA engines busy " + pct(use("dma")) + ": add engines per PE"});
  if (use("dpe") > 0.7)
    s.push_back({use("dpe"), "DPE busy " + pct(use("dpe")) +
                                 ": compute-bound on the DPE; more "
                                 "MACs per cycle or lower precision"});
  if (use("core") > 0.7 && a.bound == "issue")
    s.push_back({use("core"), "instruction-issue-bound (cores busy " + pct(use("core")) +
                                  "): wider vectors (pe.vector.vlen_bits) or offload to DPE/SFU"});
  if (use("core") < 0.3 && r.cycles > 0)
    s.push_back({0.3, "cores busy only " + pct(use("core")) +
                          " of the time: the grid does not fill the PEs or launch overhead "
                          "dominates; give the kernel more program instances"});
  if (a.roofline_fraction > 0 && a.roofline_fraction < 0.5)
    s.push_back({0.2, "at " + pct(a.roofline_fraction) + " of the " + a.bound +
                          " roofline: latency, not throughput, limits this kernel"});
  std::stable_sort(s.begin(), s.end(),
                   [](const auto &x, const auto &y) { return x.first > y.first; });
  for (size_t i = 0; i < s.size() && a.suggestions.size() < 3; ++i)
    a.suggestions.push_back(s[i].second);
  return a;
}

}  // namespace opforge::harness
