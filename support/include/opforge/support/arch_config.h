//===- arch_config.h - the chip's full parameter set as typed structs -----===//
//
// ArchConfig is every parameter of the modelled chip (DESIGN.md section 4),
// with units in the names. Its schema (arch_schema()) documents every field
// with unit, default and range; `opforge config schema` prints it. Configs
// are JSON presets in scenarios/arch/ (mtia-2i, mtia-v1, tiny) plus
// "--set key=value" overrides; to_json() is the fully resolved config that
// each run writes beside its results.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opforge/support/dtype.h"
#include "opforge/support/json_schema.h"

namespace opforge {

enum class UnitImpl { Tlm, Rtl, Lockstep };  // how a functional unit is modelled
enum class SramMode { Cache, Scratch };
enum class DispatchPolicy { RoundRobin, FirstFree };
enum class TimingMode { Functional, Lt };
enum class NocTopology { Mesh };

struct PeGridConfig {
  uint32_t rows = 8;
  uint32_t cols = 8;
  uint32_t num_pes() const { return rows * cols; }
};

struct VectorUnitConfig {
  uint32_t vlen_bits = 512;  // RVV VLEN
  uint32_t lanes = 16;       // 32-bit lanes: elements/cycle = lanes * 32 / SEW
};

struct LocalMemConfig {
  uint64_t size_bytes = 384ull << 10;
  uint32_t banks = 16;
  double bandwidth_gbps = 1000;  // total over all banks
  uint32_t latency_cycles = 2;
  uint64_t interleave_bytes = 64;  // consecutive bytes on one bank
};

// Cycles per instruction class of the scalar core.
struct ScalarTimingConfig {
  uint32_t int_alu_cycles = 1;
  uint32_t int_mul_cycles = 3;
  uint32_t int_div_cycles = 20;
  uint32_t load_cycles = 2;
  uint32_t store_cycles = 1;
  uint32_t branch_taken_cycles = 2;
  uint32_t branch_not_taken_cycles = 1;
  uint32_t csr_cycles = 1;
  uint32_t fp_add_cycles = 3;
  uint32_t fp_mul_cycles = 4;
  uint32_t fp_fma_cycles = 4;
  uint32_t fp_div_cycles = 15;
  uint32_t fp_sqrt_cycles = 20;
};

// Vector instruction cost: startup_cycles + ceil(VL / elements_per_cycle) *
// <class>_cycles, with elements_per_cycle = lanes * 32 / SEW (at least 1).
struct VectorTimingConfig {
  uint32_t startup_cycles = 0;
  uint32_t int_alu_cycles = 1;
  uint32_t int_mul_cycles = 1;
  uint32_t int_div_cycles = 8;
  uint32_t fp_add_cycles = 1;
  uint32_t fp_mul_cycles = 1;
  uint32_t fp_fma_cycles = 1;
  uint32_t fp_div_cycles = 4;
  uint32_t fp_sqrt_cycles = 4;
  uint32_t load_cycles = 1;                 // unit-stride, per group
  uint32_t store_cycles = 1;                // unit-stride, per group
  uint32_t indexed_cycles_per_element = 1;  // strided / gather / scatter
  uint32_t reduction_step_cycles = 1;       // per log2(lanes) tree step
  uint32_t permute_cycles = 1;              // slides, gathers in registers, per group
};

enum class VectorOpClass {
  IntAlu,
  IntMul,
  IntDiv,
  FpAdd,
  FpMul,
  FpFma,
  FpDiv,
  FpSqrt,
  Load,
  Store,
  Indexed,
  Reduction,
  Permute
};

struct DpeMacsConfig {
  uint32_t bf16 = 1024;
  uint32_t fp16 = 1024;
  uint32_t fp32 = 256;
  uint32_t int8 = 2048;
};

struct DpeConfig {
  DpeMacsConfig macs_per_cycle;
  uint32_t tile_max_m = 64;
  uint32_t tile_max_n = 64;
  uint32_t tile_max_k = 64;
  uint32_t setup_cycles = 8;
  uint32_t queue_depth = 4;
  UnitImpl impl = UnitImpl::Tlm;
};

struct SfuConfig {
  uint32_t elements_per_cycle = 16;
  uint32_t latency_cycles = 8;
  uint32_t precision_bits = 0;  // mantissa bits kept by the special functions; 0 = exact
  uint32_t bits_per_pass = 8;   // significand bits one evaluation pass resolves
  UnitImpl impl = UnitImpl::Tlm;
};

struct DmaConfig {
  uint32_t engines = 2;
  double bandwidth_gbps = 256;  // per engine
  uint32_t outstanding = 8;     // transfers in flight per engine
  uint32_t setup_cycles = 20;
  uint64_t burst_bytes = 256;  // transfer granule on the fabric
};

// Per-PE instruction cache: hits cost nothing beyond the instruction
// (fetch is pipelined); a miss fetches one line from global memory.
struct ICacheConfig {
  uint64_t size_bytes = 32 * 1024;
  uint32_t line_bytes = 64;
  uint32_t ways = 4;
};

struct PeConfig {
  VectorUnitConfig vector;
  LocalMemConfig local_mem;
  ICacheConfig icache;
  ScalarTimingConfig scalar_timing;
  VectorTimingConfig vector_timing;
  DpeConfig dpe;
  SfuConfig sfu;
  DmaConfig dma;
};

struct NocConfig {
  NocTopology topology = NocTopology::Mesh;
  double link_bandwidth_gbps = 256;
  uint32_t hop_latency_cycles = 2;
  uint32_t mem_ports_per_row = 2;  // 1: west edge only; 2: west and east edges (mtia-2i)
};

struct SramConfig {
  uint64_t size_bytes = 256ull << 20;
  uint32_t banks = 32;
  SramMode mode = SramMode::Cache;
  uint32_t line_bytes = 64;
  uint32_t ways = 16;
  double bandwidth_gbps = 2700;  // total over all banks
  uint32_t latency_cycles = 30;
};

struct DramConfig {
  uint32_t channels = 16;
  double bandwidth_gbps = 204.8;  // total over all channels
  double latency_ns = 100;
  uint64_t capacity_bytes = 128ull << 30;
  uint64_t interleave_bytes = 256;
};

struct HostLinkConfig {
  double bandwidth_gbps = 32;
  double latency_ns = 1000;
};

struct CommandProcessorConfig {
  uint32_t dispatch_latency_cycles = 50;  // per workgroup handed to a PE
  uint32_t launch_latency_cycles = 1000;  // per kernel launch
  DispatchPolicy dispatch_policy = DispatchPolicy::RoundRobin;
};

// Guest physical memory map (docs/model/memory-map.md). A field left 0 is
// derived from the grid, local memory, SRAM and DRAM sizes by
// ArchConfig::memory_layout(), so windows never collide; a value set in the
// config is kept (and rejected at load if it collides or does not fit).
struct MemoryMapConfig {
  uint64_t local_alias_base = 0;           // each PE sees its own local memory here (0: derived)
  uint64_t local_window_base = 0;          // PE i's local memory at base + i * stride (0: derived)
  uint64_t local_window_stride_bytes = 0;  // between PE windows (0: derived)
  uint64_t sram_base = 0;                  // scratch-mode SRAM window (0: derived)
  uint64_t dram_base = 0x8000'0000;        // where programs are linked (text at dram_base)
  uint64_t code_reserved_bytes = 16ull << 20;  // DRAM bottom kept for program images
};

// Guest physical addresses end here (2^52 bytes, 4 PiB): no window may reach past it.
inline constexpr uint64_t kGuestAddressLimit = uint64_t{1} << 52;

struct SimulationConfig {
  TimingMode timing_mode = TimingMode::Lt;
  uint64_t quantum_cycles = 1000;
  uint64_t watchdog_cycles = 1'000'000'000;
  uint64_t sample_interval_cycles = 0;  // 0: no counter sampling
};

// Energy per event and static power (docs/config.md, "Energy and area").
// Estimates for results (energy_j, avg_power_w, perf_per_w); the model's
// timing never reads them. Defaults are the mtia-2i estimates.
struct StaticPowerConfig {
  double core_mw = 8;                  // per PE: scalar core and instruction cache
  double vector_mw = 30;               // per PE: RVV vector unit
  double dpe_mw = 70;                  // per PE: dot-product engine
  double sfu_mw = 8;                   // per PE: special-function unit
  double dma_engine_mw = 4;            // per DMA engine
  double local_mem_mw_per_kib = 0.05;  // local memory, per KiB of each PE
  double sram_mw_per_mib = 5;          // shared SRAM, per MiB
  double noc_router_mw = 10;           // per mesh router (one per PE)
  double dram_phy_mw = 150;            // per DRAM channel: controller and PHY
  double other_mw = 3000;              // the rest: command processor, host link, I/O
};

struct EnergyConfig {
  double mac_fp32_pj = 0.69;  // per DPE multiply-accumulate, by input dtype
  double mac_bf16_pj = 0.3;
  double mac_fp16_pj = 0.3;
  double mac_int8_pj = 0.045;
  double instruction_pj = 10.5;            // per instruction retired (fetch, decode, registers)
  double vector_pj_per_lane_cycle = 0.69;  // per busy vector cycle per 32-bit lane
  double sfu_pj_per_element = 3.5;         // per special-function element
  double local_mem_pj_per_byte = 0.625;
  double sram_pj_per_byte = 3.1;
  double noc_pj_per_byte_hop = 1.5;  // per byte per link traversed
  double dram_pj_per_byte = 40;      // device and interface
  StaticPowerConfig static_power;
};

// Silicon area per unit (docs/config.md, "Energy and area"); area_mm2() sums it.
struct AreaConfig {
  double pe_core_mm2 = 0.3;  // per PE: scalar core, instruction cache, control
  double vector_mm2 = 0.9;   // per PE
  double dpe_mm2 = 2.2;      // per PE
  double sfu_mm2 = 0.3;      // per PE
  double dma_engine_mm2 = 0.15;
  double local_mem_mm2_per_kib = 0.0004;
  double sram_mm2_per_mib = 0.32;
  double noc_router_mm2 = 0.15;  // per PE
  double dram_ctrl_mm2 = 1.0;    // per DRAM channel: controller and PHY
  double other_mm2 = 48;         // command processor, host link, I/O ring, misc
};

struct ArchConfig {
  std::string name;
  double clock_ghz = 1.35;
  PeGridConfig pe_grid;
  PeConfig pe;
  NocConfig noc;
  SramConfig sram;
  DramConfig dram;
  HostLinkConfig host_link;
  CommandProcessorConfig command_processor;
  MemoryMapConfig memory_map;
  SimulationConfig simulation;
  EnergyConfig energy;
  AreaConfig area;

