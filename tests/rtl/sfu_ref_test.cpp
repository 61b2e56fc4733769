//===- sfu_ref_test.cpp - properties of the SFU reference model (no RTL) ------===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <random>

#include "opforge/rtl/sfu_ref.h"
#include "opforge/support/dtype.h"

namespace opforge::rtl {
namespace {

// Distance in ulps between two finite non-negative floats.
int64_t ulp_distance(float a, float b) {
  return std::llabs(static_cast<int64_t>(std::bit_cast<uint32_t>(a)) -
                    static_cast<int64_t>(std::bit_cast<uint32_t>(b)));
}

TEST(SfuRef, RoundToSevenBitsEqualsBf16Rounding) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t x = static_cast<uint32_t>(rng());
    if (fp32_bits_is_nan(x)) continue;
    const uint32_t bf16 = static_cast<uint32_t>(fp32_to_bf16(std::bit_cast<float>(x))) << 16;
    ASSERT_EQ(round_to_precision(x, 7), bf16) << std::hex << "x=0x" << x;
  }
}

TEST(SfuRef, FullPrecisionKeepsTheValue) {
  EXPECT_EQ(round_to_precision(0x3F800001u, 0), 0x3F800001u);
  EXPECT_EQ(round_to_precision(0x3F800001u, 23), 0x3F800001u);
  EXPECT_EQ(round_to_precision(0x3F800001u, 22), 0x3F800000u);  // tie to even
  EXPECT_EQ(round_to_precision(0x3F800003u, 22), 0x3F800004u);  // tie to even, upward
  EXPECT_EQ(round_to_precision(0x7F7FFFFFu, 10), 0x7F800000u);  // rounds up to infinity
}

TEST(SfuRef, ExpIsCorrectlyRoundedAndMostlyEqualsExpf) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> in_range(-103.0f, 88.7f);
  int64_t worst = 0, differ_from_expf = 0, total = 0;
  for (int i = 0; i < 400000; ++i) {
    float x = in_range(rng);
    if (i % 3 == 1) x *= 1e-3f;
    if (i % 3 == 2) x *= 1e-6f;
    const float got = std::bit_cast<float>(sfu_exp_fp32_bits(std::bit_cast<uint32_t>(x)));
    const float exact = static_cast<float>(std::exp(static_cast<long double>(x)));
    worst = std::max(worst, ulp_distance(got, exact));
    differ_from_expf += got != std::exp(x);
    ++total;
  }
  std::printf("sfu exp model: worst %lld ulp vs expl, %lld of %lld differ from expf\n",
              static_cast<long long>(worst), static_cast<long long>(differ_from_expf),
              static_cast<long long>(total));
  EXPECT_EQ(worst, 0);                        // correctly rounded on every input tried
  EXPECT_LT(differ_from_expf * 1000, total);  // under 0.1%
}

// The ISA's exact-mode definition (isa/sfu_math.h) is the double result
// rounded once to fp32. Reciprocal agrees with it by construction; exp is the
// RTL's own algorithm, accurate enough to agree on every input tried.
TEST(SfuRef, ReciprocalEqualsDoubleDivisionRoundedToFloat) {
  std::mt19937 rng(23);
  for (int i = 0; i < 300000; ++i) {
    const uint32_t x = static_cast<uint32_t>(rng());
    const float viadouble = static_cast<float>(1.0 / static_cast<double>(std::bit_cast<float>(x)));
    const uint32_t want = canonicalize_nan(std::bit_cast<uint32_t>(viadouble));
    ASSERT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, x), want) << std::hex << "x=0x" << x;
  }
}

TEST(SfuRef, ExpEqualsDoubleExpRoundedToFloatOnASweepOfAllPatterns) {
  // Every 251st fp32 bit pattern (17 million inputs, every class and binade).
  int64_t differ = 0, total = 0;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 251) {
    const uint32_t x = static_cast<uint32_t>(bits);
    const float viadouble =
        static_cast<float>(std::exp(static_cast<double>(std::bit_cast<float>(x))));
    const uint32_t want = canonicalize_nan(std::bit_cast<uint32_t>(viadouble));
    if (sfu_exp_fp32_bits(x) != want) {
      if (++differ <= 5)
        ADD_FAILURE() << std::hex << "x=0x" << x << " model 0x" << sfu_exp_fp32_bits(x)
                      << " double 0x" << want;
    }
    ++total;
  }
  std::printf("sfu exp model: %lld of %lld swept inputs differ from (float)exp((double)x)\n",
              static_cast<long long>(differ), static_cast<long long>(total));
  EXPECT_EQ(differ, 0);
}

TEST(SfuRef, ExpEdgeCases) {
  auto e = [](uint32_t x) { return sfu_exp_fp32_bits(x); };
  EXPECT_EQ(e(0x00000000u), 0x3F800000u);  // exp(0) = 1
  EXPECT_EQ(e(0x80000000u), 0x3F800000u);
  EXPECT_EQ(e(0x7F800000u), 0x7F800000u);  // exp(+inf) = +inf
  EXPECT_EQ(e(0xFF800000u), 0x00000000u);  // exp(-inf) = +0
  EXPECT_EQ(e(0x7FC00001u), kCanonicalNaN);
  EXPECT_EQ(e(0x42B20000u), 0x7F800000u);  // exp(89) overflows
  EXPECT_EQ(e(0xC2D00000u), 0x00000000u);  // exp(-104) underflows
  EXPECT_EQ(e(0x42B17217u), std::bit_cast<uint32_t>(
                                std::exp(std::bit_cast<float>(0x42B17217u))));  // largest finite
  // exp(-100) is subnormal, kept.
  const uint32_t sub = e(std::bit_cast<uint32_t>(-100.0f));
  EXPECT_GT(sub, 0u);
  EXPECT_LT(sub, 0x00800000u);
  EXPECT_LE(ulp_distance(std::bit_cast<float>(sub), static_cast<float>(std::exp(-100.0L))), 1);
  EXPECT_EQ(e(std::bit_cast<uint32_t>(1.0f)), std::bit_cast<uint32_t>(2.71828182845904523536f));
}

TEST(SfuRef, ReciprocalSpecials) {
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0x00000000u), 0x7F800000u);
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0x80000000u), 0xFF800000u);
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0xFF800000u), 0x80000000u);
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0x7F800001u), kCanonicalNaN);
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0x00000001u), 0x7F800000u);  // 1/2^-149 overflows
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 0, 0x7F000000u),
            0x00400000u);  // 1/2^127 = 2^-127, subnormal
  EXPECT_EQ(sfu_ref_bits(kSfuFuncRecip, 7, std::bit_cast<uint32_t>(3.0f)), 0x3EAB0000u);
}

}  // namespace
}  // namespace opforge::rtl
