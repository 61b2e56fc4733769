//===- sfu_ref.h - bit-exact C++ model of the RTL SFU lane (exp, reciprocal) -===//
//
// The reference the ISS and the RTL testbenches share for the SFU numerics at
// precision `prec` (fraction bits kept, 1..22; 0 or >= 23 = full fp32):
//   reciprocal: 1.0f / x (IEEE division, correctly rounded), then
//               round_to_precision(prec). Exactly the intended definition
//               "exact result rounded to p mantissa bits, nearest-even".
//   exp:        no RTL can match a libm bit for bit, so the RTL algorithm
//               defines exp: x in fixed point (2^-56), t = x*log2(e) (2^-62),
//               2^t = 2^n * 2^(j/64) * e^u with a 64-entry table and a
//               degree-7 polynomial at 2^-60 (error near 2^-56), one rounding
//               to fp32 (round_pack), then round_to_precision(prec). It agrees
//               with (float)exp((double)x) on every input the tests try and
//               differs from glibc expf (not correctly rounded) by at most
//               1 ulp on rare inputs (tests/rtl/sfu_ref_test.cpp measures it).
// Any NaN result is the canonical quiet NaN 0x7FC00000. Mirrors
// rtl/sfu/sfu_lane.sv; header-only so the ISS can adopt it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cstdint>

#include "opforge/rtl/fp_bits.h"

namespace opforge::rtl {

// Function codes as isa::SfuFunc numbers them.
inline constexpr unsigned kSfuFuncExp = 0;
inline constexpr unsigned kSfuFuncRecip = 7;

namespace sfu_detail {
inline constexpr uint64_t kLog2eQ62 = 0x5C551D94AE0BF85Eull;
inline constexpr uint64_t kLn2Q60 = 0x0B17217F7D1CF79Bull;
inline constexpr uint64_t kInv6Q60 = 0x02AAAAAAAAAAAAABull;
inline constexpr uint64_t kInv24Q60 = 0x00AAAAAAAAAAAAABull;
inline constexpr uint64_t kInv120Q60 = 0x0022222222222222ull;
inline constexpr uint64_t kInv720Q60 = 0x0005B05B05B05B06ull;
inline constexpr uint64_t kInv5040Q60 = 0x0000D00D00D00D01ull;
inline constexpr uint64_t kOneQ60 = 1ull << 60;
// 2^(j/64) at 2^-60, j = 0..63 (nearest); the same literals as sfu_lane.sv.
inline constexpr uint64_t kExp2Table[64] = {
    0x1000000000000000ull, 0x102C9A3E778060EEull, 0x1059B0D31585743Bull, 0x10874518759BC809ull,
    0x10B5586CF9890F63ull, 0x10E3EC32D3D1A202ull, 0x111301D0125B50A5ull, 0x11429AAEA92DDFB3ull,
    0x1172B83C7D517ADDull, 0x11A35BEB6FCB753Dull, 0x11D4873168B9AA78ull, 0x12063B88628CD63Cull,
    0x12387A6E75623867ull, 0x126B4565E27CDD25ull, 0x129E9DF51FDEE12Cull, 0x12D285A6E4030B40ull,
    0x1306FE0A31B7152Eull, 0x133C08B26416FF4Dull, 0x1371A7373AA9CAA7ull, 0x13A7DB34E59FF6EAull,
    0x13DEA64C12342236ull, 0x14160A21F72E29F8ull, 0x144E086061892D03ull, 0x1486A2B5C13CD014ull,
    0x14BFDAD5362A271Dull, 0x14F9B2769D2CA6ADull, 0x15342B569D4F81DFull, 0x156F4736B527DA67ull,
    0x15AB07DD48542959ull, 0x15E76F15AD21486Full, 0x16247EB03A5584B2ull, 0x1662388255222491ull,
    0x16A09E667F3BCC91ull, 0x16DFB23C651A2EF2ull, 0x171F75E8EC5F73DDull, 0x175FEB564267C8BFull,
    0x17A11473EB0186D8ull, 0x17E2F336CF4E6210ull, 0x182589994CCE128Bull, 0x1868D99B4492EC81ull,
    0x18ACE5422AA0DB5Cull, 0x18F1AE991577362Cull, 0x193737B0CDC5E4F4ull, 0x197D829FDE4E4F8Cull,
    0x19C49182A3F0901Cull, 0x1A0C667B5DE564B3ull, 0x1A5503B23E255C8Bull, 0x1A9E6B5579FDBF44ull,
    0x1AE89F995AD3AD5Full, 0x1B33A2B84F15FAF7ull, 0x1B7F76F2FB5E46EBull, 0x1BCC1E904BC1D224ull,
    0x1C199BDD85529C22ull, 0x1C67F12E57D14B4Aull, 0x1CB720DCEF906915ull, 0x1D072D4A07897B8Dull,
    0x1D5818DCFBA48726ull, 0x1DA9E603DB328571ull, 0x1DFC97337B9B5EB9ull, 0x1E502EE78B3FF627ull,
    0x1EA4AFA2A490D986ull, 0x1EFA1BEE615A2777ull, 0x1F50765B6E454067ull, 0x1FA7C1819E90D82Full,
};

inline uint64_t mul_q60(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 60);
}
}  // namespace sfu_detail

