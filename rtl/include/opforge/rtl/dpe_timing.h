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
// Chained commands (DpeStreamTiming): the block takes the next command once
// the running stream's last tile is in LOAD (the pause point); the new tiles
// follow in the same step pipeline. A stream's cycles are cut into a head
// per command (accept, or the previous pause point, to its own pause point)
// and one tail (the last pause point to the edge leaving DONE); an unchained
// command's head + tail is dpe_command_cycles().
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

#include "opforge/support/error.h"

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

// Step-level model of the block's pipeline for a stream of chained commands
// (docs/rtl/dpe.md, "Chaining"). In a step, COMP of tile s-1, DRAIN of tile
// s-2 and LOAD of tile s (accumulating tiles only) run side by side; the step
// lasts max(1, k_beats(s-1), rows(s-2), load(s) ? rows(s) : 0) cycles. The
// stream pauses at the start of the step whose LOAD tile is the last one
// handed out (the block's cmd_ready rises there).
class DpeStreamTiming {
 public:
  explicit DpeStreamTiming(DpeArrayShape array, uint32_t int8_per_beat = kDpeInt8PerBeat)
      : array_(array), int8_per_beat_(std::max<uint32_t>(1, int8_per_beat)) {}

  // A command on an idle block: cycles from the edge that accepts it to its
  // pause point (or to the edge leaving DONE when m or n is 0: nothing stays
  // pending). Throws opforge::Error when a stream is pending.
  uint64_t start(uint32_t m, uint32_t n, uint32_t k, bool accumulate, bool int8) {
    if (pending_) throw Error("DPE stream: a command started while another is pending");
    c_ = f_ = Tile{};
    d_rows_ = 0;
    if (m == 0 || n == 0) return 2;
    append(m, n, k, accumulate, int8);
    if (!accumulate) c_ = pop();
    f_ = pop();
    pending_ = true;
    uint64_t cycles = 1;
    while (!gen_.empty()) cycles += step();
    return cycles;
  }
  // A command taken at the pause point of the pending stream: cycles from
  // that pause point to the new one. m and n must not be 0.
  uint64_t chain(uint32_t m, uint32_t n, uint32_t k, bool accumulate, bool int8) {
    if (!pending_) throw Error("DPE stream: a chained command without a pending stream");
    if (m == 0 || n == 0) throw Error("DPE stream: an empty command cannot be chained");
    append(m, n, k, accumulate, int8);
    uint64_t cycles = 0;
    while (!gen_.empty()) cycles += step();
    return cycles;
  }
  // The tail: cycles from the pause point to the edge leaving DONE (0 when
  // nothing is pending).
  uint64_t finish() {
    if (!pending_) return 0;
    uint64_t cycles = 1;  // the DONE cycle
    for (;;) {
      const bool last = !c_.on && !f_.on;
      cycles += step();
      if (last) break;
    }
    pending_ = false;
    return cycles;
  }
  bool pending() const { return pending_; }

 private:
  struct Tile {
    bool on = false;
    bool load = false;
    uint32_t rows = 0;
    uint64_t k_beats = 0;
  };
  void append(uint32_t m, uint32_t n, uint32_t k, bool accumulate, bool int8) {
    const uint64_t k_beats = int8 ? (uint64_t(k) + int8_per_beat_ - 1) / int8_per_beat_ : k;
    const uint64_t tiles_n = (uint64_t(n) + array_.cols - 1) / array_.cols;
    for (uint64_t row0 = 0; row0 < m; row0 += array_.rows)
      for (uint64_t t = 0; t < tiles_n; ++t)
        gen_.push_back(Tile{true, accumulate,
                            static_cast<uint32_t>(std::min<uint64_t>(array_.rows, m - row0)),
                            k_beats});
  }
  Tile pop() {
    if (gen_.empty()) return Tile{};
    const Tile t = gen_.front();
    gen_.pop_front();
    return t;
  }
  // Run the current step; returns its cycles.
  uint64_t step() {
    uint64_t len = 1;
    if (c_.on) len = std::max(len, c_.k_beats);
    len = std::max<uint64_t>(len, d_rows_);
    if (f_.on && f_.load) len = std::max<uint64_t>(len, f_.rows);
    d_rows_ = c_.on ? c_.rows : 0;
    c_ = f_;
    f_ = pop();
    return len;
  }

  DpeArrayShape array_;
  uint32_t int8_per_beat_;
  Tile c_, f_;            // COMP and LOAD tiles of the current step
  uint32_t d_rows_ = 0;   // rows drained in the current step
  std::deque<Tile> gen_;  // tiles not yet in the pipeline
  bool pending_ = false;
};

}  // namespace opforge::rtl
