//===- energy.cpp - a sweep point's energy, power, perf/W and area --------===//
//
// Dynamic energy is the point's counted events times the per-event energies
// of its config's `energy` section; static energy is the config's static
// power (ArchConfig::static_power_mw) over the simulated time, cycles /
// clock. docs/results.md ("Energy, power and area") lists every term.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "opforge/harness/results.h"

namespace opforge::harness {
namespace {

using Counters = std::vector<std::pair<std::string, uint64_t>>;

// Sum of the counters named PREFIX...SUFFIX and how many matched.
std::pair<double, size_t> sum(const Counters &c, const std::string &prefix,
                              const std::string &suffix) {
  double total = 0;
  size_t n = 0;
  for (const auto &[name, v] : c)
    if (name.size() >= prefix.size() + suffix.size() && name.starts_with(prefix) &&
        name.ends_with(suffix)) {
      total += double(v);
      ++n;
    }
  return {total, n};
}

}  // namespace

EnergyEstimate estimate_energy(const ArchConfig &arch, const Counters &c, uint64_t cycles) {
  const EnergyConfig &e = arch.energy;
  EnergyEstimate est;
  est.area_mm2 = arch.area_mm2();
  est.seconds = arch.clock_hz() > 0 ? double(cycles) / arch.clock_hz() : 0;

  // DPE MACs by input dtype; results without the per-dtype counters count
  // every MAC at the bf16 energy.
  double mac_pj = 0;
  size_t typed = 0;
  for (auto [dtype, pj] : {std::pair{"bf16", e.mac_bf16_pj}, std::pair{"fp16", e.mac_fp16_pj},
                           std::pair{"fp32", e.mac_fp32_pj}, std::pair{"int8", e.mac_int8_pj}}) {
    auto [macs, n] = sum(c, "pe[", std::string(".dpe.macs_") + dtype);
    mac_pj += macs * pj;
    typed += n;
  }
  if (typed == 0) mac_pj = sum(c, "pe[", ".dpe.macs").first * e.mac_bf16_pj;

  const double link_bytes_per_cycle = arch.bytes_per_cycle(arch.noc.link_bandwidth_gbps);
  const double byte_hops = sum(c, "noc.link[", ".busy_cycles").first * link_bytes_per_cycle;
  const double lmem_bytes =
      sum(c, "pe[", ".lmem.bytes_read").first + sum(c, "pe[", ".lmem.bytes_written").first;
  const double sram_bytes =
      sum(c, "sram.bytes_read", "").first + sum(c, "sram.bytes_written", "").first;
  const double dram_bytes =
      sum(c, "dram.ch[", ".bytes_read").first + sum(c, "dram.ch[", ".bytes_written").first;

  const std::pair<const char *, double> dynamic_pj[] = {
      {"mac", mac_pj},
      {"instructions", sum(c, "pe[", ".core.instret").first * e.instruction_pj},
      {"vector",
       sum(c, "pe[", ".vec.busy_cycles").first * arch.pe.vector.lanes * e.vector_pj_per_lane_cycle},
      {"sfu", sum(c, "pe[", ".sfu.elements").first * e.sfu_pj_per_element},
      {"local_mem", lmem_bytes * e.local_mem_pj_per_byte},
      {"sram", sram_bytes * e.sram_pj_per_byte},
      {"noc", byte_hops * e.noc_pj_per_byte_hop},
      {"dram", dram_bytes * e.dram_pj_per_byte}};
  for (const auto &[name, pj] : dynamic_pj) {
    est.terms_j.emplace_back(name, pj * 1e-12);
    est.dynamic_j += pj * 1e-12;
  }
  est.static_j = arch.static_power_mw() * 1e-3 * est.seconds;
  est.terms_j.emplace_back("static", est.static_j);
  est.energy_j = est.dynamic_j + est.static_j;
  est.avg_power_w = est.seconds > 0 ? est.energy_j / est.seconds : 0;
  est.perf_per_w = est.energy_j > 0 ? 1.0 / est.energy_j : 0;
  return est;
}

void add_energy(PointResult &r, const ArchConfig &arch) {
  r.area_mm2 = arch.area_mm2();
  if (r.cycles == 0) return;
  EnergyEstimate est = estimate_energy(arch, r.counters, r.cycles);
  r.energy_j = est.energy_j;
  r.avg_power_w = est.avg_power_w;
  if (est.perf_per_w > 0) r.perf_per_w = est.perf_per_w;  // else undefined: NaN
  r.energy_breakdown_j = nlohmann::json::object();
  for (const auto &[name, j] : est.terms_j) r.energy_breakdown_j[name] = j;
}

}  // namespace opforge::harness
