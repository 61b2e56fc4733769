//===- fp_bits.h - bit-level fp32 rounding shared by the RTL reference models -===//
//
// C++ mirror of rtl/common/opforge_fp_pkg.sv: round_pack() turns
// sign * sig * 2^e into an fp32 pattern with one round-to-nearest-even
// (subnormals kept, overflow to infinity); round_to_precision() keeps `prec`
// fraction bits of an fp32 pattern. Header-only so the ISS can adopt it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cstdint>

namespace opforge::rtl {

inline constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

inline bool fp32_bits_is_nan(uint32_t bits) { return (bits & 0x7FFFFFFFu) > 0x7F800000u; }

// Replace any NaN by the canonical quiet NaN.
inline uint32_t canonicalize_nan(uint32_t bits) {
  return fp32_bits_is_nan(bits) ? kCanonicalNaN : bits;
}

// Round sign * sig * 2^e (0 < sig < 2^63) to fp32, nearest-even.
inline uint32_t round_pack(bool sign, uint64_t sig, int e) {
  const int lead = 63 - std::countl_zero(sig);
  int sh = lead - 23;
  const int sh_sub = -149 - e;
  if (sh_sub > sh) sh = sh_sub;
  int eb = e + sh + 150;
  uint64_t m = 0;
  if (sh <= 0) {
    m = sig << -sh;
  } else if (sh <= 63) {
    m = sig >> sh;
    const uint64_t rem = sig & ((uint64_t{1} << sh) - 1);
    const uint64_t half = uint64_t{1} << (sh - 1);
    if (rem > half || (rem == half && (m & 1))) ++m;
  }  // else: below half of the smallest subnormal, rounds to zero
  if (m >> 24) {
    m >>= 1;
    ++eb;
  }
  const uint32_t s = sign ? 0x80000000u : 0u;
  if (!((m >> 23) & 1)) return s | static_cast<uint32_t>(m & 0x7FFFFFu);
  if (eb >= 255) return s | 0x7F800000u;
  return s | (static_cast<uint32_t>(eb) << 23) | static_cast<uint32_t>(m & 0x7FFFFFu);
}

// Keep `prec` fraction bits (1..22) of an fp32 pattern, nearest-even on the
// encoding (a carry may reach the exponent, up to infinity); prec 0 or >= 23
// keeps the value. NaN and infinity pass through.
inline uint32_t round_to_precision(uint32_t bits, unsigned prec) {
  if (prec == 0 || prec >= 23 || (bits & 0x7F800000u) == 0x7F800000u) return bits;
  const unsigned s = 23 - prec;
  uint32_t mag = bits & 0x7FFFFFFFu;
  mag += ((1u << (s - 1)) - 1) + ((mag >> s) & 1u);
  mag &= ~((1u << s) - 1);
  return (bits & 0x80000000u) | mag;
}

}  // namespace opforge::rtl
