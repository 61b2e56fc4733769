//===- dpe_timing.h - closed-form cycle count of the RTL DPE --------------===//
//
// Cycles the dpe block takes for one command with its streams never stalled,
// counted from the clock edge that accepts the command to the edge that
// leaves its DONE state (docs/rtl/dpe.md). The accumulators are double
// buffered: while tile t is computed, tile t-1 drains and (accumulate) tile
// t+1 loads, so
//   m == 0 or n == 0:  2
//   otherwise:         2 + (accumulate ? r(0) : 0)
//                        + sum over t < T of max(1, k_beats, r(t-1), accumulate ? r(t+1) : 0)
//                        + r(T-1)
// with T = ceil(m / rows) * ceil(n / cols) tiles in row-major order, r(t) the
// rows of tile t (min(rows, m - row0); terms of tiles outside 0..T-1 are 0)
// and k_beats = k for bf16/fp16, ceil(k / 2) for int8. With k_beats >= rows
// that is the compute cycles T * k_beats plus one drain (and one load).
// The TLM DPE (model::dpe_tlm_cycles) uses the same formula so `tlm` and
// `rtl` agree.
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
  const uint64_t tiles = tiles_m * tiles_n;
  // Rows of tile t: full except in the last row of tiles.
  const uint64_t last_rows = m - (tiles_m - 1) * array.rows;
  auto rows_of = [&](uint64_t t) -> uint64_t {
    return t / tiles_n + 1 == tiles_m ? last_rows : array.rows;
  };
  uint64_t cycles = 2 + (accumulate ? rows_of(0) : 0) + rows_of(tiles - 1);
  for (uint64_t t = 0; t < tiles; ++t) {
    uint64_t step = k_beats > 1 ? k_beats : 1;
    if (t > 0 && rows_of(t - 1) > step) step = rows_of(t - 1);
    if (accumulate && t + 1 < tiles && rows_of(t + 1) > step) step = rows_of(t + 1);
    cycles += step;
  }
  return cycles;
}

inline uint64_t dpe_command_cycles(DpeArrayShape array, const isa::DpeCommand &cmd) {
  return dpe_command_cycles(array, cmd.m, cmd.n, cmd.k, cmd.accumulate,
                            cmd.dtype == isa::DpeDType::INT8);
}

}  // namespace opforge::rtl
