//===- command_processor.h - launch dispatch of program instances to PEs --===//
//
// A launch's grid (x fastest, then y, then z) is split into program
// instances. Policy round_robin gives instance i to PE i % N up front;
// first_free keeps one queue that each PE draws from when it becomes free.
// PEs wait on start_event(), notified launch_latency_cycles after begin();
// the last finished instance pauses the simulation (sc_pause) so
// Device::launch returns.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <deque>
#include <vector>

#include "opforge/model/counters.h"
#include "opforge/model/launch.h"
#include "opforge/model/sc_common.h"

namespace opforge::model {

struct ProgramInstance {
  uint32_t pid[3] = {0, 0, 0};
};

class CommandProcessor {
 public:
  CommandProcessor(const ChipParams &p, CounterRegistry &counters);

  // Start a launch now (simulation time); PEs start after the launch latency.
  void begin(const LaunchSpec &spec);
  bool active() const { return active_; }
  const LaunchSpec &spec() const { return spec_; }
  double start_cycle() const { return start_cycle_; }
  uint64_t generation() const { return generation_; }
  sc_core::sc_event &start_event() { return start_; }

  // Next instance for PE `pe`, if any.
  bool next(uint32_t pe, ProgramInstance &out);
  void finished(InstanceRecord rec);
  // Stop handing out work (watchdog): queued instances are recorded Aborted.
  void abort();

  const std::vector<InstanceRecord> &records() const { return records_; }
  double end_cycle() const { return end_cycle_; }

 private:
  void maybe_finish();

  const ChipParams &p_;
  ChipClock clk_;
  LaunchSpec spec_;
  bool active_ = false;
  uint64_t generation_ = 0;
  double start_cycle_ = 0, end_cycle_ = 0;
  uint64_t outstanding_ = 0;
  std::vector<std::deque<ProgramInstance>> per_pe_;
  std::deque<ProgramInstance> shared_;
  std::vector<InstanceRecord> records_;
  sc_core::sc_event start_;
  uint64_t *launches_, *instances_;
};

}  // namespace opforge::model
