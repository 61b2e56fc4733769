//===- analysis.cpp - utilization, stalls and roofline of a sweep point ---===//
#include <algorithm>
#include <cmath>
#include <cstdint>
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

// A counter delta that went negative (a model bug, issue 22 item 2) reads
// as a huge unsigned number; it counts as 0 rather than as 2^64 - 1.
bool wrapped(uint64_t v) { return v > uint64_t(INT64_MAX); }

struct Sum {
  uint64_t total = 0;
  size_t count = 0;  // counters that matched (one per unit instance)
};

Sum sum(const std::vector<std::pair<std::string, uint64_t>> &counters, const std::string &prefix,
        const std::string &suffix) {
  Sum s;
  for (const auto &[n, v] : counters)
    if (n.rfind(prefix, 0) == 0 && ends_with(n, suffix)) {
      s.total += wrapped(v) ? 0 : v;
      ++s.count;
    }
  return s;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * x);
  return b;
}

// The largest counter among those matching (the busiest instance of a unit).
uint64_t max_of(const std::vector<std::pair<std::string, uint64_t>> &counters,
                const std::string &prefix, const std::string &suffix) {
  uint64_t m = 0;
  for (const auto &[n, v] : counters)
    if (n.rfind(prefix, 0) == 0 && ends_with(n, suffix) && !wrapped(v)) m = std::max(m, v);
  return m;
}

// Twice a config value, keeping integers integral (a field missing: null).
json twice(const json &c, const char *pointer) {
  try {
    const json &v = c.at(json::json_pointer(pointer));
    if (v.is_number_integer()) return v.get<int64_t>() * 2;
    if (v.is_number()) return v.get<double>() * 2;
  } catch (const std::exception &) {
  }
  return nullptr;
}

std::string field_of(const char *pointer) {
  std::string f = pointer + 1;
  std::replace(f.begin(), f.end(), '/', '.');
  return f;
}

}  // namespace

