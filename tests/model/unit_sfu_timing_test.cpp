//===- unit_sfu_timing_test.cpp - SFU passes and occupancy by precision ---===//
#include <gtest/gtest.h>

#include "opforge/model/sfu_timing.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(SfuTiming, PassesGrowWithTheSignificandBits) {
  SfuParams p;
  p.elements_per_cycle = 16;
  p.bits_per_pass = 8;
  EXPECT_EQ(sfu_passes(p, 0), 3u);   // exact: 24 significand bits
  EXPECT_EQ(sfu_passes(p, 23), 3u);  // every mantissa bit kept
  EXPECT_EQ(sfu_passes(p, 15), 2u);  // 16 significand bits
  EXPECT_EQ(sfu_passes(p, 16), 3u);
  EXPECT_EQ(sfu_passes(p, 10), 2u);  // fp16-like
  EXPECT_EQ(sfu_passes(p, 7), 1u);   // bf16-like
  EXPECT_EQ(sfu_passes(p, 1), 1u);
  p.bits_per_pass = 24;  // a one-pass unit: precision costs nothing
  EXPECT_EQ(sfu_passes(p, 0), 1u);
  EXPECT_EQ(sfu_passes(p, 7), 1u);
}

TEST(SfuTiming, ExactRateIsElementsPerCycleAndFewerBitsCostLess) {
  SfuParams p;
  p.elements_per_cycle = 16;
  p.bits_per_pass = 8;
  p.precision_bits = 0;
  EXPECT_DOUBLE_EQ(sfu_busy_cycles(p, 128), 8.0);
  p.precision_bits = 10;  // 2 passes of 3
  EXPECT_DOUBLE_EQ(sfu_busy_cycles(p, 128), 128.0 * 2 / (16 * 3));
  p.precision_bits = 7;  // 1 pass of 3
  EXPECT_DOUBLE_EQ(sfu_busy_cycles(p, 96), 2.0);
  EXPECT_DOUBLE_EQ(sfu_busy_cycles(p, 0), 0.0);
}

TEST(SfuTiming, PresetsDeclareTheirPassWidth) {
  for (const char *arch : {"mtia-2i", "mtia-v1", "tiny"}) {
    ChipParams p = testing::preset(arch);
    EXPECT_EQ(p.sfu.bits_per_pass, p.arch.pe.sfu.bits_per_pass) << arch;
    EXPECT_GE(sfu_passes(p.sfu, 0), sfu_passes(p.sfu, 7)) << arch;
  }
  ChipParams q = testing::preset("tiny", {"pe.sfu.bits_per_pass=4"});
  EXPECT_EQ(q.sfu.bits_per_pass, 4u);
  EXPECT_EQ(sfu_passes(q.sfu, 0), 6u);
}

}  // namespace
}  // namespace opforge::model
