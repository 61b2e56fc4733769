//===- sfu_backends.h - the verilated SFU lane as the chip model's SFU (rtl, lockstep) -===//
//
// model::SfuBackend implementations behind `pe.sfu.impl`:
//   rtl       the verilated sfu_lane computes exp and reciprocal (replacing
//             the ISS's results) and its cycle count is the SFU's busy time;
//   lockstep  the same, and every element must equal the ISS's result
//             (isa::sfu::evaluate; any NaN matches any NaN), else the
//             instruction faults and the run stops with a report naming the
//             PE, the PC, the element index, the input and expected vs actual.
// The lane's stream of n elements takes n + 1 cycles (sfu_timing.h); the
// SFU's pe.sfu.elements_per_cycle lanes side by side take
// ceil(n / lanes) + 1, the busy time both modes book. Other functions (log,
// tanh, ...) are not in the lane: they keep the ISS's results and the TLM
// timing (model::sfu_busy_cycles).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/model/pe_accel.h"
#include "opforge/rtl/sfu_lane_rtl.h"

namespace opforge::rtl {

class RtlSfuBackend final : public model::SfuBackend {
 public:
  RtlSfuBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col, bool lockstep,
                bool inject_fault);
  model::SfuOutcome execute(const model::SfuJob &job) override;

  SfuLaneRtl &lane() { return lane_; }

 private:
  model::SfuParams sfu_;
  bool lockstep_;
  SfuLaneRtl lane_;
  std::vector<uint32_t> x_;
};

// "pe[R][C] sfu instruction #N at pc 0x...": where a finding happened.
std::string describe_sfu_job(const model::SfuJob &job);

}  // namespace opforge::rtl
