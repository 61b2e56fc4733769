//===- dpe_timing.h - closed-form cycle count of the RTL DPE --------------===//
//
// Cycles the dpe block takes for one command with its streams never stalled,
// counted from the clock edge that accepts the command to the edge that
// leaves its DONE state (docs/rtl/dpe.md):
//   m == 0 or n == 0:  2
//   otherwise:         2 + tiles_n * m * (accumulate ? 2 : 1) + tiles_m * tiles_n * k
// with tiles_m = ceil(m / rows), tiles_n = ceil(n / cols): every tile loads
// (when accumulating) and drains one row per cycle and takes one k step per
// cycle. The TLM DPE uses the same formula so `tlm` and `rtl` agree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace opforge::rtl {

struct DpeArrayShape {
  uint32_t rows = 4;
  uint32_t cols = 4;
};

inline uint64_t dpe_command_cycles(DpeArrayShape array, uint32_t m, uint32_t n, uint32_t k,
                                   bool accumulate) {
  if (m == 0 || n == 0) return 2;
  const uint64_t tiles_m = (static_cast<uint64_t>(m) + array.rows - 1) / array.rows;
  const uint64_t tiles_n = (static_cast<uint64_t>(n) + array.cols - 1) / array.cols;
  return 2 + tiles_n * m * (accumulate ? 2 : 1) + tiles_m * tiles_n * k;
}

}  // namespace opforge::rtl
