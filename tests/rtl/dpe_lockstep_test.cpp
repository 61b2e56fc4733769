//===- dpe_lockstep_test.cpp - lockstep passes healthy runs, catches a fault -===//
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "dpe_test_util.h"
#include "opforge/rtl/dpe_lockstep.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

void fill(DpeCase &tc, std::mt19937 &rng) {
  for (uint32_t i = 0; i < tc.cmd.m; ++i)
    for (uint32_t kk = 0; kk < tc.cmd.k; ++kk)
      tc.set_a16(i, kk, static_cast<uint16_t>(0x3C00 + rng() % 0x600));
  for (uint32_t kk = 0; kk < tc.cmd.k; ++kk)
    for (uint32_t j = 0; j < tc.cmd.n; ++j)
      tc.set_b16(kk, j, static_cast<uint16_t>(0x3C00 + rng() % 0x600));
}

TEST(DpeLockstep, HealthyBlockAgreesOnResultsAndCycles) {
  DpeRtl rtl;
  std::mt19937 rng(3);
  for (DpeDType t : {DpeDType::BF16, DpeDType::INT8}) {
    DpeCase tc(t, 9, 7, 21, false);
    fill(tc, rng);
    const DpeLockstepResult res = dpe_lockstep(rtl, tc.cmd, tc.mem, DpeCase::kBase);
    EXPECT_TRUE(res.ok()) << res.report(tc.cmd);
    EXPECT_EQ(res.mismatches, 0u);
    EXPECT_NE(res.report(tc.cmd).find("agree"), std::string::npos);
  }
}

TEST(DpeLockstep, InjectedFaultIsReportedWithElementTileAndValues) {
  DpeRtl rtl;
  rtl.set_inject_fault(true);
  // C = 2^24 + odd integers: ties at every step, so cell (0,0) diverges.
  DpeCase tc(DpeDType::BF16, 6, 6, 8, true);
  const DpeArrayShape arr = rtl.array_shape();
  for (uint32_t i = 0; i < 6; ++i)
    for (uint32_t kk = 0; kk < 8; ++kk) tc.set_a16(i, kk, 0x3F80);  // 1.0
  for (uint32_t kk = 0; kk < 8; ++kk)
    for (uint32_t j = 0; j < 6; ++j) tc.set_b16(kk, j, 0x3F80);
  for (uint32_t i = 0; i < 6; ++i)
    for (uint32_t j = 0; j < 6; ++j) tc.set_c(i, j, 0x4B800000);  // 2^24
  const DpeLockstepResult res = dpe_lockstep(rtl, tc.cmd, tc.mem, DpeCase::kBase);
  ASSERT_FALSE(res.ok());
  ASSERT_TRUE(res.first.has_value());
  EXPECT_EQ(res.first->row, 0u);
  EXPECT_EQ(res.first->col, 0u);
  EXPECT_EQ(res.first->cell_row, 0u);
  EXPECT_EQ(res.first->cell_col, 0u);
  // Round to even: 2^24 + 1 -> 2^24 at every step; ties away: +2 per step.
  EXPECT_EQ(res.first->expected_bits, 0x4B800000u);
  EXPECT_EQ(res.first->actual_bits, 0x4B800008u);  // 2^24 + 16
  // One faulty cell per output tile.
  const uint64_t tiles = ((6 + arr.rows - 1) / arr.rows) * ((6 + arr.cols - 1) / arr.cols);
  EXPECT_EQ(res.mismatches, tiles);
  EXPECT_EQ(res.actual_cycles, res.expected_cycles);  // the fault is in values, not timing
  const std::string text = res.report(tc.cmd);
  EXPECT_NE(text.find("C[0][0] (tile 0,0 cell 0,0)"), std::string::npos) << text;
  EXPECT_NE(text.find("expected 0x4b800000 (16777216) got 0x4b800008 (16777232)"),
            std::string::npos)
      << text;
}

TEST(DpeLockstep, CycleMismatchAloneFailsTheCheck) {
  DpeCase tc(DpeDType::INT8, 2, 2, 2, false);
  const DpeLockstepResult res =
      compare_dpe_results(tc.cmd, DpeArrayShape{4, 4}, tc.mem, tc.mem, DpeCase::kBase, 10, 11);
  EXPECT_FALSE(res.ok());
  EXPECT_EQ(res.mismatches, 0u);
  EXPECT_NE(res.report(tc.cmd).find("cycles expected 10 got 11"), std::string::npos);
}

TEST(DpeLockstep, NanPayloadsCompareEqualOnlyWhenAsked) {
  DpeCase want(DpeDType::BF16, 1, 1, 1, false), got(DpeDType::BF16, 1, 1, 1, false);
  want.set_c(0, 0, 0x7FC00000);
  got.set_c(0, 0, 0x7FC00001);
  EXPECT_EQ(
      compare_dpe_results(want.cmd, DpeArrayShape{4, 4}, want.mem, got.mem, DpeCase::kBase, 5, 5)
          .mismatches,
      1u);
  DpeCompareOptions opts;
  opts.any_nan_matches = true;
  EXPECT_TRUE(compare_dpe_results(want.cmd, DpeArrayShape{4, 4}, want.mem, got.mem, DpeCase::kBase,
                                  5, 5, opts)
                  .ok());
}

}  // namespace
}  // namespace opforge::rtl::testing
