//===- dpe_timing_test.cpp - the double-buffered DPE's cycle count: RTL vs dpe_timing.h over many shapes -===//
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "dpe_test_util.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

// Every verilated array, both dtypes' beat rates, with and without
// accumulate, over shapes that hit partial row and column tiles, one tile,
// k below, at and above the drain length (drain-bound and compute-bound
// steps) and k == 0: the block's cycle count is the formula's, and C is the
// reference's.
TEST(DpeTiming, RtlCycleCountEqualsFormulaOverManyShapes) {
  std::mt19937 rng(77);
  int commands = 0;
  for (const DpeArrayShape arr : DpeRtl::available_arrays()) {
    DpeRtlOptions opts;
    opts.array = arr;
    DpeRtl rtl(opts);
    const uint32_t r = arr.rows, c = arr.cols;
    const std::set<uint32_t> ms = {1, r > 1 ? r - 1 : 1, r, r + 1, 2 * r, 3 * r + 1};
    const std::set<uint32_t> ns = {1, c, c + 1, 2 * c + 1};
    const std::set<uint32_t> ks = {0, 1, 2, r > 1 ? r - 1 : 1, r, r + 1, 2 * r + 3};
    for (const DpeDType dtype : {DpeDType::BF16, DpeDType::INT8}) {
      for (const bool acc : {false, true}) {
        for (const uint32_t m : ms) {
          for (const uint32_t n : ns) {
            for (const uint32_t k : ks) {
              DpeCase tc(dtype, m, n, k, acc);
              for (uint8_t &byte : tc.mem) byte = static_cast<uint8_t>(rng() % 7);
              EXPECT_EQ(run_and_compare(rtl, tc), 0)
                  << r << "x" << c << " m=" << m << " n=" << n << " k=" << k << " acc=" << acc;
              ++commands;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(commands, 500);
}

// When every tile's k beats cover a drain (k_beats >= rows), a command costs
// its compute cycles plus one drain, one load when accumulating, and the
// accept and DONE cycles: the double buffer hides every other drain and load.
TEST(DpeTiming, ComputeBoundCommandCostsComputePlusOneDrainAndLoad) {
  struct Case {
    DpeArrayShape arr;
    uint32_t m, n, k;
    bool int8;
  };
  const Case cases[] = {
      {{32, 32}, 64, 64, 64, false}, {{32, 32}, 64, 64, 64, true},   {{32, 32}, 100, 70, 300, false},
      {{8, 8}, 16, 16, 16, false},   {{8, 8}, 20, 28, 41, true},     {{4, 4}, 9, 9, 4, false},
      {{16, 31}, 64, 64, 64, false}, {{32, 32}, 1024, 1024, 64, false},
  };
  for (const Case &tc : cases) {
    const uint64_t k_beats = tc.int8 ? (tc.k + 1) / 2 : tc.k;
    const uint64_t tiles_m = (tc.m + tc.arr.rows - 1) / tc.arr.rows;
    const uint64_t tiles = tiles_m * ((tc.n + tc.arr.cols - 1) / tc.arr.cols);
    const uint64_t last_rows = tc.m - (tiles_m - 1) * tc.arr.rows;
    const uint64_t first_rows = std::min<uint64_t>(tc.m, tc.arr.rows);
    ASSERT_GE(k_beats, tc.arr.rows);
    EXPECT_EQ(dpe_command_cycles(tc.arr, tc.m, tc.n, tc.k, false, tc.int8),
              2 + tiles * k_beats + last_rows)
        << tc.m << "x" << tc.n << "x" << tc.k;
    EXPECT_EQ(dpe_command_cycles(tc.arr, tc.m, tc.n, tc.k, true, tc.int8),
              2 + first_rows + tiles * k_beats + last_rows)
        << tc.m << "x" << tc.n << "x" << tc.k << " accumulate";
  }
  // The mtia-2i array (32x32): 64x64x64 bf16 is 4 tiles of 64 beats.
  EXPECT_EQ(dpe_command_cycles(DpeArrayShape{32, 32}, 64, 64, 64, false), 2u + 256 + 32);
}

// When k is short, a step lasts as long as the drain (and load) of the
// neighbouring tiles: one row per cycle.
TEST(DpeTiming, DrainBoundStepsLastOneCyclePerRow) {
  // 4x4 array, 8x8 output: 4 tiles of 4 rows, k = 1.
  //  no accumulate: steps 1, 4, 4, 4, final drain 4, plus 2.
  EXPECT_EQ(dpe_command_cycles(DpeArrayShape{4, 4}, 8, 8, 1, false), 2u + 1 + 4 + 4 + 4 + 4);
  //  accumulate: load 4, steps 4 (load), 4, 4, 4 (drain only), final drain 4, plus 2.
  EXPECT_EQ(dpe_command_cycles(DpeArrayShape{4, 4}, 8, 8, 1, true), 2u + 4 + 4 + 4 + 4 + 4 + 4);
  // A partial last row of tiles (m = 6: 2 rows) drains in 2 cycles.
  EXPECT_EQ(dpe_command_cycles(DpeArrayShape{4, 4}, 6, 4, 1, false), 2u + 1 + 4 + 2);
  DpeRtl rtl;  // 4x4
  DpeCase tc(DpeDType::BF16, 6, 4, 1, false);
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
}

}  // namespace
}  // namespace opforge::rtl::testing
