//===- dpe_rtl_test.cpp - verilated DPE vs the C++ reference: shapes, dtypes, specials, cycles
//-===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <tuple>

#include "dpe_test_util.h"
#include "opforge/support/dtype.h"
#include "opforge/support/error.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

// A random bf16 of moderate magnitude (sums stay finite, ties and
// cancellation happen often).
uint16_t moderate_bf16(std::mt19937 &rng) {
  const uint32_t sign = rng() & 1;
  const uint32_t exp = 120 + rng() % 14;
  return static_cast<uint16_t>((sign << 15) | (exp << 7) | (rng() & 0x7F));
}

// A random fp16 between 2^-5 and 2^6 in magnitude.
uint16_t moderate_fp16(std::mt19937 &rng) {
  const uint32_t sign = rng() & 1;
  const uint32_t exp = 10 + rng() % 11;
  return static_cast<uint16_t>((sign << 15) | (exp << 10) | (rng() & 0x3FF));
}

uint16_t random_operand(DpeDType t, std::mt19937 &rng) {
  if (t == DpeDType::INT8) return static_cast<uint16_t>(rng() & 0xFF);
  return t == DpeDType::FP16 ? moderate_fp16(rng) : moderate_bf16(rng);
}

float widen(DpeDType t, uint16_t v) {
  return t == DpeDType::FP16 ? fp16_to_fp32(v) : bf16_to_fp32(v);
}

void fill_random(DpeCase &tc, std::mt19937 &rng) {
  const bool int8 = tc.cmd.dtype == DpeDType::INT8;
  for (uint32_t i = 0; i < tc.cmd.m; ++i)
    for (uint32_t kk = 0; kk < tc.cmd.k; ++kk) tc.set_a16(i, kk, random_operand(tc.cmd.dtype, rng));
  for (uint32_t kk = 0; kk < tc.cmd.k; ++kk)
    for (uint32_t j = 0; j < tc.cmd.n; ++j) tc.set_b16(kk, j, random_operand(tc.cmd.dtype, rng));
  for (uint32_t i = 0; i < tc.cmd.m; ++i)
    for (uint32_t j = 0; j < tc.cmd.n; ++j)
      tc.set_c(i, j,
               int8 ? static_cast<uint32_t>(rng())
                    : std::bit_cast<uint32_t>(static_cast<float>(rng() % 2001) - 1000.0f));
}

class DpeRandomShapes : public ::testing::TestWithParam<std::tuple<DpeDType, bool>> {};

TEST_P(DpeRandomShapes, MatchesReferenceBitForBitWithPredictedCyclesOnEveryArraySize) {
  const auto [dtype, accumulate] = GetParam();
  ASSERT_FALSE(DpeRtl::available_arrays().empty());
  for (const DpeArrayShape arr : DpeRtl::available_arrays()) {
    DpeRtlOptions opts;
    opts.array = arr;
    DpeRtl rtl(opts);
    ASSERT_EQ(rtl.array_shape().rows, arr.rows);
    // Shapes around the array size: smaller, equal, larger, k not a multiple.
    const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> shapes = {
        {1, 1, 1},
        {arr.rows, arr.cols, arr.rows},
        {arr.rows - 1 + (arr.rows == 1), arr.cols - 1 + (arr.cols == 1), 3},
        {arr.rows + 1, arr.cols + 3, 7},
        {3, 5, 13},
        {2 * arr.rows + 1, 3 * arr.cols + 2, 2 * arr.rows + 3},
        {17, 1, 33},
        {1, 19, 64},
        {16, 16, 100},
        {5, 6, 0},
        {0, 4, 4},
        {4, 0, 4},
    };
    std::mt19937 rng(1234u + static_cast<unsigned>(dtype) * 7 + accumulate + arr.rows * 31);
    for (const auto &[m, n, k] : shapes) {
      DpeCase tc(dtype, m, n, k, accumulate);
      fill_random(tc, rng);
      EXPECT_EQ(run_and_compare(rtl, tc), 0)
          << arr.rows << "x" << arr.cols << " array, m=" << m << " n=" << n << " k=" << k;
      // The vectors are not trivial: products reached C.
      if (m > 0 && n > 0 && k > 0 && !accumulate) {
        EXPECT_NE(tc.get_c(m - 1, n - 1), 0u);
      }
    }
  }
}

