//===- device.h - model::Device, the host driver over the chip model ------===//
//
// The public face of the chip model; free of SystemC (pimpl), so harness
// code including it needs no SystemC headers.
//
// One Device per process: SystemC elaborates a design once and cannot tear
// it down, so constructing a second Device (even after the first is gone)
// throws opforge::Error. Sweeps run one process per configuration point.
//
// Device memory is DRAM, handed out by alloc()/free(); copies in and out take
// host-link time (bandwidth and latency from the config), counted apart from
// kernel time. launch() loads a program (ELF or raw code), writes its
// argument block to DRAM, runs every program instance of the grid on the PEs
// and returns cycles, counter deltas, per-PE activity and traps. enqueue() +
// synchronize() run several launches in order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opforge/model/counters.h"
#include "opforge/model/kernel_image.h"
#include "opforge/model/launch.h"
#include "opforge/model/params.h"
#include "opforge/support/host_tensor.h"

namespace opforge::model {

struct KernelLaunch {
  KernelImage image;
  std::vector<uint8_t> args;  // packed argument block; a0 points at it
  Grid3 grid;
  // Bounds checking: when set, a guest access (scalar or vector load/store,
  // DMA row) to DRAM or SRAM outside these buffers, the image's segments and
  // the argument block (read-only) is a trap of that program instance, with
  // InstanceRecord::out_of_bounds naming the address and the nearest buffer.
  // Charges no time: cycles are those of an unchecked launch.
  std::optional<std::vector<LaunchBuffer>> buffers;
};

struct PeActivity {
  uint32_t pe = 0;
  uint64_t programs = 0;
  uint64_t instructions = 0;
  uint64_t busy_cycles = 0;  // core cycles spent running instances
};

struct LaunchResult {
  uint64_t cycles = 0;  // launch latency to the last instance's end
  uint64_t start_cycle = 0, end_cycle = 0;
  uint64_t instructions = 0;  // all PEs
  double host_seconds = 0;    // wall time the simulation took
  CounterSnapshot counter_deltas;
  // This launch's samples of the sampled counters (empty unless
  // set_sampled_counters() chose some and simulation.sample_interval_cycles > 0).
  CounterSeries samples;
  std::vector<PeActivity> pe_activity;
  std::vector<InstanceRecord> instances;
  std::vector<std::string> traps;  // one line per trapped / watchdog / aborted instance
  bool ok() const { return traps.empty(); }
};

class Device {
 public:
  explicit Device(const ChipParams &params);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const ChipParams &params() const;

  // Device memory (DRAM).
  uint64_t alloc(uint64_t bytes, uint64_t align = 64);
  void free(uint64_t addr);
  uint64_t bytes_allocated() const;

  // Host <-> device copies (any mapped address: DRAM, SRAM scratch, PE windows).
  void copy_in(uint64_t addr, const void *src, uint64_t bytes);
  void copy_out(uint64_t addr, void *dst, uint64_t bytes);
  void copy_in(uint64_t addr, const HostTensor &t);  // contiguous element bytes
  HostTensor copy_out(uint64_t addr, DType dtype, const std::vector<int64_t> &sizes);
  uint64_t host_link_cycles() const;  // total time spent on the host link

  // Kernel launches.
  LaunchResult launch(const KernelLaunch &k);
  void enqueue(KernelLaunch k);
  std::vector<LaunchResult> synchronize();

  // Counters.
  CounterSnapshot counters() const;
  uint64_t counter(const std::string &name) const;
  void reset_counters();
  // Counters (globs like "pe[*].core.instret") the sampler records every
  // sim.sample_period_cycles during launches.
  void set_sampled_counters(const std::vector<std::string> &globs);
  // Snapshot, sampled series and the resolved config to HDF5
  // (docs/model/counters.md); `last` adds that launch's summary.
  void write_counters_h5(const std::string &path, const LaunchResult *last = nullptr) const;

  uint64_t now_cycles() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::model
