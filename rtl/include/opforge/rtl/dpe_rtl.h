//===- dpe_rtl.h - C++ adapter owning the verilated DPE MAC array ---------===//
//
// DpeRtl owns a Verilator --cc model of rtl/dpe/dpe.sv and runs it in bursts:
// run() streams the operands of one DpeCommand from a local-memory span into
// the block, clocking it `burst_cycles` at a time without returning, and
// writes the result tiles back. No SystemC: the TLM adapter wraps this class.
// Chained commands (issue/finish): the block pauses where it can take the
// next command while the previous one's last tiles are still in its
// pipeline; issue(chain = true) continues the same stream, finish() runs it
// to DONE and writes the last rows (docs/rtl/dpe.md, "Chaining").
// Waveforms (FST) only on request; the model's final() is always called.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
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

struct DpeIssueResult {
  // cycles: the accepting edge (block idle) or the previous pause point
  // (chained) .. this command's pause point, or .. the edge leaving DONE when
  // nothing stays pending (m or n of 0).
  uint64_t cycles = 0;
  bool pending = false;  // paused: rows of this command are still to come
  uint64_t tiles = 0;
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
  // One command alone: issue() then finish(). Throws if a stream is pending.
  DpeRunResult run(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base = 0);

  // Stream use. issue(chain = false) needs an idle block (finish() first);
  // chain = true continues the paused stream (m and n not 0). The block
  // then pauses again at this command's pause point. The memory the paused
  // commands use must stay valid until their rows are out (finish()).
  // `id` is handed to the retire callback. On an Error the block is reset
  // and the stream dropped.
  DpeIssueResult issue(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base,
                       bool chain, uint64_t id = 0);
  // Run the paused stream to DONE, writing the last rows: cycles from the
  // pause point to the edge leaving DONE (0 when nothing is pending).
  uint64_t finish();
  bool pending() const;
  // Called with a command's id right after its last result row is written.
  void set_retire_callback(std::function<void(uint64_t id)> callback);

  // Clock cycles simulated since construction (reset included).
  uint64_t total_cycles() const;

  struct Impl;  // one verilated array size (dpe_rtl.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::rtl