TEST(DpeRtl, UnbuiltArraySizeIsAnErrorListingTheBuiltOnes) {
  DpeRtlOptions opts;
  opts.array = DpeArrayShape{3, 5};
  try {
    DpeRtl rtl(opts);
    FAIL() << "3x5 array accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "rtl.dpe.array");
    EXPECT_NE(e.message().find("4x4"), std::string::npos) << e.message();
  }
}

INSTANTIATE_TEST_SUITE_P(DtypesAndAccumulate, DpeRandomShapes,
                         ::testing::Combine(::testing::Values(DpeDType::BF16, DpeDType::FP16,
                                                              DpeDType::INT8),
                                            ::testing::Bool()));

// Fully random bit patterns (every class: NaN, inf, zero, subnormal, normal)
// through one multiply-add per cell: C = fma(A, B, C) with k = 1.
TEST(DpeRtl, FmaMatchesReferenceOnRandomBitPatterns) {
  std::mt19937 rng(99);
  DpeRtl rtl;
  for (int round = 0; round < 8; ++round) {
    DpeCase tc(round % 2 ? DpeDType::FP16 : DpeDType::BF16, 48, 48, 1, true);
    for (uint32_t i = 0; i < 48; ++i) tc.set_a16(i, 0, static_cast<uint16_t>(rng()));
    for (uint32_t j = 0; j < 48; ++j) tc.set_b16(0, j, static_cast<uint16_t>(rng()));
    for (uint32_t i = 0; i < 48; ++i)
      for (uint32_t j = 0; j < 48; ++j) tc.set_c(i, j, static_cast<uint32_t>(rng()));
    EXPECT_EQ(run_and_compare(rtl, tc), 0);
  }
}

// C close to -A*B: massive cancellation, exact zeros and tiny results.
TEST(DpeRtl, FmaMatchesReferenceNearCancellation) {
  std::mt19937 rng(7);
  DpeRtl rtl;
  for (int round = 0; round < 8; ++round) {
    const DpeDType t = round < 4 ? DpeDType::BF16 : DpeDType::FP16;
    DpeCase tc(t, 40, 40, 1, true);
    std::vector<uint16_t> av(40), bv(40);
    for (auto &v : av)
      v = round % 4 < 2 ? random_operand(t, rng) : static_cast<uint16_t>(rng() & 0x83FF);  // tiny
    for (auto &v : bv) v = random_operand(t, rng);
    for (uint32_t i = 0; i < 40; ++i) tc.set_a16(i, 0, av[i]);
    for (uint32_t j = 0; j < 40; ++j) tc.set_b16(0, j, bv[j]);
    for (uint32_t i = 0; i < 40; ++i) {
      for (uint32_t j = 0; j < 40; ++j) {
        const float p = widen(t, av[i]) * widen(t, bv[j]);
        const uint32_t neg = std::bit_cast<uint32_t>(-p);
        const int delta = static_cast<int>(rng() % 9) - 4;  // a few ulps either side
        tc.set_c(i, j, neg + static_cast<uint32_t>(delta));
      }
    }
    EXPECT_EQ(run_and_compare(rtl, tc), 0);
  }
}

const std::vector<uint32_t> kAccSpecials = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x00000001,
    0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000};

TEST(DpeRtl, Fp16SpecialValuesMatchReference) {
  const std::vector<uint16_t> specials = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01,
                                          0xFE01, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF,
                                          0xFBFF, 0x3C00, 0xBC00, 0x0200};
  const uint32_t s = static_cast<uint32_t>(specials.size());
  DpeRtl rtl;
  for (uint32_t acc : kAccSpecials) {
    DpeCase tc(DpeDType::FP16, s, s, 1, true);
    for (uint32_t i = 0; i < s; ++i) tc.set_a16(i, 0, specials[i]);
    for (uint32_t j = 0; j < s; ++j) tc.set_b16(0, j, specials[j]);
    for (uint32_t i = 0; i < s; ++i)
      for (uint32_t j = 0; j < s; ++j) tc.set_c(i, j, acc);
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << "acc 0x" << std::hex << acc;
  }
  // 65504 * 65504 overflows fp16 but not the fp32 accumulator.
  DpeCase big(DpeDType::FP16, 1, 1, 1, false);
  big.set_a16(0, 0, 0x7BFF);
  big.set_b16(0, 0, 0x7BFF);
  EXPECT_EQ(run_and_compare(rtl, big), 0);
  EXPECT_EQ(std::bit_cast<float>(big.get_c(0, 0)), 65504.0f * 65504.0f);
}

