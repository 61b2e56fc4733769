//===- dpe_timing.h - closed-form cycle count of the RTL DPE --------------===//
//
// Cycles the dpe block takes for one command with its streams never stalled,
// counted from the clock edge that accepts the command to the edge that
// leaves its DONE state (docs/rtl/dpe.md):
//   m == 0 or n == 0:  2
//   otherwise:         2 + tiles_n * m * (accumulate ? 2 : 1) + tiles_m * tiles_n * k_beats
// with tiles_m = ceil(m / rows), tiles_n = ceil(n / cols), k_beats = k for
// bf16/fp16 and ceil(k / 2) for int8: every tile loads (when accumulating)
// and drains one row per cycle and takes one operand beat per cycle (two k
// steps of int8). The TLM DPE (model::dpe_tlm_cycles) uses the same formula
// so `tlm` and `rtl` agree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

#include "opforge/isa/accel_if.h"

namespace opforge::rtl {

struct DpeArrayShape {
  uint32_t rows = 4;
  uint32_t cols = 4;
};

// k steps of int8 one operand beat carries (two int8 in a 16-bit lane).
inline constexpr uint32_t kDpeInt8PerBeat = 2;

inline uint64_t dpe_command_cycles(DpeArrayShape array, uint32_t m, uint32_t n, uint32_t k,
                                   bool accumulate, bool int8 = false) {
  if (m == 0 || n == 0) return 2;
  const uint64_t k_beats = int8 ? (uint64_t(k) + kDpeInt8PerBeat - 1) / kDpeInt8PerBeat : k;
  const uint64_t tiles_m = (static_cast<uint64_t>(m) + array.rows - 1) / array.rows;
  const uint64_t tiles_n = (static_cast<uint64_t>(n) + array.cols - 1) / array.cols;
  return 2 + tiles_n * m * (accumulate ? 2 : 1) + tiles_m * tiles_n * k_beats;
}

inline uint64_t dpe_command_cycles(DpeArrayShape array, const isa::DpeCommand &cmd) {
  return dpe_command_cycles(array, cmd.m, cmd.n, cmd.k, cmd.accumulate,
                            cmd.dtype == isa::DpeDType::INT8);
}

}  // namespace opforge::rtl
