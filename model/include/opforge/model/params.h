//===- params.h - typed parameters of every chip model unit ---------------===//
//
// gem5 style: each unit takes `const XParams&`. ChipParams gathers them and
// is built from an architecture JSON document (scenarios/arch/*.json) by
// chip_params_from_json(); every timing figure comes from there, none is a
// literal in the model code. Units are part of every name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace opforge::model {

enum class TimingMode { Functional, Lt };
enum class SramMode { Cache, Scratch };
enum class DispatchPolicy { RoundRobin, FirstFree };

struct ClockParams {
  double freq_ghz = 0;  // PE and fabric clock
};

// Per-class instruction costs handed to the ISS cost table (lt mode).
struct CoreCostParams {
  uint32_t alu_cycles = 1;
  uint32_t mul_cycles = 1;
  uint32_t div_cycles = 1;
  uint32_t load_cycles = 1;
  uint32_t store_cycles = 1;
  uint32_t branch_cycles = 1;
  uint32_t fp_cycles = 1;
  uint32_t fdiv_cycles = 1;
  uint32_t csr_cycles = 1;
  uint32_t vec_issue_cycles = 1;  // fixed part of a vector instruction
  // Per beat (one beat = vec_lanes 32-bit elements) of the slower vector classes.
  uint32_t vec_div_beat_cycles = 1;
  uint32_t vec_permute_beat_cycles = 1;
  uint32_t vec_reduce_beat_cycles = 1;
};

struct CoreParams {
  uint32_t vlen_bits = 0;  // RVV VLEN
  uint32_t vec_lanes = 0;  // 32-bit elements the vector unit retires per cycle
  CoreCostParams cost;
};

struct LocalMemParams {
  uint64_t size_bytes = 0;
  uint32_t banks = 0;
  uint32_t bank_bytes_per_cycle = 0;  // per bank
  uint32_t latency_cycles = 0;
};

struct DmaParams {
  uint32_t engines = 0;          // per PE
  uint32_t queue_depth = 0;      // commands in flight per engine
  uint32_t setup_cycles = 0;     // per command
  uint32_t bytes_per_cycle = 0;  // engine issue bandwidth
  uint32_t burst_bytes = 0;      // transfer granule on the fabric
};

struct DpeParams {
  uint32_t macs_per_cycle_bf16 = 0;  // also fp16
  uint32_t macs_per_cycle_fp32 = 0;
  uint32_t macs_per_cycle_int8 = 0;
  uint32_t setup_cycles = 0;  // per command
  uint32_t queue_depth = 0;
};

struct SfuParams {
  uint32_t elements_per_cycle = 0;
  uint32_t latency_cycles = 0;
  uint32_t precision_bits = 0;  // mantissa bits of the special functions, 0 exact
};

struct NocParams {
  uint32_t link_bytes_per_cycle = 0;
  uint32_t hop_latency_cycles = 0;
};

struct SramParams {
  uint64_t size_bytes = 0;
  uint32_t banks = 0;
  uint32_t bank_bytes_per_cycle = 0;
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
  uint32_t interleave_bytes = 0;  // consecutive bytes on one channel
};

struct HostLinkParams {
  double gbps = 0;        // GB/s each direction
  double latency_us = 0;  // per copy
};

struct CommandProcessorParams {
  uint32_t launch_latency_cycles = 0;
  uint32_t program_start_cycles = 0;
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

// Build from an architecture document; `file` names it in errors. Missing or
// ill-typed fields, and inconsistent values, throw opforge::Error naming the
// JSON path.
ChipParams chip_params_from_json(const nlohmann::json &doc, const std::string &file = "");
// Load a preset by name (scenarios/arch/<name>.json) or by file path.
ChipParams load_chip_params(const std::string &name_or_path);
// Apply "a.b.c=value" (JSON value or bare string) to a document before parsing.
void apply_override(nlohmann::json &doc, const std::string &key_eq_value);
// The resolved document (every field), for writing beside results.
nlohmann::json chip_params_to_json(const ChipParams &p);

const char *timing_mode_name(TimingMode m);
TimingMode parse_timing_mode(const std::string &s);

}  // namespace opforge::model
