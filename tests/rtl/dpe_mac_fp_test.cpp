//===- dpe_mac_fp_test.cpp - bf16/fp16 MAC chains (unpacked accumulators) vs fmaf ===//
//
// The DPE keeps a bf16/fp16 tile's accumulators unpacked between beats, so
// these cases run long k chains whose partial sums cross every class and
// range boundary: subnormal accumulators, overflow to infinity and on to
// NaN, exact cancellation to zero, tiny products below the subnormal range.
// Each compares every element with the reference (std::fmaf per step).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>

#include "dpe_test_util.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

// A bf16 or fp16 pattern with the given biased exponent and random fraction.
uint16_t make16(DpeDType t, uint32_t sign, uint32_t exp, std::mt19937 &rng) {
  if (t == DpeDType::FP16)
    return static_cast<uint16_t>((sign << 15) | ((exp & 0x1F) << 10) | (rng() & 0x3FF));
  return static_cast<uint16_t>((sign << 15) | ((exp & 0xFF) << 7) | (rng() & 0x7F));
}

// k-step chains over fully random bit patterns (every class) with random C.
TEST(DpeMacFp, RandomBitPatternChainsMatchFmaf) {
  std::mt19937 rng(2024);
  DpeRtl rtl;
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16}) {
    DpeCase tc(t, 12, 12, 24, true);
    for (uint32_t i = 0; i < 12; ++i)
      for (uint32_t kk = 0; kk < 24; ++kk) tc.set_a16(i, kk, static_cast<uint16_t>(rng()));
    for (uint32_t kk = 0; kk < 24; ++kk)
      for (uint32_t j = 0; j < 12; ++j) tc.set_b16(kk, j, static_cast<uint16_t>(rng()));
    for (uint32_t i = 0; i < 12; ++i)
      for (uint32_t j = 0; j < 12; ++j) tc.set_c(i, j, static_cast<uint32_t>(rng()));
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << (t == DpeDType::FP16 ? "fp16" : "bf16");
  }
}

// bf16 products around 2^-140..2^-120 with random signs, from subnormal and
// zero starting sums: the accumulators live in the subnormal range, cross
// into the normals and back, and round to zero.
TEST(DpeMacFp, SubnormalAccumulatorChainsMatchFmaf) {
  std::mt19937 rng(5);
  DpeRtl rtl;
  for (bool accumulate : {true, false}) {
    DpeCase tc(DpeDType::BF16, 8, 8, 48, accumulate);
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t kk = 0; kk < 48; ++kk)
        tc.set_a16(i, kk, make16(DpeDType::BF16, rng() & 1, 56 + rng() % 12, rng));
    for (uint32_t kk = 0; kk < 48; ++kk)
      for (uint32_t j = 0; j < 8; ++j)
        tc.set_b16(kk, j, make16(DpeDType::BF16, rng() & 1, rng() % 12, rng));  // subnormal too
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t j = 0; j < 8; ++j)
        tc.set_c(i, j, (rng() & 0x80000000u) | (rng() % 0x00FFFFFFu));  // subnormal or 2^-126 range
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << "accumulate " << accumulate;
  }
}

// Products near the top of the range: partial sums overflow to infinity,
// later products of the other sign turn some into NaN; fp16 ones stay
// finite in the fp32 accumulator.
TEST(DpeMacFp, OverflowToInfinityAndNanChainsMatchFmaf) {
  std::mt19937 rng(17);
  DpeRtl rtl;
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16}) {
    const uint32_t top = t == DpeDType::BF16 ? 0xFE : 0x1E;
    DpeCase tc(t, 8, 8, 40, true);
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t kk = 0; kk < 40; ++kk)
        tc.set_a16(i, kk, make16(t, rng() % 4 == 0, top - rng() % 3, rng));
    for (uint32_t kk = 0; kk < 40; ++kk)
      for (uint32_t j = 0; j < 8; ++j)
        tc.set_b16(kk, j,
                   make16(t, 0, t == DpeDType::BF16 ? 127 + rng() % 3 : top - rng() % 3, rng));
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t j = 0; j < 8; ++j) tc.set_c(i, j, 0x7F000000u | (rng() & 0x807FFFFFu));
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << (t == DpeDType::FP16 ? "fp16" : "bf16");
  }
  // The bf16 chain above must really have reached infinity and NaN.
  DpeCase big(DpeDType::BF16, 1, 1, 3, false);
  big.set_a16(0, 0, 0x7F7F);  // max bf16
  big.set_b16(0, 0, 0x4000);  // 2: overflows
  big.set_a16(0, 1, 0x3F80);
  big.set_b16(1, 0, 0xBF80);  // -1: inf stays inf
  big.set_a16(0, 2, 0x7F80);
  big.set_b16(2, 0, 0xBF80);  // -inf: inf - inf = NaN
  EXPECT_EQ(run_and_compare(rtl, big), 0);
  EXPECT_EQ(big.get_c(0, 0), 0x7FC00000u);
}

// Pairs of steps that cancel: x*y then (-x)*y plus a few ulps of noise, so
// the sums hit exact zeros (+0 in round-to-nearest) and tiny residues that
// need the full leading-one search.
TEST(DpeMacFp, CancellingChainsMatchFmaf) {
  std::mt19937 rng(31);
  DpeRtl rtl;
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16}) {
    const uint32_t mid = t == DpeDType::BF16 ? 127 : 15;
    DpeCase tc(t, 8, 8, 32, true);
    for (uint32_t i = 0; i < 8; ++i) {
      for (uint32_t kk = 0; kk < 32; kk += 2) {
        const uint16_t v = make16(t, rng() & 1, mid - 4 + rng() % 8, rng);
        tc.set_a16(i, kk, v);
        tc.set_a16(i, kk + 1, static_cast<uint16_t>(v ^ 0x8000));
      }
    }
    for (uint32_t kk = 0; kk < 32; kk += 2) {
      for (uint32_t j = 0; j < 8; ++j) {
        const uint16_t v = make16(t, rng() & 1, mid - 4 + rng() % 8, rng);
        tc.set_b16(kk, j, v);
        // Mostly the same multiplier (exact cancellation), sometimes one ulp off.
        tc.set_b16(kk + 1, j, static_cast<uint16_t>(rng() % 4 ? v : v + 1));
      }
    }
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t j = 0; j < 8; ++j)
        tc.set_c(i, j, rng() % 2 ? 0x80000000u : std::bit_cast<uint32_t>(1.0f + (rng() % 5)));
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << (t == DpeDType::FP16 ? "fp16" : "bf16");
  }
}

// A sum that cancels to exactly zero: +0 even when both operands' product
// and the accumulator are negative-signed in between.
TEST(DpeMacFp, ExactCancellationGivesPositiveZero) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::BF16, 1, 1, 2, true);
  tc.set_a16(0, 0, 0x3FC0);    // 1.5
  tc.set_b16(0, 0, 0xC000);    // -2
  tc.set_a16(0, 1, 0x8000);    // -0
  tc.set_b16(1, 0, 0x3F80);    // 1
  tc.set_c(0, 0, 0x40400000);  // 3: 3 - 3 = +0, then +0 + (-0) = +0
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(tc.get_c(0, 0), 0x00000000u);
}

}  // namespace
}  // namespace opforge::rtl::testing
