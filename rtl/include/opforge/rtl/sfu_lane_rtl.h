//===- sfu_lane_rtl.h - C++ adapter owning the verilated SFU lane ---------===//
//
// SfuLaneRtl owns a Verilator --cc model of rtl/sfu/sfu_lane.sv and streams a
// vector through it, one element per clock, in one burst. Numerics are those
// of sfu_ref.h. Waveforms (FST) only on request; final() is always called.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace opforge::rtl {

struct SfuLaneRunResult {
  std::vector<uint32_t> y_bits;  // fp32 patterns, one per input
  uint64_t cycles = 0;           // clock cycles the stream took
};

class SfuLaneRtl {
 public:
  explicit SfuLaneRtl(std::string trace_path = {});  // FST waveform file
  ~SfuLaneRtl();
  SfuLaneRtl(const SfuLaneRtl &) = delete;
  SfuLaneRtl &operator=(const SfuLaneRtl &) = delete;

  // Fault injection (a wrong result on purpose): finite non-zero exp results
  // get their lowest kept fraction bit flipped.
  void set_inject_fault(bool on);

  // func: kSfuFuncExp or kSfuFuncRecip (sfu_ref.h); prec: fraction bits kept
  // (0 = full fp32, at most 31). Throws opforge::Error for a bad prec.
  SfuLaneRunResult run(unsigned func, unsigned prec, std::span<const uint32_t> x_bits);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::rtl
