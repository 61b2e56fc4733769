//===- unit_dpe_compute_test.cpp - DPE matmul numerics against the definition ===//
//
// dpe_compute.h defines C[i][j] (+)= sum_k A[i][k] * B[k][j] with one fmaf
// per multiply-add in k order, from C or +0.0f. dpe_matmul computes many
// columns at once with the host's FMA; these tests check every result bit
// against that definition, computed here one element at a time, for the
// float types, shapes that are no multiple of the host's vector width,
// leading dimensions wider than the tile, accumulation, infinities and NaNs
// with different payloads in several operands, and round-to-nearest-even
// whatever rounding mode the host was left in.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "opforge/model/dpe_compute.h"
#include "opforge/support/dtype.h"

namespace opforge::model {
namespace {

float widen(isa::DpeDType t, const uint8_t *p) {
  if (t == isa::DpeDType::FP32) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  uint16_t v;
  std::memcpy(&v, p, 2);
  return t == isa::DpeDType::BF16 ? bf16_to_fp32(v) : fp16_to_fp32(v);
}

// The definition, one element at a time.
void reference(const isa::DpeCommand &d, const uint8_t *a, const uint8_t *b, uint8_t *c) {
  const uint32_t eb = dpe_input_bytes(d.dtype);
  for (uint32_t i = 0; i < d.m; ++i)
    for (uint32_t j = 0; j < d.n; ++j) {
      float acc = 0.0f;
      if (d.accumulate) std::memcpy(&acc, c + (size_t(i) * d.ldc + j) * 4, 4);
      for (uint32_t kk = 0; kk < d.k; ++kk)
        acc = std::fmaf(widen(d.dtype, a + (size_t(i) * d.lda + kk) * eb),
                        widen(d.dtype, b + (size_t(kk) * d.ldb + j) * eb), acc);
      std::memcpy(c + (size_t(i) * d.ldc + j) * 4, &acc, 4);
    }
}

// An element of `t` from x, with a few specials: NaNs with distinct
// payloads and signs, infinities, zeros of both signs, tiny values.
void put(isa::DpeDType t, uint8_t *p, float x, uint32_t special) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  switch (special) {
    case 1:
      bits = 0x7fc00000u | 0x1234u << 5;  // quiet NaN, payload
      break;
    case 2:
      bits = 0xffa00000u | 0x0777u << 5;  // negative NaN, other payload
      break;
    case 3:
      bits = 0x7f800000u;  // +inf
      break;
    case 4:
      bits = 0xff800000u;  // -inf
      break;
    case 5:
      bits = 0x80000000u;  // -0
      break;
    case 6:
      bits = 0x00000001u << 16;  // subnormal (bf16-representable)
      break;
    default:
      break;
  }
  std::memcpy(&x, &bits, 4);
  if (t == isa::DpeDType::FP32) {
    std::memcpy(p, &bits, 4);
  } else if (t == isa::DpeDType::BF16) {
    const uint16_t v = uint16_t(bits >> 16);  // exact for the specials, truncates the rest
    std::memcpy(p, &v, 2);
  } else {
    const uint16_t v = fp32_to_fp16(x);
    std::memcpy(p, &v, 2);
  }
}

TEST(DpeCompute, EveryResultBitMatchesTheDefinition) {
  std::mt19937 g(3);
  std::normal_distribution<float> dist;
  for (isa::DpeDType t : {isa::DpeDType::BF16, isa::DpeDType::FP16, isa::DpeDType::FP32}) {
    for (int trial = 0; trial < 60; ++trial) {
      isa::DpeCommand d;
      d.dtype = t;
      d.m = 1 + g() % 9;
      d.n = 1 + g() % 70;  // around multiples of 8 and 32
      d.k = 1 + g() % 40;
      d.lda = d.k + g() % 3;
      d.ldb = d.n + g() % 5;
      d.ldc = d.n + g() % 4;
      d.accumulate = trial % 2;
      const uint32_t eb = dpe_input_bytes(t);
      // Specials in some trials only: most results stay finite.
      const uint32_t special_every = trial % 3 == 0 ? 7 : 0;
      auto fill = [&](std::vector<uint8_t> &v, size_t elems, size_t bytes) {
        v.assign(elems * bytes, 0);
        for (size_t e = 0; e < elems; ++e)
          put(bytes == 4 ? isa::DpeDType::FP32 : t, v.data() + e * bytes, dist(g),
              special_every && g() % special_every == 0 ? 1 + g() % 6 : 0);
      };
      std::vector<uint8_t> a, b, c;
      fill(a, size_t(d.m) * d.lda, eb);
      fill(b, size_t(d.k) * d.ldb, eb);
      fill(c, size_t(d.m) * d.ldc, 4);
      std::vector<uint8_t> want = c;
      reference(d, a.data(), b.data(), want.data());
      dpe_matmul(d, a.data(), b.data(), c.data());
      for (size_t e = 0; e < c.size(); e += 4) {
        uint32_t x, y;
        std::memcpy(&x, &c[e], 4);
        std::memcpy(&y, &want[e], 4);
        // Where several NaNs meet in one fmaf, which payload comes out is the
        // implementation's choice (IEEE 754 only says one of them): the reference's fmaf,
        // as GCC compiles it here, may take another operand's than the model's. A NaN
        // must stay a NaN; every other result is compared bit for bit.
        auto is_nan = [](uint32_t v) {
          return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu);
        };
        if (is_nan(x) && is_nan(y)) continue;
        ASSERT_EQ(x, y) << "dtype " << int(t) << " trial " << trial << " element " << e / 4
                        << " (m " << d.m << " n " << d.n << " k " << d.k << ")";
      }
    }
  }
}

