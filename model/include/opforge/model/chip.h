//===- chip.h - the chip's top module: units, wiring, host port, sampler --===//
//
// Elaborates the whole chip from ChipParams: command processor, R x C PEs,
// the bus with its NoC model, shared SRAM, DRAM, and the host port (bus
// initiator N) used by the Device for copies. Binding is by name and order
// documented in bus.h; no unit holds a pointer to another.
// The sampler thread records chosen counters every sample_period_cycles while
// a launch runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <vector>

#include "opforge/model/bus.h"
#include "opforge/model/command_processor.h"
#include "opforge/model/counters.h"
#include "opforge/model/dram.h"
#include "opforge/model/memory_map.h"
#include "opforge/model/pe.h"
#include "opforge/model/sc_common.h"
#include "opforge/model/sram.h"

namespace opforge::model {

class Chip : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Chip);

  Chip(sc_core::sc_module_name name, const ChipParams &p);
  ~Chip() override;

  const ChipParams &params() const { return p_; }
  CounterRegistry &counters() { return counters_; }
  const MemoryMap &map() const { return map_; }
  CommandProcessor &cp() { return cp_; }
  Pe &pe(uint32_t i) { return *pes_[i]; }
  DramTarget &dram() { return *dram_; }
  SramTarget &sram() { return *sram_; }
  Bus &bus() { return *bus_; }

  // Host port: untimed data movement (Device charges the host link).
  bool host_write(uint64_t addr, const void *src, uint64_t len);
  bool host_read(uint64_t addr, void *dst, uint64_t len);

  // Counters the sampler records (indices into the registry).
  void set_sampled(std::vector<size_t> indices);
  const CounterSeries &series() const { return series_; }
  void clear_series();

  double now_cycles() const { return clk_.cycles(sc_core::sc_time_stamp()); }

 private:
  void sampler();
  bool host_transfer(tlm::tlm_command cmd, uint64_t addr, void *data, uint64_t len);

  ChipParams p_;
  ChipClock clk_;
  CounterRegistry counters_;
  MemoryMap map_;
  CommandProcessor cp_;
  std::unique_ptr<Bus> bus_;
  std::unique_ptr<DramTarget> dram_;
  std::unique_ptr<SramTarget> sram_;
  std::vector<std::unique_ptr<Pe>> pes_;
  tlm_utils::simple_initiator_socket<Chip> host_socket_;
  std::vector<size_t> sampled_;
  CounterSeries series_;
};

}  // namespace opforge::model
