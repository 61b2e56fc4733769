//===- dpe_fault_test.cpp - the fault-injected DPE differs from the reference -===//
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "dpe_test_util.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

// 1.0 + 2^-12 * 2^-12 is a tie between 1.0 and 1.0 + 2^-23: the reference
// (and the healthy block) rounds to even, the faulty cell (0,0) rounds up.
DpeCase tie_case() {
  DpeCase tc(DpeDType::BF16, 2, 2, 1, true);
  for (uint32_t i = 0; i < 2; ++i) {
    tc.set_a16(i, 0, 0x3980);  // 2^-12
    tc.set_b16(0, i, 0x3980);
    for (uint32_t j = 0; j < 2; ++j) tc.set_c(i, j, 0x3F800000);
  }
  return tc;
}

TEST(DpeFault, HealthyBlockRoundsTieToEven) {
  DpeRtl rtl;
  DpeCase tc = tie_case();
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(tc.get_c(0, 0), 0x3F800000u);
}

TEST(DpeFault, InjectedFaultGivesWrongResultInCellZeroOnly) {
  DpeRtl rtl;
  rtl.set_inject_fault(true);
  DpeCase tc = tie_case();
  EXPECT_EQ(run_and_compare(rtl, tc, /*expect_match=*/false), 1);
  EXPECT_EQ(tc.get_c(0, 0), 0x3F800001u);
  EXPECT_EQ(tc.get_c(0, 1), 0x3F800000u);
  EXPECT_EQ(tc.get_c(1, 1), 0x3F800000u);
  // Turning the fault off restores bit-exact results.
  rtl.set_inject_fault(false);
  DpeCase again = tie_case();
  EXPECT_EQ(run_and_compare(rtl, again), 0);
}

TEST(DpeFault, InjectedFaultIsCaughtOnRandomMatmul) {
  DpeRtl rtl;
  rtl.set_inject_fault(true);
  std::mt19937 rng(11);
  // Accumulators start at 2^24 (ulp 2) and add small integers: every odd
  // partial sum is a tie, so round-to-even and ties-away part ways.
  DpeCase tc(DpeDType::BF16, 8, 8, 64, true);
  auto int_bf16 = [](uint32_t v) {
    return static_cast<uint16_t>(std::bit_cast<uint32_t>(static_cast<float>(v)) >> 16);
  };
  for (uint32_t i = 0; i < 8; ++i)
    for (uint32_t kk = 0; kk < 64; ++kk) tc.set_a16(i, kk, int_bf16(1 + rng() % 127));
  for (uint32_t kk = 0; kk < 64; ++kk)
    for (uint32_t j = 0; j < 8; ++j) tc.set_b16(kk, j, int_bf16(1 + 2 * (rng() % 2)));
  for (uint32_t i = 0; i < 8; ++i)
    for (uint32_t j = 0; j < 8; ++j) tc.set_c(i, j, 0x4B800000);  // 2^24
  // Cell (0,0) of each of the 4 tiles may diverge; nothing else does.
  const int diffs = run_and_compare(rtl, tc, /*expect_match=*/false);
  EXPECT_GE(diffs, 1);
  EXPECT_LE(diffs, 4);
}

}  // namespace
}  // namespace opforge::rtl::testing
