//===- sfu_lane_test.cpp - verilated SFU lane vs sfu_ref.h: exp and reciprocal at several precisions
//-===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "fst_test_util.h"
#include "opforge/rtl/sfu_lane_rtl.h"
#include "opforge/rtl/sfu_ref.h"
#include "opforge/rtl/sfu_timing.h"
#include "opforge/support/error.h"

namespace opforge::rtl {
namespace {

const std::vector<uint32_t> kSpecialInputs = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001, 0x00000001,
    0x80000001, 0x007FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
    0x42B17217, 0x42B17218, 0x42B20000, 0xC2CFF1B4, 0xC2CFF1B5, 0xC2D00000, 0xC2AEAC4F, 0xC2AEAC50,
    0x43000000, 0xC3000000, 0x33000000, 0xB3000000, 0x32FFFFFF, 0x2F800000, 0x7E800000, 0x7E7FFFFF,
    0x00400000, 0x00200000, 0x3F000000, 0x40000000, 0x3FB8AA3B, 0x34000000, 0xB4000000, 0x3C800000};

// Mixed inputs: uniform bit patterns (every class) and values in the range
// where exp is finite and non-trivial.
std::vector<uint32_t> random_inputs(unsigned seed, size_t count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> in_range(-104.0f, 89.0f);
  std::vector<uint32_t> x = kSpecialInputs;
  while (x.size() < count) {
    x.push_back(static_cast<uint32_t>(rng()));
    x.push_back(std::bit_cast<uint32_t>(in_range(rng)));
    x.push_back(std::bit_cast<uint32_t>(in_range(rng) * 1e-3f));
  }
  return x;
}

void expect_lane_matches_ref(SfuLaneRtl &lane, unsigned func, unsigned prec,
                             const std::vector<uint32_t> &x) {
  const SfuLaneRunResult res = lane.run(func, prec, x);
  ASSERT_EQ(res.y_bits.size(), x.size());
  EXPECT_EQ(res.cycles, sfu_stream_cycles(x.size()))
      << "one result per cycle after one cycle of latency";
  int failures = 0;
  for (size_t i = 0; i < x.size() && failures < 5; ++i) {
    const uint32_t want = sfu_ref_bits(func, prec, x[i]);
    if (res.y_bits[i] != want) {
      ++failures;
      ADD_FAILURE() << "func " << func << " prec " << prec << " x=0x" << std::hex << x[i]
                    << " rtl 0x" << res.y_bits[i] << " ref 0x" << want;
    }
  }
}

class SfuLanePrecision : public ::testing::TestWithParam<unsigned> {};

TEST_P(SfuLanePrecision, ReciprocalMatchesReference) {
  SfuLaneRtl lane;
  expect_lane_matches_ref(lane, kSfuFuncRecip, GetParam(), random_inputs(100 + GetParam(), 20000));
}

TEST_P(SfuLanePrecision, ExpMatchesReference) {
  SfuLaneRtl lane;
  expect_lane_matches_ref(lane, kSfuFuncExp, GetParam(), random_inputs(200 + GetParam(), 20000));
}

INSTANTIATE_TEST_SUITE_P(Precisions, SfuLanePrecision,
                         ::testing::Values(0u, 1u, 7u, 10u, 16u, 22u, 23u));

TEST(SfuLane, ExactReciprocalEqualsIeeeDivision) {
  SfuLaneRtl lane;
  const std::vector<uint32_t> x = random_inputs(7, 30000);
  const SfuLaneRunResult res = lane.run(kSfuFuncRecip, 0, x);
  for (size_t i = 0; i < x.size(); ++i) {
    const float q = 1.0f / std::bit_cast<float>(x[i]);
    if (q != q) {
      EXPECT_EQ(res.y_bits[i], kCanonicalNaN);
    } else {
      ASSERT_EQ(res.y_bits[i], std::bit_cast<uint32_t>(q)) << std::hex << "x=0x" << x[i];
    }
  }
}

// The ISA's definition of exact-mode exp (isa/sfu_math.h): the double
// result rounded once to fp32.
TEST(SfuLane, ExactExpEqualsDoubleExpRoundedToFloat) {
  SfuLaneRtl lane;
  const std::vector<uint32_t> x = random_inputs(9, 30000);
  const SfuLaneRunResult res = lane.run(kSfuFuncExp, 0, x);
  for (size_t i = 0; i < x.size(); ++i) {
    const float e = static_cast<float>(std::exp(static_cast<double>(std::bit_cast<float>(x[i]))));
    ASSERT_EQ(res.y_bits[i], canonicalize_nan(std::bit_cast<uint32_t>(e)))
        << std::hex << "x=0x" << x[i];
  }
}

TEST(SfuLane, EmptyAndShortStreamsTakeThePredictedCycles) {
  SfuLaneRtl lane;
  for (size_t n : {0u, 1u, 2u, 7u}) {
    const std::vector<uint32_t> x(n, 0x3F800000u);
    const SfuLaneRunResult res = lane.run(kSfuFuncRecip, 0, x);
    EXPECT_EQ(res.y_bits.size(), n);
    EXPECT_EQ(res.cycles, sfu_stream_cycles(n)) << n << " elements";
  }
  EXPECT_EQ(sfu_stream_cycles(10, 4), 4u);
}

TEST(SfuLane, UnimplementedFunctionGivesCanonicalNaN) {
  SfuLaneRtl lane;
  const std::vector<uint32_t> x = {0x3F800000, 0x40000000};
  const SfuLaneRunResult res = lane.run(2, 0, x);  // tanh: not in this lane
  EXPECT_EQ(res.y_bits, (std::vector<uint32_t>{kCanonicalNaN, kCanonicalNaN}));
}

TEST(SfuLane, RejectsPrecisionOutOfRange) {
  SfuLaneRtl lane;
  const std::vector<uint32_t> x = {0x3F800000};
  try {
    lane.run(kSfuFuncExp, 32, x);
    FAIL() << "precision 32 accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "sfu.prec");
  }
}

TEST(SfuLane, WritesWaveformOnlyWhenAsked) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/sfu_lane_trace_test.fst";
  std::remove(path.c_str());
  {
    SfuLaneRtl lane(path);
    const std::vector<uint32_t> x = {0x3F800000, 0x40000000, 0x40400000};
    lane.run(kSfuFuncRecip, 0, x);
  }
  const testing::FstSummary fst = testing::read_fst(path);
  ASSERT_TRUE(fst.opened) << path << " is not an FST file";
  EXPECT_TRUE(fst.has_var("in_x"));
  EXPECT_TRUE(fst.has_var("out_y"));
  EXPECT_GT(fst.changes, 0u);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace opforge::rtl