  // Resolve `name_or_file` (a preset name in the arch directories or a JSON
  // file), apply "key=value" overrides, validate. Throws opforge::Error.
  static ArchConfig load(const std::string &name_or_file = "mtia-2i",
                         const std::vector<std::string> &overrides = {});
  // From a document already normalized by arch_schema().
  static ArchConfig from_json(const nlohmann::json &resolved);
  // Validate, read and check an unresolved document (defaults filled in).
  static ArchConfig from_document(const nlohmann::json &doc, const std::string &file);
  // Checks that involve several fields (VLEN a power of two, cache geometry,
  // DRAM interleave); throws opforge::Error naming `file` and the field.
  void check(const std::string &file) const;
  // The fully resolved config, every field present, in canonical units.
  nlohmann::json to_json() const;
  // The memory map with every derived (0) field filled in: from 0x1000'0000
  // up, the alias, then the PE windows (stride: the smallest power of two
  // larger than the local memory, so a guard gap follows each window), then
  // the scratch SRAM window, each at the first 256 MiB-aligned place free of
  // DRAM and the fields set explicitly (above DRAM when they do not fit below
  // it). sram_base stays 0 in cache mode. Throws opforge::Error naming `file`,
  // the field and the limit when the windows collide or pass kGuestAddressLimit.
  MemoryMapConfig memory_layout(const std::string &file = {}) const;