// The ISS sets the host's rounding mode for a guest instruction with a
// dynamic one (frm) and leaves it so; a DPE command that follows must still
// round to nearest even, and give the caller its mode back.
TEST(DpeCompute, RoundsToNearestEvenWhateverTheHostRoundingMode) {
  std::mt19937 g(5);
  std::normal_distribution<float> dist;
  for (isa::DpeDType t : {isa::DpeDType::BF16, isa::DpeDType::FP16, isa::DpeDType::FP32}) {
    isa::DpeCommand d;
    d.dtype = t;
    d.m = 4;
    d.n = 40;  // the host's vector lanes and the scalar tail
    d.k = 24;
    d.lda = d.k;
    d.ldb = d.n;
    d.ldc = d.n;
    d.accumulate = true;
    const uint32_t eb = dpe_input_bytes(t);
    std::vector<uint8_t> a(size_t(d.m) * d.lda * eb), b(size_t(d.k) * d.ldb * eb),
        c0(size_t(d.m) * d.ldc * 4);
    for (size_t e = 0; e < a.size() / eb; ++e) put(t, a.data() + e * eb, dist(g), 0);
    for (size_t e = 0; e < b.size() / eb; ++e) put(t, b.data() + e * eb, dist(g), 0);
    for (size_t e = 0; e < c0.size() / 4; ++e) put(isa::DpeDType::FP32, &c0[e * 4], dist(g), 0);
    std::vector<uint8_t> want = c0;
    reference(d, a.data(), b.data(), want.data());  // in the default mode, nearest even
    for (int mode : {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD}) {
      std::vector<uint8_t> c = c0;
      ASSERT_EQ(std::fesetround(mode), 0);
      dpe_matmul(d, a.data(), b.data(), c.data());
      const int after = std::fegetround();
      std::fesetround(FE_TONEAREST);
      EXPECT_EQ(after, mode) << "the caller's rounding mode is restored";
      size_t differ = 0;
      for (size_t e = 0; e < c.size(); e += 4) differ += std::memcmp(&c[e], &want[e], 4) != 0;
      EXPECT_EQ(differ, 0u) << "dtype " << int(t) << " host mode " << mode << ": " << differ
                            << " of " << c.size() / 4 << " results not rounded to nearest even";
    }
  }
}

}  // namespace
}  // namespace opforge::model
