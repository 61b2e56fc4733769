//===- pe_accel.h - a PE's DMA engines, DPE and SFU (AcceleratorIf) -------===//
//
// The timed implementation of isa::AcceleratorIf. Data moves when a command
// is issued (loosely timed: the guest must wait before it may rely on the
// result anyway); time is booked on each unit's queue and occupancy model,
// and waits stall the hart until the recorded completion time.
//  - DMA: `engines` engines, each with a queue of `queue_depth` commands; a
//    command costs setup_cycles, then issues burst_bytes bursts at
//    bytes_per_cycle; every burst reads its source and writes its destination
//    through local memory banks or the bus (NoC, SRAM, DRAM). Completion per
//    tag is the latest burst's completion.
//  - DPE: one engine with a queue; a command occupies it m*n*k/macs_per_cycle
//    cycles (setup_cycles of latency overlap the previous command).
//  - SFU: the hart computes and charges the beats; here it is counted.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/model/counters.h"
#include "opforge/model/params.h"
#include "opforge/model/timing.h"

namespace opforge::model {

class LocalMemTarget;

// What the accelerators need from their PE.
class PeServices {
 public:
  virtual ~PeServices() = default;
  virtual double now_cycles() = 0;  // the hart's current absolute time
  virtual void stall_until(double t, uint64_t &reason_counter) = 0;
  // Own local memory alias or window -> window address; others unchanged.
  virtual uint64_t translate(uint64_t addr) const = 0;
  // A timed access outside this PE's local memory, through the bus; false if
  // unmapped. `done` receives the completion time.
  virtual bool global_access(uint64_t addr, void *data, uint64_t len, bool is_write, double t,
                             double &done) = 0;
  // Is [addr, addr + len) mapped at all (after translate)?
  virtual bool mapped(uint64_t addr, uint64_t len) const = 0;
  virtual LocalMemTarget &local_mem() = 0;
};

class PeAccelerator : public isa::AcceleratorIf {
 public:
  PeAccelerator(const ChipParams &p, uint32_t pe, PeServices &svc, CounterRegistry &counters);

  isa::AccelStatus dma_issue(const isa::DmaCommand &cmd) override;
  isa::AccelStatus dma_wait(uint32_t tag) override;
  isa::AccelStatus dpe_issue(const isa::DpeCommand &cmd) override;
  isa::AccelStatus dpe_wait() override;
  void sfu_executed(isa::SfuFunc fn, uint64_t elements) override;

  // Forget outstanding work (a new program instance, or a trap).
  void reset_queues();
  // Latest completion time of anything issued (for the end of an instance).
  double drain_time() const;

  uint64_t &stall_mem_cycles() { return *stall_mem_; }
  const char *last_fault() const { return last_fault_.c_str(); }

 private:
  // One byte range access on the PE's behalf: own local memory directly,
  // everything else through the bus.
  bool move(uint64_t addr, void *data, uint64_t len, bool is_write, double t, double &done);

  const ChipParams &p_;
  bool timed_;
  PeServices &svc_;
  std::vector<uint8_t> buf_;
  struct Engine {
    Resource issue;
    std::deque<double> inflight;  // completion times
  };
  std::vector<Engine> dma_;
  std::array<double, 16> tag_done_{};
  Resource dpe_;
  std::deque<double> dpe_inflight_;
  double dpe_done_ = 0;
  std::string last_fault_;

  uint64_t *dma_cmds_, *dma_bytes_read_, *dma_bytes_written_, *dma_bad_;
  FracCounter dma_busy_;
  uint64_t *dpe_cmds_, *dpe_macs_, *dpe_bad_;
  FracCounter dpe_busy_;
  uint64_t *sfu_ops_, *sfu_elements_;
  FracCounter sfu_busy_;
  uint64_t *stall_dma_wait_, *stall_dpe_wait_, *stall_dma_queue_, *stall_dpe_queue_, *stall_mem_;
};

}  // namespace opforge::model
