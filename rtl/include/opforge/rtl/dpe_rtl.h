//===- dpe_rtl.h - C++ adapter owning the verilated DPE MAC array ---------===//
//
// DpeRtl owns a Verilator --cc model of rtl/dpe/dpe.sv and runs it in bursts:
// run() streams the operands of one DpeCommand from a local-memory span into
// the block, clocking it `burst_cycles` at a time without returning, and
// writes the result tiles back. No SystemC: the TLM adapter wraps this class.
// Waveforms (FST) only on request; the model's final() is always called.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/rtl/dpe_timing.h"

namespace opforge::rtl {

struct DpeRtlOptions {
  DpeArrayShape array{4, 4};       // one of DpeRtl::available_arrays()
  uint32_t burst_cycles = 100;     // cycles per inner burst
  std::string trace_path;          // FST waveform file; empty: no waveform
  uint64_t trace_start_cycle = 0;  // first cycle dumped
  uint64_t trace_cycles = 0;       // cycles dumped (0: to the end)
};

struct DpeRunResult {
  uint64_t cycles = 0;  // edge that accepted the command .. edge leaving DONE
  uint64_t tiles = 0;   // output tiles computed
};

class DpeRtl {
 public:
  // Throws opforge::Error (path rtl.dpe.array) for a size not verilated.
  explicit DpeRtl(DpeRtlOptions options = {});
  ~DpeRtl();
  DpeRtl(const DpeRtl &) = delete;
  DpeRtl &operator=(const DpeRtl &) = delete;

  // Array sizes verilated into this build (CMake OPFORGE_RTL_DPE_ARRAYS).
  static std::vector<DpeArrayShape> available_arrays();
  // The array size of this instance.
  DpeArrayShape array_shape() const;

  // Fault injection (a wrong result on purpose): cell (0,0) rounds bf16/fp16
  // ties away from zero instead of to even.
  void set_inject_fault(bool on);

  // Execute cmd on local memory `mem` (its first byte at guest address base):
  // reads A and B, reads C when accumulating, writes C. Throws opforge::Error
  // for a command the block does not run or an operand outside the span.
  DpeRunResult run(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base = 0);

  // Clock cycles simulated since construction (reset included).
  uint64_t total_cycles() const;

  struct Impl;  // one verilated array size (dpe_rtl.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::rtl