// exp at full fp32 precision (before round_to_precision).
inline uint32_t sfu_exp_fp32_bits(uint32_t x) {
  using namespace sfu_detail;
  const bool neg = x >> 31;
  const unsigned ex = (x >> 23) & 0xFF;
  if (ex == 0xFF) {
    if (x & 0x7FFFFF) return kCanonicalNaN;
    return neg ? 0u : 0x7F800000u;
  }
  if (ex >= 134) return neg ? 0u : 0x7F800000u;  // |x| >= 128
  // x in fixed point with 56 fraction bits (truncated toward zero).
  const int sh = static_cast<int>(ex) - 94;
  uint64_t mag = (ex != 0 ? 0x800000u : 0u) | (x & 0x7FFFFFu);
  mag = sh >= 0 ? mag << sh : (-sh >= 64 ? 0 : mag >> -sh);
  const int64_t xf = neg ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  // t = x * log2(e) with 62 fraction bits (floor); n = floor(t).
  const __int128 t = (static_cast<__int128>(xf) * static_cast<__int128>(kLog2eQ62)) >> 56;
  const int n = static_cast<int>(t >> 62);
  const uint64_t frac = static_cast<uint64_t>(t) & ((uint64_t{1} << 62) - 1);
  const unsigned j = static_cast<unsigned>(frac >> 56);
  const uint64_t r = frac & ((uint64_t{1} << 56) - 1);
  // 2^(t-n) = 2^(j/64) * e^u, u = (t - n - j/64) * ln 2 < 2^-6.
  const uint64_t u = static_cast<uint64_t>((static_cast<unsigned __int128>(r) * kLn2Q60) >> 62);
  const uint64_t u2 = mul_q60(u, u);
  const uint64_t u3 = mul_q60(u2, u);
  const uint64_t u4 = mul_q60(u3, u);
  const uint64_t u5 = mul_q60(u4, u);
  const uint64_t u6 = mul_q60(u5, u);
  const uint64_t u7 = mul_q60(u6, u);
  const uint64_t p = kOneQ60 + u + (u2 >> 1) + mul_q60(u3, kInv6Q60) + mul_q60(u4, kInv24Q60) +
                     mul_q60(u5, kInv120Q60) + mul_q60(u6, kInv720Q60) + mul_q60(u7, kInv5040Q60);
  return round_pack(false, mul_q60(kExp2Table[j], p), n - 60);
}

// 1/x at full fp32 precision: IEEE division.
inline uint32_t sfu_recip_fp32_bits(uint32_t x) {
  return canonicalize_nan(std::bit_cast<uint32_t>(1.0f / std::bit_cast<float>(x)));
}

// The SFU result for function code `func` (kSfuFuncExp, kSfuFuncRecip; other
// codes give the canonical NaN, as the RTL lane does).
inline uint32_t sfu_ref_bits(unsigned func, unsigned prec, uint32_t x) {
  uint32_t y = kCanonicalNaN;
  if (func == kSfuFuncExp)
    y = sfu_exp_fp32_bits(x);
  else if (func == kSfuFuncRecip)
    y = sfu_recip_fp32_bits(x);
  return round_to_precision(y, prec);
}

inline float sfu_ref(unsigned func, unsigned prec, float x) {
  return std::bit_cast<float>(sfu_ref_bits(func, prec, std::bit_cast<uint32_t>(x)));
}

}  // namespace opforge::rtl
