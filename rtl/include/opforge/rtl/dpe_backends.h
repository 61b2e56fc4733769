//===- dpe_backends.h - the verilated DPE as the chip model's DPE (rtl, lockstep) -===//
//
// model::DpeBackend implementations behind `pe.dpe.impl`:
//   rtl       the verilated MAC array computes C and its cycle count is the
//             time the command occupies the PE's DPE;
//   lockstep  the C++ DPE (model::TlmDpeBackend) and the RTL both run every
//             command; C (bit for bit) and the cycle counts must agree, else
//             the command faults and the run stops with a report naming the
//             PE, the command, the element and tile, expected vs actual, and
//             both cycle counts.
// The block runs in bursts inside the accelerator call (no sc_clock). Its
// array is model::dpe_array_dims() of the configuration, which must be one of
// DpeRtl::available_arrays(). fp32 commands (not in the array) run on the C++
// DPE in both modes. One PE's block can write an FST waveform
// (model::DpeBackendOptions::trace*).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "opforge/model/pe_accel.h"
#include "opforge/rtl/dpe_lockstep.h"
#include "opforge/rtl/dpe_rtl.h"

namespace opforge::rtl {

struct RtlBackendOptions {
  uint32_t burst_cycles = 100;  // cycles per inner burst of the block
  bool inject_fault = false;    // the block's fault input (a broken RTL on purpose)
  bool sfu_inject_fault = false;  // the SFU lane's fault input
};

// The verilated DPE of one PE.
class RtlDpeBackend : public model::DpeBackend {
 public:
  RtlDpeBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                const model::DpeBackendOptions &model_options, const RtlBackendOptions &options);
  model::DpeOutcome execute(const model::DpeJob &job) override;

  DpeRtl &block() { return rtl_; }

 protected:
  // Run the job on the block; fp32 goes to the C++ DPE.
  model::DpeOutcome run_rtl(const model::DpeJob &job);

  model::TlmDpeBackend tlm_;
  DpeRtl rtl_;
};

// Both implementations, compared on every command.
class LockstepDpeBackend final : public RtlDpeBackend {
 public:
  using RtlDpeBackend::RtlDpeBackend;
  model::DpeOutcome execute(const model::DpeJob &job) override;

 private:
  std::vector<uint8_t> expected_;  // local memory image the C++ DPE writes
};

// "pe[R][C] dpe command #N (issued at cycle T)": where a finding happened.
std::string describe_dpe_job(const model::DpeJob &job);

// Register `rtl` and `lockstep` with model::register_dpe_backend and
// model::register_sfu_backend (sfu_backends.h); again to change the options.
void register_model_backends(RtlBackendOptions options = {});

}  // namespace opforge::rtl