  // --- derived figures ---
  uint32_t num_pes() const { return pe_grid.num_pes(); }
  double clock_hz() const { return clock_ghz * 1e9; }
  // GB/s at this clock expressed in bytes per cycle.
  double bytes_per_cycle(double gbps) const { return gbps / clock_ghz; }
  double dram_bytes_per_cycle() const { return bytes_per_cycle(dram.bandwidth_gbps); }
  double sram_bytes_per_cycle() const { return bytes_per_cycle(sram.bandwidth_gbps); }
  // DPE MACs per cycle per PE for a dtype (Float16, BFloat16, Float32, Int8); 0 if unsupported.
  uint32_t dpe_macs_per_cycle(DType t) const;
  // Whole-chip DPE peak: 2 * MACs/cycle * PEs * clock, in FLOP/s (OP/s for int8).
  double dpe_peak_flops(DType t) const;
  // Whole-chip vector FP32 FMA peak in FLOP/s (2 per lane per cycle).
  double vector_peak_fp32_flops() const;
  // Cycles for one vector instruction of a class at vector length vl and SEW.
  uint64_t vector_op_cycles(VectorOpClass cls, uint64_t vl, uint32_t sew_bits) const;
  // Chip area in mm^2 and static power in mW from the `area` and
  // `energy.static_power` sections scaled by unit counts and memory sizes
  // (docs/results.md gives the sums).
  double area_mm2() const;
  double static_power_mw() const;
  // Energy of one DPE MAC in pJ for a dtype (Float32, BFloat16, Float16, Int8; else 0).
  double mac_energy_pj(DType t) const;
};

// The schema of ArchConfig documents (every field with unit, default, doc).
const Schema &arch_schema();

// Directories searched for preset names: $OPFORGE_ARCH_DIR if set, then the
// compiled-in <source>/scenarios/arch.
std::vector<std::filesystem::path> arch_search_dirs();

std::string_view to_string(UnitImpl v);
std::string_view to_string(SramMode v);
std::string_view to_string(DispatchPolicy v);
std::string_view to_string(TimingMode v);
std::string_view to_string(NocTopology v);

}  // namespace opforge