std::string ConfigChange::text() const {
  std::string t;
  for (const auto &[f, v] : settings) {
    if (!t.empty()) t += " ";
    t += f + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return t;
}

TriageAnalysis triage_point(const PointResult &r) {
  TriageAnalysis t;
  PointAnalysis &a = t.point;
  a.cycles = r.cycles;
  a.instructions = r.instructions;
  const auto &c = r.counters;
  const json &conf = r.config;
  double pes = cfg(conf, "/pe_grid/rows", 1) * cfg(conf, "/pe_grid/cols", 1);
  double clock_ghz = cfg(conf, "/clock_ghz", 1);
  double engines = cfg(conf, "/pe/dma/engines", 1);
  double dram_bpc = cfg(conf, "/dram/bandwidth_gbps", 0) / clock_ghz;
  double sram_bpc = cfg(conf, "/sram/bandwidth_gbps", 0) / clock_ghz;
  double cyc = std::max<double>(1, double(r.cycles));
  double pe_cycles = cyc * std::max(1.0, pes);

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
    if (n.rfind("pe[", 0) == 0 && k != std::string::npos)
      stalls[n.substr(k + 7)] += wrapped(v) ? 0 : v;
  }
  for (const auto &[n, v] : stalls) a.stalls.emplace_back(n, v);
  std::sort(a.stalls.begin(), a.stalls.end(),
            [](const auto &x, const auto &y) { return x.second > y.second; });

  // The busiest instance of each shared resource: its busy cycles bound the
  // point's cycles from below, whatever the other instances do.
  uint64_t port_max = max_of(c, "noc.link[", "].mem.busy_cycles");
  uint64_t link_max = 0;
  double port_busy = 0, link_busy = 0;
  for (const auto &[n, v] : c)
    if (n.rfind("noc.link[", 0) == 0 && ends_with(n, ".busy_cycles") && !wrapped(v)) {
      if (ends_with(n, "].mem.busy_cycles")) {
        port_busy += double(v);
      } else {
        link_max = std::max(link_max, v);
        link_busy += double(v);
      }
    }
  uint64_t bank_max = max_of(c, "sram.bank[", ".busy_cycles");
  uint64_t chan_max = max_of(c, "dram.ch[", ".busy_cycles");
  unit("noc_link", double(link_max), cyc, "the busiest mesh link");
  unit("mem_port", double(port_max), cyc, "the busiest memory port (SRAM/DRAM entry link)");
  unit("sram_bank", double(bank_max), cyc, "the busiest SRAM bank");
  unit("dram_ch", double(chan_max), cyc, "the busiest DRAM channel");

  // Roofs: every one is a lower bound on the point's cycles.
  double macs_pc = cfg(conf, "/pe/dpe/macs_per_cycle/fp32", 0) * pes;
  a.dram_bound_cycles = dram_bpc > 0 ? double(a.dram_bytes) / dram_bpc : 0;
  a.dpe_bound_cycles = macs_pc > 0 ? double(a.dpe_macs) / macs_pc : 0;
  a.issue_bound_cycles = double(a.instructions) / std::max(1.0, pes);
  t.roofs = {
      {"dram", a.dram_bound_cycles, "DRAM bytes / DRAM bytes per cycle"},
      {"dram_channel", double(chan_max), "busy cycles of the busiest DRAM channel"},
      {"sram", sram_bpc > 0 ? double(a.sram_bytes) / sram_bpc : 0,
       "SRAM bytes / SRAM bytes per cycle"},
      {"sram_bank", double(bank_max), "busy cycles of the busiest SRAM bank"},
      {"noc_link", double(link_max), "busy cycles of the busiest mesh link"},
      {"mem_port", double(port_max), "busy cycles of the busiest memory port"},
      {"dpe", a.dpe_bound_cycles, "DPE MACs / (fp32 MACs per cycle x PEs)"},
      {"issue", a.issue_bound_cycles, "instructions / PEs (one per PE per cycle)"},
  };
  std::stable_sort(t.roofs.begin(), t.roofs.end(),
                   [](const Roof &x, const Roof &y) { return x.cycles > y.cycles; });
  a.roofline_cycles = t.roofs.front().cycles;
  a.bound = t.roofs.front().name;
  a.roofline_fraction = r.cycles ? std::min(1.0, a.roofline_cycles / double(r.cycles)) : 0;
  t.issue_fraction = r.cycles ? a.issue_bound_cycles / double(r.cycles) : 0;

  // Bottleneck: the busiest unit.
  const UnitUse *top = nullptr;
  for (const auto &u : a.units)
    if (!top || u.utilization > top->utilization) top = &u;
  a.bottleneck = top && top->utilization > 0 ? top->unit : "none";

  // Stall attribution. Where the cores waited (per-PE stall counters) ...
  auto stall = [&](const char *kind) {
    auto it = stalls.find(kind);
    return it == stalls.end() ? 0.0 : double(it->second);
  };
  double mem = stall("mem_cycles"), ifetch = stall("ifetch_cycles");
  double dma_wait = stall("dma_wait_cycles"), dma_queue = stall("dma_queue_cycles");
  double dpe_wait = stall("dpe_wait_cycles"), dpe_queue = stall("dpe_queue_cycles");
  double lmem_conflict = double(sum(c, "pe[", ".lmem.conflict_cycles").total);
  auto cause = [&](const std::string &name, const std::string &from, double cycles, bool est) {
    t.stalls.push_back({name, from, cycles, cycles / pe_cycles, est});
  };
  cause("non-local loads", "pe[*].stall.mem_cycles", mem, false);
  cause("local loads (bank conflicts)", "pe[*].lmem.conflict_cycles", lmem_conflict, false);
  cause("instruction fetch", "pe[*].stall.ifetch_cycles", ifetch, false);
  cause("DMA wait", "pe[*].stall.dma_wait_cycles", dma_wait, false);
  cause("DMA queue", "pe[*].stall.dma_queue_cycles", dma_queue, false);
  cause("DPE wait", "pe[*].stall.dpe_wait_cycles", dpe_wait, false);
  cause("DPE queue", "pe[*].stall.dpe_queue_cycles", dpe_queue, false);
  // ... and, for the stalls on the memory system (non-local loads, DMA
  // waits, instruction fetch), which resource the requests queued at: the
  // memory stall split in proportion to the request-wait cycles of each
  // resource against those waits plus the unloaded latency of the requests.
  double memory_stall = mem + dma_wait + ifetch;
  double noc_wait = double(sum(c, "noc.stall_cycles", "").total);
  double bank_wait = double(sum(c, "sram.bank[", ".conflict_cycles").total);
  double chan_wait = double(sum(c, "dram.ch[", ".queue_cycles").total);
  // The NoC counts one wait for all links; split between mesh links and
  // memory ports by the queueing factor u/(1-u) of the busiest of each.
  auto queueing = [&](double busy) {
    double u = std::min(0.95, busy / cyc);
    return u / (1 - u);
  };
  double qport = queueing(double(port_max)), qlink = queueing(double(link_max));
  double port_wait = qport + qlink > 0 ? noc_wait * qport / (qport + qlink) : 0;
  double link_wait = noc_wait - port_wait;
  double link_bpc = cfg(conf, "/noc/link_bandwidth_gbps", 0) / clock_ghz;
  double sram_accesses = double(hits + misses);
  if (sram_accesses == 0) sram_accesses = double(a.sram_bytes) / cfg(conf, "/sram/line_bytes", 64);
  double hop_latency =
      double(sum(c, "noc.hops", "").total) * cfg(conf, "/noc/hop_latency_cycles", 0);
  double sram_latency = sram_accesses * cfg(conf, "/sram/latency_cycles", 0);
  double dram_latency =
      double(sum(c, "dram.ch[", ".accesses").total) * cfg(conf, "/dram/latency_ns", 0) * clock_ghz;
  double latency = hop_latency + (link_bpc > 0 ? double(a.noc_bytes) / link_bpc : 0) +
                   sram_latency + dram_latency;
  double waits = link_wait + port_wait + bank_wait + chan_wait;
  double est_total = waits + latency;
  auto split = [&](double w) { return est_total > 0 ? memory_stall * w / est_total : 0.0; };
  cause("NoC link", "est.: memory stall x noc.stall_cycles (mesh part) / (waits + latency)",
        split(link_wait), true);
  cause("memory port", "est.: memory stall x noc.stall_cycles (port part) / (waits + latency)",
        split(port_wait), true);
  cause("SRAM bank", "est.: memory stall x sram.bank[*].conflict_cycles / (waits + latency)",
        split(bank_wait), true);
  cause("DRAM channel", "est.: memory stall x dram.ch[*].queue_cycles / (waits + latency)",
        split(chan_wait), true);
  cause("memory latency", "est.: memory stall x unloaded request latency / (waits + latency)",
        split(latency), true);
  std::stable_sort(t.stalls.begin(), t.stalls.end(),
                   [](const StallCause &x, const StallCause &y) { return x.cycles > y.cycles; });
  auto share_of = [&](const std::string &name) {
    for (const auto &s : t.stalls)
      if (s.cause == name) return s.share;
    return 0.0;
  };
  auto roof_of = [&](const std::string &name) {
    for (const auto &rf : t.roofs)
      if (rf.name == name) return rf.cycles / cyc;
    return 0.0;
  };

  // Suggestions: a config change per cause that is worth a look (a stall
  // share of at least 2% of PE cycles, or a roof within 2x of the cycles).
  constexpr double kStall = 0.02, kRoof = 0.5;
  auto add = [&](std::vector<std::pair<std::string, json>> settings, std::string addresses,
                 double share, std::string why) {
    for (const auto &[f, v] : settings)
      if (v.is_null()) return;  // a field this configuration does not have
    for (auto &ch : t.changes)
      if (ch.settings == settings) {  // the same change for two causes: one entry
        ch.share += share;
        ch.addresses += ", " + addresses;
        return;
      }
    t.changes.push_back({std::move(settings), std::move(addresses), share, std::move(why)});
  };
  auto doubled = [&](std::initializer_list<const char *> pointers) {
    std::vector<std::pair<std::string, json>> s;
    for (const char *p : pointers) s.emplace_back(field_of(p), twice(conf, p));
    return s;
  };
  std::string sram_mode;
  try {
    sram_mode = conf.at("sram").at("mode").get<std::string>();
  } catch (const std::exception &) {
  }
  double s_mem = share_of("non-local loads");
  if (s_mem >= kStall && sram_mode == "scratch")
    add({{"sram.mode", "cache"}}, "non-local loads", s_mem,
        "loads outside local memory go to DRAM; a cache-mode SRAM keeps what they reuse on chip");
  if (share_of("DRAM channel") >= kStall || roof_of("dram") >= kRoof ||
      roof_of("dram_channel") >= kRoof)
    add(doubled({"/dram/channels", "/dram/bandwidth_gbps"}), "DRAM channel",
        std::max({share_of("DRAM channel"), roof_of("dram"), roof_of("dram_channel")}),
        "requests queue at DRAM channels; twice the channels at the same per-channel rate");
  if (share_of("SRAM bank") >= kStall || roof_of("sram_bank") >= kRoof)
    add(doubled({"/sram/banks", "/sram/bandwidth_gbps"}), "SRAM bank",
        std::max(share_of("SRAM bank"), roof_of("sram_bank")),
        "requests queue at SRAM banks; twice the banks at the same per-bank rate");
  if (share_of("memory port") >= kStall || roof_of("mem_port") >= kRoof) {
    if (cfg(conf, "/noc/mem_ports_per_row", 2) < 2)
      add({{"noc.mem_ports_per_row", 2}}, "memory port",
          std::max(share_of("memory port"), roof_of("mem_port")),
          "one memory port per row carries all of the row's SRAM/DRAM traffic");
    else
      add(doubled({"/noc/link_bandwidth_gbps"}), "memory port",
          std::max(share_of("memory port"), roof_of("mem_port")),
          "the memory ports (NoC links into SRAM/DRAM) are busy; wider links");
  }
  if (share_of("NoC link") >= kStall || roof_of("noc_link") >= kRoof)
    add(doubled({"/noc/link_bandwidth_gbps"}), "NoC link",
        std::max(share_of("NoC link"), roof_of("noc_link")),
        "requests queue at mesh links; wider links");
  // DMA transfers waited on mostly for latency, not for a busy resource: more
  // transfers in flight per engine hide it.
  if (share_of("DMA wait") >= kStall && share_of("memory latency") >= kStall)
    add(doubled({"/pe/dma/outstanding"}), "DMA wait (latency)",
        memory_stall > 0
            ? share_of("DMA wait") * share_of("memory latency") * pe_cycles / memory_stall
            : 0,
        "DMA transfers wait on memory latency; more transfers in flight per engine");
  // Latency itself: its largest part at half the cycles (a what-if for the
  // technology or the pipeline, verified like the rest).
  if (share_of("memory latency") >= kStall && latency > 0) {
    double l = share_of("memory latency") / latency;
    auto half = [&](const char *pointer) {
      json v = twice(conf, pointer);
      if (v.is_number_integer()) return json(v.get<int64_t>() / 4);
      if (v.is_number()) return json(v.get<double>() / 4);
      return v;
    };
    if (sram_latency >= dram_latency && sram_latency >= hop_latency)
      add({{"sram.latency_cycles", half("/sram/latency_cycles")}}, "memory latency (SRAM)",
          l * sram_latency, "requests wait mostly for the SRAM access latency; half of it");
    else if (dram_latency >= hop_latency)
      add({{"dram.latency_ns", half("/dram/latency_ns")}}, "memory latency (DRAM)",
          l * dram_latency, "requests wait mostly for the DRAM access latency; half of it");
    else
      add({{"noc.hop_latency_cycles", half("/noc/hop_latency_cycles")}}, "memory latency (NoC)",
          l * hop_latency, "requests wait mostly for NoC hops; half the latency per hop");
  }
  if (share_of("DMA queue") >= kStall)
    add(doubled({"/pe/dma/engines"}), "DMA queue", share_of("DMA queue"),
        "cores wait for a free DMA engine/queue slot");
  if (share_of("DPE queue") >= kStall)
    add(doubled({"/pe/dpe/queue_depth"}), "DPE queue", share_of("DPE queue"),
        "cores wait for room in the DPE queue");
  if (share_of("DPE wait") >= kStall || roof_of("dpe") >= kRoof)
    add(doubled({"/pe/dpe/macs_per_cycle/fp32", "/pe/dpe/macs_per_cycle/bf16",
                 "/pe/dpe/macs_per_cycle/fp16", "/pe/dpe/macs_per_cycle/int8"}),
        "DPE wait", std::max(share_of("DPE wait"), roof_of("dpe")),
        "cores wait for DPE results; twice the MACs per cycle");
  if (share_of("local loads (bank conflicts)") >= kStall)
    add(doubled({"/pe/local_mem/banks", "/pe/local_mem/bandwidth_gbps"}),
        "local loads (bank conflicts)", share_of("local loads (bank conflicts)"),
        "local-memory bank conflicts; twice the banks at the same per-bank rate");
  if (share_of("instruction fetch") >= kStall)
    add(doubled({"/pe/icache/size_bytes"}), "instruction fetch", share_of("instruction fetch"),
        "instruction-cache misses stall the cores");
  if (t.issue_fraction >= kRoof)
    add(doubled({"/pe/vector/vlen_bits", "/pe/vector/lanes"}), "issue", t.issue_fraction,
        "instruction-issue-bound (" + pct(t.issue_fraction) +
            " of the issue roof): wider vectors need fewer instructions");
  for (const auto &u : a.units)
    if (u.unit == "sfu" && u.utilization >= 0.7)
      add(doubled({"/pe/sfu/elements_per_cycle"}), "SFU", u.utilization,
          "the SFU is busy " + pct(u.utilization) + " of the time");
  std::stable_sort(t.changes.begin(), t.changes.end(),
                   [](const ConfigChange &x, const ConfigChange &y) { return x.share > y.share; });
  for (size_t i = 0; i < t.changes.size() && a.suggestions.size() < 3; ++i)
    a.suggestions.push_back(t.changes[i].text() + "  (" + t.changes[i].addresses + ", " +
                            pct(t.changes[i].share) + "): " + t.changes[i].why);
  return t;
}

PointAnalysis analyze_point(const PointResult &r) { return triage_point(r).point; }

}  // namespace opforge::harness
