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
// Chaining: a command the accelerator chains (DpeJob::chain) continues the
// block paused at the previous command's pause point; the block stays
// paused (not evaluated) until the next command or finish() (dpewait, an
// unchained command, the end of an instance), which runs it to DONE and
// writes the last rows. lockstep compares each command's cycles to its
// pause point when it is issued, the tail's cycles at finish(), and each
// command's C when its last row is out (against the C++ DPE's C, computed
// at issue on local memory with the C of commands whose rows are still in
// the block laid over it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "opforge/model/pe_accel.h"
#include "opforge/rtl/dpe_lockstep.h"
#include "opforge/rtl/dpe_rtl.h"

namespace opforge::rtl {

struct RtlBackendOptions {
  uint32_t burst_cycles = 100;    // cycles per inner burst of the block
  bool inject_fault = false;      // the block's fault input (a broken RTL on purpose)
  bool sfu_inject_fault = false;  // the SFU lane's fault input
};

// The verilated DPE of one PE.
class RtlDpeBackend : public model::DpeBackend {
 public:
  RtlDpeBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                const model::DpeBackendOptions &model_options, const RtlBackendOptions &options);
  model::DpeOutcome execute(const model::DpeJob &job) override;
  bool chains() const override { return true; }
  model::DpeOutcome finish() override;

  DpeRtl &block() { return rtl_; }

 protected:
  // Run the job on the block; fp32 goes to the C++ DPE.
  model::DpeOutcome run_rtl(const model::DpeJob &job);
  // Run the paused block to DONE.
  model::DpeOutcome finish_rtl();

  model::TlmDpeBackend tlm_;
  DpeRtl rtl_;
  uint32_t pe_row_ = 0, pe_col_ = 0;
};

// Both implementations, compared on every command.
class LockstepDpeBackend final : public RtlDpeBackend {
 public:
  LockstepDpeBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                     const model::DpeBackendOptions &model_options,
                     const RtlBackendOptions &options);
  model::DpeOutcome execute(const model::DpeJob &job) override;
  model::DpeOutcome finish() override;

 private:
  // A command whose rows are not all out of the block yet.
  struct InFlight {
    model::DpeJob job;              // as issued (local_mem: the live memory)
    std::vector<uint8_t> expected;  // local memory image the C++ DPE wrote
    uint64_t expected_cycles = 0;   // its cycles to the pause point (C++ DPE)
  };
  void retire(uint64_t command_index);  // compare C once its last row is out

  std::deque<InFlight> inflight_;
  std::string divergence_;  // the first result divergence not yet reported
};

// "pe[R][C] dpe command #N (issued at cycle T)": where a finding happened.
std::string describe_dpe_job(const model::DpeJob &job);

// Register `rtl` and `lockstep` with model::register_dpe_backend and
// model::register_sfu_backend (sfu_backends.h); again to change the options.
void register_model_backends(RtlBackendOptions options = {});

}  // namespace opforge::rtl
