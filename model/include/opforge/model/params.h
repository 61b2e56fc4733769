//===- params.h - the chip model's per-unit parameters, from ArchConfig ---===//
//
// gem5 style: each unit takes `const XParams&`. ChipParams gathers them and is
// derived from support's ArchConfig (scenarios/arch/*.json plus --set
// overrides) by params_from(): ArchConfig is the one schema, with units and
// documentation; nothing here reads JSON and every timing figure comes from
// it, none is a literal in the model code. Bandwidths are converted to bytes
// per core cycle once, here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/support/arch_config.h"

namespace opforge::model {

using opforge::DispatchPolicy;
using opforge::SramMode;
using opforge::TimingMode;

struct ClockParams {
  double freq_ghz = 0;  // PE and fabric clock
};

struct CoreParams {
  uint32_t vlen_bits = 0;  // RVV VLEN
  uint32_t vec_lanes = 0;  // 32-bit elements the vector unit retires per cycle
};

struct LocalMemParams {
  uint64_t size_bytes = 0;
  uint32_t banks = 0;
  uint64_t interleave_bytes = 0;     // consecutive bytes on one bank
  double bank_bytes_per_cycle = 0;   // per bank
  uint32_t latency_cycles = 0;
};

struct DmaParams {
  uint32_t engines = 0;         // per PE
  uint32_t queue_depth = 0;     // commands in flight per engine
  uint32_t setup_cycles = 0;    // per command
  double bytes_per_cycle = 0;   // engine issue bandwidth
  uint64_t burst_bytes = 0;     // transfer granule on the fabric
};

struct DpeParams {
  uint32_t macs_per_cycle_bf16 = 0;
  uint32_t macs_per_cycle_fp16 = 0;
  uint32_t macs_per_cycle_fp32 = 0;
  uint32_t macs_per_cycle_int8 = 0;
  uint32_t tile_max_m = 0, tile_max_n = 0, tile_max_k = 0;
  uint32_t setup_cycles = 0;  // per command
  uint32_t queue_depth = 0;
};

struct SfuParams {
  uint32_t elements_per_cycle = 0;
  uint32_t latency_cycles = 0;
  uint32_t precision_bits = 0;  // mantissa bits of the special functions, 0 exact
  uint32_t bits_per_pass = 8;   // significand bits one evaluation pass resolves
};

struct NocParams {
  double link_bytes_per_cycle = 0;
  uint32_t hop_latency_cycles = 0;
  uint32_t mem_ports_per_row = 1;  // 1: west edge; 2: west and east edges
};

struct SramParams {
  uint64_t size_bytes = 0;
  uint32_t banks = 0;
  double bank_bytes_per_cycle = 0;
  uint32_t latency_cycles = 0;
  SramMode mode = SramMode::Cache;
  uint32_t line_bytes = 0;
  uint32_t ways = 0;
};

struct DramParams {
  uint64_t capacity_bytes = 0;
  uint32_t channels = 0;
  double channel_gbps = 0;  // GB/s per channel (1e9 bytes/s)
  double latency_ns = 0;
  uint64_t interleave_bytes = 0;  // consecutive bytes on one channel
};

struct HostLinkParams {
  double gbps = 0;        // GB/s each direction
  double latency_ns = 0;  // per copy
};

struct CommandProcessorParams {
  uint32_t launch_latency_cycles = 0;
  uint32_t program_start_cycles = 0;  // per program instance handed to a PE
  DispatchPolicy policy = DispatchPolicy::RoundRobin;
};

// Guest physical memory map (docs/model/memory-map.md).
struct MemoryMapParams {
  uint64_t local_alias_base = 0;   // each PE sees its own local memory here
  uint64_t local_window_base = 0;  // PE i's local memory at base + i * stride
  uint64_t local_window_stride = 0;
  uint64_t sram_base = 0;  // scratch-mode SRAM window
  uint64_t dram_base = 0;
  uint64_t code_reserved_bytes = 0;  // DRAM bottom kept for program images (not alloc'd)
};

struct SimParams {
  TimingMode timing = TimingMode::Lt;
  uint64_t quantum_cycles = 0;
  uint64_t watchdog_cycles = 0;       // per launch
  uint64_t sample_period_cycles = 0;  // 0: no sampler
};

struct GridParams {
  uint32_t rows = 0;
  uint32_t cols = 0;
};

struct ChipParams {
  std::string name;
  ArchConfig arch;  // the source of every field below (written beside results)
  ClockParams clock;
  GridParams grid;
  CoreParams core;
  LocalMemParams local_mem;
  DmaParams dma;
  DpeParams dpe;
  SfuParams sfu;
  NocParams noc;
  SramParams sram;
  DramParams dram;
  HostLinkParams host_link;
  CommandProcessorParams cp;
  MemoryMapParams map;
  SimParams sim;

  uint32_t num_pes() const { return grid.rows * grid.cols; }
  // Picoseconds per core clock cycle (rounded; SystemC time resolution is 1 ps).
  double cycle_ps() const { return 1000.0 / clock.freq_ghz; }
};

// The model's view of an ArchConfig. Throws opforge::Error (naming the
// field) for a configuration the model cannot build, e.g. a grid whose PE
// windows do not fit the memory map.
ChipParams params_from(const ArchConfig &arch);
// ArchConfig::load(name_or_file, overrides) then params_from().
ChipParams load_params(const std::string &name_or_file = "mtia-2i",
                       const std::vector<std::string> &overrides = {});

const char *timing_mode_name(TimingMode m);
TimingMode parse_timing_mode(const std::string &s);

}  // namespace opforge::model
