//===- command_processor.cpp - grid dispatch policies ---------------------===//
#include "opforge/model/command_processor.h"

#include "opforge/model/counters.h"

namespace opforge::model {

const char *instance_status_name(InstanceStatus s) {
  switch (s) {
    case InstanceStatus::Done:
      return "done";
    case InstanceStatus::Tohost:
      return "tohost";
    case InstanceStatus::Trap:
      return "trap";
    case InstanceStatus::Watchdog:
      return "watchdog";
    case InstanceStatus::Aborted:
      return "aborted";
  }
  return "?";
}

CommandProcessor::CommandProcessor(const ChipParams &p, CounterRegistry &counters)
    : p_(p), clk_(p), per_pe_(p.num_pes()) {
  launches_ = &counters.add("cp.launches");
  instances_ = &counters.add("cp.instances");
}

void CommandProcessor::begin(const LaunchSpec &spec) {
  spec_ = spec;
  active_ = true;
  ++generation_;
  ++*launches_;
  records_.clear();
  shared_.clear();
  for (auto &q : per_pe_) q.clear();
  start_cycle_ = clk_.cycles(sc_core::sc_time_stamp());
  end_cycle_ = start_cycle_;
  outstanding_ = spec.grid.count();
  uint64_t i = 0;
  for (uint32_t z = 0; z < spec.grid.z; ++z)
    for (uint32_t y = 0; y < spec.grid.y; ++y)
      for (uint32_t x = 0; x < spec.grid.x; ++x, ++i) {
        ProgramInstance inst{{x, y, z}};
        if (p_.cp.policy == DispatchPolicy::RoundRobin)
          per_pe_[i % per_pe_.size()].push_back(inst);
        else
          shared_.push_back(inst);
      }
  *instances_ += outstanding_;
  double latency = p_.sim.timing == TimingMode::Lt ? p_.cp.launch_latency_cycles : 0;
  start_.notify(clk_.time(latency));
}

bool CommandProcessor::next(uint32_t pe, ProgramInstance &out) {
  if (!active_) return false;
  auto &q = p_.cp.policy == DispatchPolicy::RoundRobin ? per_pe_[pe] : shared_;
  if (q.empty()) return false;
  out = q.front();
  q.pop_front();
  return true;
}

void CommandProcessor::finished(InstanceRecord rec) {
  end_cycle_ = std::max(end_cycle_, double(rec.end_cycle));
  records_.push_back(std::move(rec));
  --outstanding_;
  maybe_finish();
}

void CommandProcessor::abort() {
  auto drop = [&](std::deque<ProgramInstance> &q) {
    for (const auto &inst : q) {
      InstanceRecord r;
      std::copy(inst.pid, inst.pid + 3, r.pid);
      r.status = InstanceStatus::Aborted;
      r.message = "not started: the launch was aborted by the watchdog";
      records_.push_back(r);
      --outstanding_;
    }
    q.clear();
  };
  drop(shared_);
  for (auto &q : per_pe_) drop(q);
  maybe_finish();
}

void CommandProcessor::maybe_finish() {
  if (outstanding_ == 0 && active_) {
    active_ = false;
    sc_core::sc_pause();
  }
}

}  // namespace opforge::model