// Every pairing of special operands with every special accumulator.
TEST(DpeRtl, Bf16SpecialValuesMatchReference) {
  const std::vector<uint16_t> specials = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F81,
                                          0xFFC1, 0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F,
                                          0xFF7F, 0x3F80, 0xBF80, 0x0040};
  const uint32_t s = static_cast<uint32_t>(specials.size());
  DpeRtl rtl;
  for (uint32_t acc : kAccSpecials) {
    DpeCase tc(DpeDType::BF16, s, s, 1, true);
    for (uint32_t i = 0; i < s; ++i) tc.set_a16(i, 0, specials[i]);
    for (uint32_t j = 0; j < s; ++j) tc.set_b16(0, j, specials[j]);
    for (uint32_t i = 0; i < s; ++i)
      for (uint32_t j = 0; j < s; ++j) tc.set_c(i, j, acc);
    EXPECT_EQ(run_and_compare(rtl, tc), 0) << "acc 0x" << std::hex << acc;
  }
  // Without accumulate the sum starts at +0: (-0) * 1 gives +0, not -0.
  DpeCase tc(DpeDType::BF16, 1, 1, 1, false);
  tc.set_a16(0, 0, 0x8000);
  tc.set_b16(0, 0, 0x3F80);
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(tc.get_c(0, 0), 0x00000000u);
}

TEST(DpeRtl, SubnormalResultsAreNotFlushed) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::BF16, 1, 1, 2, false);
  tc.set_a16(0, 0, 0x0080);  // 2^-126
  tc.set_b16(0, 0, 0x3F00);  // 0.5
  tc.set_a16(0, 1, 0x0001);  // smallest bf16 subnormal 2^-133
  tc.set_b16(1, 0, 0x3E80);  // 0.25
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(tc.get_c(0, 0), 0x00404000u);  // 2^-127 + 2^-135, both subnormal
}

TEST(DpeRtl, Int8AccumulationWrapsAround) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::INT8, 1, 1, 2, true);
  tc.set_c(0, 0, 0x7FFFFFFFu);
  tc.set_a16(0, 0, 0x80);  // -128
  tc.set_b16(0, 0, 0x80);  // -128
  tc.set_a16(0, 1, 0x7F);
  tc.set_b16(1, 0, 0x01);
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(tc.get_c(0, 0), 0x7FFFFFFFu + 16384u + 127u);
}

TEST(DpeRtl, BackToBackCommandsKeepNoState) {
  DpeRtl rtl;
  std::mt19937 rng(5);
  for (int i = 0; i < 10; ++i) {
    DpeCase tc(i % 2 ? DpeDType::INT8 : DpeDType::BF16, 1 + rng() % 9, 1 + rng() % 9, rng() % 12,
               rng() & 1);
    fill_random(tc, rng);
    EXPECT_EQ(run_and_compare(rtl, tc), 0);
  }
  EXPECT_GT(rtl.total_cycles(), 0u);
}

TEST(DpeRtl, RejectsUnsupportedDtypeNamingTheField) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::FP32, 2, 2, 2, false);
  try {
    rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
    FAIL() << "fp32 command accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "dpe.dtype");
  }
}

TEST(DpeRtl, RejectsLeadingDimensionShorterThanTheRowNamingTheField) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::BF16, 2, 2, 8, false);
  tc.cmd.lda = 7;
  try {
    rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
    FAIL() << "lda < k accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "dpe.lda");
  }
}

TEST(DpeRtl, RejectsHugeCommandWithoutOverflowingTheBoundsCheck) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::INT8, 2, 2, 2, false);
  tc.cmd.m = 0xFFFFFFFFu;
  tc.cmd.lda = 0xFFFFFFFFu;
  try {
    rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
    FAIL() << "huge command accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "dpe.a");
  }
}

TEST(DpeRtl, RejectsOperandOutsideLocalMemoryNamingTheField) {
  DpeRtl rtl;
  DpeCase tc(DpeDType::BF16, 2, 2, 2, false);
  tc.cmd.b = DpeCase::kBase + tc.mem.size() - 2;
  try {
    rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
    FAIL() << "operand outside memory accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "dpe.b");
    EXPECT_NE(e.message().find("outside local memory"), std::string::npos);
  }
  // The block is still usable after a rejected command.
  DpeCase ok(DpeDType::BF16, 2, 2, 2, false);
  EXPECT_EQ(run_and_compare(rtl, ok), 0);
}

}  // namespace
}  // namespace opforge::rtl::testing
