//===- arch_energy.cpp - chip area and static power from ArchConfig -------===//
//
// The config-only halves of the energy/area estimate (docs/results.md,
// "Energy, power and area"): area in mm^2 and static power in mW, both the
// per-unit figures of the `area` and `energy.static_power` sections times
// the unit counts and memory sizes of the config. The counter-driven
// dynamic energy is computed by the harness (harness/src/runner/energy.cpp).
//
//===----------------------------------------------------------------------===//
#include "opforge/support/arch_config.h"

namespace opforge {

namespace {
double kib(uint64_t bytes) { return double(bytes) / 1024.0; }
double mib(uint64_t bytes) { return double(bytes) / (1024.0 * 1024.0); }
}  // namespace

double ArchConfig::area_mm2() const {
  const AreaConfig &a = area;
  double per_pe = a.pe_core_mm2 + a.vector_mm2 + a.dpe_mm2 + a.sfu_mm2 +
                  a.dma_engine_mm2 * pe.dma.engines +
                  a.local_mem_mm2_per_kib * kib(pe.local_mem.size_bytes) + a.noc_router_mm2;
  return per_pe * num_pes() + a.sram_mm2_per_mib * mib(sram.size_bytes) +
         a.dram_ctrl_mm2 * dram.channels + a.other_mm2;
}

double ArchConfig::static_power_mw() const {
  const StaticPowerConfig &s = energy.static_power;
  double per_pe = s.core_mw + s.vector_mw + s.dpe_mw + s.sfu_mw + s.dma_engine_mw * pe.dma.engines +
                  s.local_mem_mw_per_kib * kib(pe.local_mem.size_bytes) + s.noc_router_mw;
  return per_pe * num_pes() + s.sram_mw_per_mib * mib(sram.size_bytes) +
         s.dram_phy_mw * dram.channels + s.other_mw;
}

double ArchConfig::mac_energy_pj(DType t) const {
  switch (t) {
    case DType::Float32:
      return energy.mac_fp32_pj;
    case DType::BFloat16:
      return energy.mac_bf16_pj;
    case DType::Float16:
      return energy.mac_fp16_pj;
    case DType::Int8:
      return energy.mac_int8_pj;
    default:
      return 0;
  }
}

}  // namespace opforge
