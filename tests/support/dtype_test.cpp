//===- dtype_test.cpp - dtype names and exact fp16/bf16 conversions -------===//
#include <bit>
#include <cmath>
#include <gtest/gtest.h>

#include "opforge/support/dtype.h"
#include "opforge/support/error.h"

using namespace opforge;

TEST(DType, NamesRoundTripWithTorchPrefix) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    EXPECT_EQ(parse_dtype(dtype_name(t)), t);
    EXPECT_EQ(parse_dtype("torch." + std::string(dtype_name(t))), t);
  }
  EXPECT_EQ(parse_dtype("half"), DType::Float16);
  EXPECT_EQ(parse_dtype("long"), DType::Int64);
  EXPECT_FALSE(parse_dtype("complex64"));
  EXPECT_THROW(dtype_from_name("float128"), Error);
}

TEST(DType, EveryFp16BitPatternRoundTripsThroughFp32) {
  for (uint32_t b = 0; b < 65536; ++b) {
    float f = fp16_to_fp32(static_cast<uint16_t>(b));
    uint16_t back = fp32_to_fp16(f);
    bool is_nan = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    if (is_nan) {
      EXPECT_TRUE(std::isnan(f)) << b;
      EXPECT_EQ(back, b) << "NaN payload changed for " << b;
    } else {
      EXPECT_EQ(back, b) << "fp16 bits " << b;
    }
  }
}

TEST(DType, EveryBf16BitPatternRoundTripsThroughFp32) {
  for (uint32_t b = 0; b < 65536; ++b) {
    float f = bf16_to_fp32(static_cast<uint16_t>(b));
    uint16_t back = fp32_to_bf16(f);
    bool is_nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
    if (is_nan) {
      EXPECT_TRUE(std::isnan(f));
      EXPECT_TRUE((back & 0x7f80) == 0x7f80 && (back & 0x7f));
      EXPECT_EQ(back & 0x8000, b & 0x8000);
    } else {
      EXPECT_EQ(back, b) << "bf16 bits " << b;
    }
  }
}

TEST(DType, Fp16RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1+2^-10: ties to even (1.0).
  EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 is halfway between 1+2^-10 and 1+2^-9: ties to even (1+2^-9).
  EXPECT_EQ(fp32_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7c00);               // rounds to inf
  EXPECT_EQ(fp32_to_fp16(65519.0f), 0x7bff);               // max finite
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -25)), 0x0000);  // halfway to zero: even
  EXPECT_EQ(fp32_to_fp16(-0.0f), 0x8000);
  EXPECT_EQ(fp32_to_fp16(-INFINITY), 0xfc00);
}

TEST(DType, Bf16RoundsToNearestEven) {
  EXPECT_EQ(fp32_to_bf16(std::bit_cast<float>(0x3f808000u)), 0x3f80);  // tie -> even
  EXPECT_EQ(fp32_to_bf16(std::bit_cast<float>(0x3f818000u)), 0x3f82);  // tie -> even (up)
  EXPECT_EQ(fp32_to_bf16(std::bit_cast<float>(0x3f808001u)), 0x3f81);  // above half
  EXPECT_EQ(fp32_to_bf16(std::bit_cast<float>(0x7f7fffffu)), 0x7f80);  // overflow -> inf
}
