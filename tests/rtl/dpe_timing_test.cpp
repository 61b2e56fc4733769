//===- dpe_timing_test.cpp - DPE cycles, RTL vs dpe_timing.h, incl. chained streams ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

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
      {{32, 32}, 64, 64, 64, false},   {{32, 32}, 64, 64, 64, true},
      {{32, 32}, 100, 70, 300, false}, {{8, 8}, 16, 16, 16, false},
      {{8, 8}, 20, 28, 41, true},      {{4, 4}, 9, 9, 4, false},
      {{16, 31}, 64, 64, 64, false},   {{32, 32}, 1024, 1024, 64, false},
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

// One command of a random stream: where its operands live in a shared image.
struct StreamCommand {
  isa::DpeCommand cmd;
  bool chain = false;
  std::vector<uint8_t> want_c;  // C rows (ldc apart) after the command, from the reference
};

// Random streams of commands (mixed shapes including edge tiles, bf16, fp16
// and int8, with and without accumulate, k = 0 included), each either
// chained to the paused stream or started after finish(): every head, chain
// and tail cycle count of the RTL equals DpeStreamTiming's, every command's
// C is the reference's at the moment its last row is out (retire callback,
// in issue order), and the whole image equals the reference at the end.
// Streams include K-loops that accumulate into the same C (the matmul
// pattern): with two tiles the new tile 0 loads rows the previous command's
// tile 0 drains in the same step (drained rows land before loaded rows are
// read), with three or more tile rows they are disjoint.
TEST(DpeTiming, ChainedStreamsMatchStreamFormulaAndReferenceOverRandomSequences) {
  std::mt19937 rng(4242);
  constexpr uint64_t kBase = 0x40000, kBytes = 256 * 1024;
  uint64_t commands = 0, chained = 0, kloops = 0;
  for (const DpeArrayShape arr : DpeRtl::available_arrays()) {
    DpeRtlOptions opts;
    opts.array = arr;
    DpeRtl rtl(opts);
    const uint32_t r = arr.rows, c = arr.cols;
    for (int seq = 0; seq < 8; ++seq) {
      std::vector<uint8_t> mem(kBytes), ref(kBytes);
      for (uint8_t &byte : mem) byte = static_cast<uint8_t>(rng() % 7);
      ref = mem;
      std::vector<StreamCommand> cmds;
      std::vector<uint64_t> retired;
      rtl.set_retire_callback([&](uint64_t id) {
        retired.push_back(id);
        const StreamCommand &sc = cmds.at(id);
        const uint64_t c0 = sc.cmd.c - kBase;
        for (uint32_t i = 0; i < sc.cmd.m; ++i)
          for (uint32_t j = 0; j < sc.cmd.n; ++j)
            for (int b = 0; b < 4; ++b) {
              const uint64_t at = (uint64_t{i} * sc.cmd.ldc + j) * 4 + b;
              if (mem[c0 + at] != sc.want_c[at]) {
                ADD_FAILURE() << "command " << id << " C[" << i << "][" << j
                              << "] differs when its last row is out";
                return;
              }
            }
      });
      DpeStreamTiming timing(arr);
      uint64_t next = 64;
      auto alloc = [&](uint64_t bytes) {
        const uint64_t at = next;
        next = (next + bytes + 64) & ~uint64_t{15};
        return kBase + at;
      };
      for (int i = 0; i < 30; ++i) {
        StreamCommand sc;
        isa::DpeCommand &cmd = sc.cmd;
        const bool kloop = !cmds.empty() && rtl.pending() && rng() % 3 == 0;
        const isa::DpeCommand *prev = cmds.empty() ? nullptr : &cmds.back().cmd;
        const uint64_t prev_tiles_m = prev ? (prev->m + r - 1) / r : 0;
        const uint64_t prev_tiles = prev ? prev_tiles_m * ((prev->n + c - 1) / c) : 0;
        if (kloop && prev->m > 0 && prev->n > 0 && (prev_tiles == 2 || prev_tiles_m >= 3)) {
          cmd = *prev;
          cmd.accumulate = true;
          cmd.k = 1 + rng() % (2 * r + 3);
          ++kloops;
        } else {
          const DpeDType types[] = {DpeDType::BF16, DpeDType::FP16, DpeDType::INT8};
          cmd.dtype = types[rng() % 3];
          cmd.m = 1 + rng() % (3 * r + 1);
          cmd.n = 1 + rng() % (2 * c + 1);
          cmd.k = rng() % (2 * r + 4);
          cmd.accumulate = rng() % 2;
          cmd.ldc = cmd.n + rng() % 3;
          cmd.c = alloc(uint64_t{cmd.m} * cmd.ldc * 4);
        }
        const uint64_t esz = cmd.dtype == DpeDType::INT8 ? 1 : 2;
        cmd.lda = cmd.k + rng() % 3;
        cmd.ldb = cmd.n + rng() % 3;
        cmd.a = alloc(uint64_t{cmd.m} * cmd.lda * esz);
        cmd.b = alloc(uint64_t{cmd.k} * cmd.ldb * esz);
        ASSERT_LT(next, kBytes);
        sc.chain = rtl.pending() && rng() % 4 != 0;
        const bool int8 = cmd.dtype == DpeDType::INT8;
        uint64_t want_cycles = 0;
        if (!sc.chain) {
          const uint64_t tail = rtl.finish();
          EXPECT_EQ(tail, timing.finish()) << "tail before command " << i;
          want_cycles = timing.start(cmd.m, cmd.n, cmd.k, cmd.accumulate, int8);
        } else {
          want_cycles = timing.chain(cmd.m, cmd.n, cmd.k, cmd.accumulate, int8);
          ++chained;
        }
        dpe_reference(cmd, ref, kBase);
        const uint64_t c0 = cmd.c - kBase;
        sc.want_c.assign(ref.begin() + c0,
                         ref.begin() + c0 + (uint64_t{cmd.m} - 1) * cmd.ldc * 4 + cmd.n * 4);
        cmds.push_back(sc);
        const DpeIssueResult got = rtl.issue(cmd, mem, kBase, sc.chain, cmds.size() - 1);
        EXPECT_EQ(got.cycles, want_cycles)
            << r << "x" << c << " command " << i << (sc.chain ? " chained" : "") << " m=" << cmd.m
            << " n=" << cmd.n << " k=" << cmd.k << " acc=" << cmd.accumulate
            << " dtype=" << int(cmd.dtype);
        EXPECT_EQ(got.pending, timing.pending());
        ++commands;
      }
      EXPECT_EQ(rtl.finish(), timing.finish());
      EXPECT_FALSE(rtl.pending());
      std::vector<uint64_t> order(cmds.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      EXPECT_EQ(retired, order) << "commands retire once each, in issue order";
      EXPECT_TRUE(mem == ref) << "image differs from the reference after the stream";
      rtl.set_retire_callback(nullptr);
    }
  }
  EXPECT_GT(chained, 200u);
  EXPECT_GT(kloops, 20u);
  EXPECT_GT(commands, 400u);
}

// Back-to-back 64x64x64 commands on the mtia-2i array (32x32, 4 tiles):
// chained, each adds 4 steps of max(k_beats, rows) cycles: 256 (bf16) and
// 128 (int8), the compute alone; the stream pays one head and one tail.
TEST(DpeTiming, ChainedComputeBoundCommandsCostOnlyTheirCompute) {
  for (const bool int8 : {false, true}) {
    DpeStreamTiming s(DpeArrayShape{32, 32});
    const uint64_t k_beats = int8 ? 32 : 64;
    const uint64_t head = s.start(64, 64, 64, true, int8);
    // Accept, load of tile 0, compute of tiles 0 and 1: the pause point is
    // the step that loads the last tile (3) and computes tile 2.
    EXPECT_EQ(head, 1 + 32 + 2 * k_beats);
    for (int i = 0; i < 10; ++i) EXPECT_EQ(s.chain(64, 64, 64, true, int8), 4 * k_beats);
    // Compute of the last two tiles, the last drain and DONE.
    EXPECT_EQ(s.finish(), 2 * k_beats + 32 + 1);
    // One command alone: head + tail is the single-command formula.
    DpeStreamTiming one(DpeArrayShape{32, 32});
    EXPECT_EQ(one.start(64, 64, 64, true, int8) + one.finish(),
              dpe_command_cycles(DpeArrayShape{32, 32}, 64, 64, 64, true, int8));
  }
}

}  // namespace
}  // namespace opforge::rtl::testing
