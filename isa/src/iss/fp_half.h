//===- fp_half.h - IEEE-754 binary16 arithmetic for Zfh and Zvfh -----------===//
//
// Half values are operated on exactly in double and rounded once to binary16
// in software, in any RISC-V rounding mode, with RISC-V's flags (tininess
// after rounding). That single rounding is exact: sums, differences and
// products of two halves are exact in double; a quotient or square root of
// halves that is not exact in 11 bits lies much farther than a double ulp
// from every 11-bit value and every midpoint, so the rounded double decides
// the half rounding as the exact value would. For a*b + c the product is
// exact and TwoSum gives the exact error of the double sum, which breaks
// ties and directed roundings when the sum lands on a half boundary.
// Invalid and divide-by-zero come from the host operation on the exact
// double operands (a half sNaN becomes a double sNaN).
//
// Half is a 16-bit type for which the fp:: overloads below are chosen over
// fp_helpers.h's templates, so the vector bodies written over F run at
// SEW=16 unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "fp_helpers.h"

namespace opforge::isa::fp {

struct Half {
  uint16_t bits = 0;
  Half operator-() const { return Half{static_cast<uint16_t>(bits ^ 0x8000u)}; }
};
static_assert(sizeof(Half) == 2);
template <>
struct BitsOf<Half> {
  using type = uint16_t;
};

inline constexpr uint16_t kCanonNan16 = 0x7e00u;

inline bool is_nan(Half v) { return (v.bits & 0x7c00u) == 0x7c00u && (v.bits & 0x03ffu); }
inline bool is_snan(Half v) { return is_nan(v) && !(v.bits & 0x0200u); }

// Exact; NaN payloads keep their quiet bit (so an sNaN stays signaling).
inline double to_double(Half v) {
  const uint64_t sign = uint64_t(v.bits >> 15) << 63;
  const unsigned e = (v.bits >> 10) & 0x1f, m = v.bits & 0x3ff;
  if (e == 0x1f) return std::bit_cast<double>(sign | 0x7ff0000000000000ull | (uint64_t(m) << 42));
  const double mag =
      e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(m | 0x400u), int(e) - 25);
  return sign ? -mag : mag;
}

namespace detail {
// Round the positive value q (a multiple-of-quantum count; q + t exact, |t|
// below one grid unit of q) to an integer in magnitude mode: 0 nearest-even,
// 1 nearest-away, 2 down, 3 up. *inexact says whether q + t was not integral.
inline double round_count(double q, double t, int mode, bool *inexact) {
  double lower = std::floor(q), frac = q - lower;
  int cmp;  // of (q + t - lower) against 1/2
  if (frac == 0 && t < 0) {
    lower -= 1;
    cmp = 1;
  } else if (frac == 0) {
    cmp = t > 0 ? -1 : 0;
  } else {
    cmp = frac < 0.5 ? -1 : frac > 0.5 ? 1 : (t > 0) - (t < 0);
  }
  *inexact = !(frac == 0 && t == 0);
  if (!*inexact) return q;
  bool up;
  switch (mode) {
    case 0:
      up = cmp > 0 || (cmp == 0 && std::fmod(lower, 2.0) != 0);
      break;
    case 1:
      up = cmp >= 0;
      break;
    case 2:
      up = false;
      break;
    default:
      up = true;
      break;
  }
  return lower + (up ? 1 : 0);
}
}  // namespace detail

// Round s + err (exact value; err from TwoSum or 0) to binary16 in mode rm,
// accruing NX/UF/OF. NaN in s gives the canonical NaN (flags are the caller's).
inline Half round_half(Hart &h, double s, double err, unsigned rm) {
  if (s != s) return Half{kCanonNan16};
  const bool neg = std::signbit(s);
  const uint16_t sign = neg ? 0x8000u : 0;
  if (std::isinf(s)) return Half{static_cast<uint16_t>(sign | 0x7c00u)};
  if (s == 0 && err == 0) return Half{sign};
  if (s == 0) return round_half(h, err, 0, rm);
  const double mag = std::fabs(s), t_abs = neg ? -err : err;
  // Magnitude mode: nearest-even, nearest-away, toward zero, away from zero.
  int mode = rm == kRne ? 0 : rm == kRmm ? 1 : rm == kRtz ? 2 : (rm == kRdn) == neg ? 3 : 2;
  // A power of two less a tiny error lies in the binade below it.
  const int e_unbounded = std::ilogb(mag) - (t_abs < 0 && mag == std::ldexp(1.0, std::ilogb(mag)));
  uint32_t flags = 0;
  // Tininess after rounding: round with an unbounded exponent range.
  bool nx;
  const double quantum_unbounded = std::ldexp(1.0, e_unbounded - 10);
  const bool tiny =
      detail::round_count(mag / quantum_unbounded, t_abs / quantum_unbounded, mode, &nx) *
          quantum_unbounded <
      0x1p-14;
  const int e = e_unbounded < -14 ? -14 : e_unbounded;
  const double quantum = std::ldexp(1.0, e - 10);
  const double n = detail::round_count(mag / quantum, t_abs / quantum, mode, &nx);
  if (nx && tiny) flags |= csr::kFflagUf;
  if (nx) flags |= csr::kFflagNx;
  const double res = n * quantum;
  if (res > 65504.0) {
    accrue(h, csr::kFflagOf | csr::kFflagNx);
    return Half{static_cast<uint16_t>(sign | (mode == 2 ? 0x7bffu : 0x7c00u))};
  }
  accrue(h, flags);
  uint32_t enc;
  if (res < 0x1p-14) {
    enc = static_cast<uint32_t>(res * 0x1p24);  // subnormal or zero
  } else {
    const int re = std::ilogb(res);
    enc = (static_cast<uint32_t>(re + 15) << 10) |
          (static_cast<uint32_t>(std::ldexp(res, 10 - re)) - 0x400u);
  }
  return Half{static_cast<uint16_t>(sign | enc)};
}

namespace detail {
// Runs the host operation op on exact doubles, keeping only NV and DZ.
template <class Op>
inline double host_exact(Hart &h, Op op) {
  host_begin(kRne);
  double r = op();
  opaque(r);
  accrue(h, host_flags() & (csr::kFflagNv | csr::kFflagDz));
  return r;
}
}  // namespace detail

namespace detail {
// An exact zero sum is -0 in RDN unless both addends are +0 (the host adds in RNE).
inline double zero_sign(double s, double x, double y, unsigned rm) {
  if (s == 0 && rm == kRdn && !(x == 0 && y == 0 && !std::signbit(x) && !std::signbit(y)))
    return -0.0;
  return s;
}
}  // namespace detail

inline Half add(Hart &h, unsigned rm, Half a, Half b) {
  const double x = to_double(a), y = to_double(b);
  const double s = detail::host_exact(h, [&] { return x + y; });
  return round_half(h, detail::zero_sign(s, x, y, rm), 0, rm);
}
inline Half sub(Hart &h, unsigned rm, Half a, Half b) { return add(h, rm, a, -b); }
inline Half mul(Hart &h, unsigned rm, Half a, Half b) {
  const double x = to_double(a), y = to_double(b);
  return round_half(h, detail::host_exact(h, [&] { return x * y; }), 0, rm);
}
inline Half div(Hart &h, unsigned rm, Half a, Half b) {
  const double x = to_double(a), y = to_double(b);
  return round_half(h, detail::host_exact(h, [&] { return x / y; }), 0, rm);
}
inline Half sqrt(Hart &h, unsigned rm, Half a) {
  const double x = to_double(a);
  return round_half(h, detail::host_exact(h, [&] { return std::sqrt(x); }), 0, rm);
}
inline Half fma(Hart &h, unsigned rm, Half a, Half b, Half c) {
  const double x = to_double(a), y = to_double(b), z = to_double(c);
  double p = 0, err = 0;
  double s = detail::host_exact(h, [&] {
    p = x * y;  // exact
    opaque(p);
    return p + z;
  });
  if (std::isfinite(s)) {
    const double bb = s - p;
    err = (p - (s - bb)) + (z - bb);  // TwoSum
  }
  if (err == 0) s = detail::zero_sign(s, p, z, rm);
  if (is_nan(c) && !is_snan(c) && ((std::isinf(x) && y == 0) || (x == 0 && std::isinf(y))))
    accrue(h, csr::kFflagNv);
  return round_half(h, s, err, rm);
}

// Exact results of exact operands: min/max, compares, classification.
inline Half from_exact(double v) {
  if (v != v) return Half{kCanonNan16};
  const bool neg = std::signbit(v);
  const double mag = std::fabs(v);
  uint32_t enc;
  if (std::isinf(v))
    enc = 0x7c00u;
  else if (mag < 0x1p-14)
    enc = static_cast<uint32_t>(mag * 0x1p24);
  else {
    const int re = std::ilogb(mag);
    enc = (static_cast<uint32_t>(re + 15) << 10) |
          (static_cast<uint32_t>(std::ldexp(mag, 10 - re)) - 0x400u);
  }
  return Half{static_cast<uint16_t>((neg ? 0x8000u : 0) | enc)};
}
inline Half min(Hart &h, Half a, Half b) { return from_exact(min(h, to_double(a), to_double(b))); }
inline Half max(Hart &h, Half a, Half b) { return from_exact(max(h, to_double(a), to_double(b))); }
inline bool feq(Hart &h, Half a, Half b) { return feq(h, to_double(a), to_double(b)); }
inline bool flt(Hart &h, Half a, Half b) { return flt(h, to_double(a), to_double(b)); }
inline bool fle(Hart &h, Half a, Half b) { return fle(h, to_double(a), to_double(b)); }
inline uint64_t fclass(Half v) {
  const bool neg = v.bits >> 15;
  const unsigned e = (v.bits >> 10) & 0x1f, m = v.bits & 0x3ff;
  if (e == 0x1f) return m == 0 ? (neg ? 1u << 0 : 1u << 7) : (m & 0x200) ? 1u << 9 : 1u << 8;
  if (e == 0) return m == 0 ? (neg ? 1u << 3 : 1u << 4) : (neg ? 1u << 2 : 1u << 5);
  return neg ? 1u << 1 : 1u << 6;
}

// Conversions. Half -> float/double is exact (NV for an sNaN, canonical NaN).
template <class T>
inline T widen_half(Hart &h, Half v) {
  if (is_snan(v)) accrue(h, csr::kFflagNv);
  if (is_nan(v)) return canon_nan<T>();
  return static_cast<T>(to_double(v));
}
// float/double (exact in double) -> half.
template <class T>
inline Half narrow_half(Hart &h, T v, unsigned rm) {
  if (is_snan(v)) accrue(h, csr::kFflagNv);
  return round_half(h, static_cast<double>(v), 0, rm);
}
// Round-to-odd narrowing of a float (vfncvt.rod.f.f.w at SEW=16): truncate,
// then set the last bit when inexact.
inline Half narrow_half_odd(Hart &h, float v) {
  if (is_snan(v)) accrue(h, csr::kFflagNv);
  const uint32_t before = h.fflags;
  h.fflags = 0;
  Half r = round_half(h, static_cast<double>(v), 0, kRtz);
  const uint32_t raised = h.fflags;
  h.fflags = before | raised;
  if ((raised & csr::kFflagNx) && !is_nan(r) && (r.bits & 0x7c00u) != 0x7c00u) r.bits |= 1u;
  if ((raised & csr::kFflagOf)) r.bits = static_cast<uint16_t>((r.bits & 0x8000u) | 0x7bffu);
  return r;
}
// Integer -> half: every integer that does not overflow half is exact in
// double; one that does overflows whatever the double rounding did.
template <class I>
inline Half half_from_int(Hart &h, I v, unsigned rm) {
  return round_half(h, static_cast<double>(v), 0, rm);
}
// Half -> integer with RISC-V saturation (the value is exact in double).
template <class I>
inline I half_to_int(Hart &h, Half v, unsigned rm) {
  return to_int<I>(h, is_nan(v) ? canon_nan<double>() : to_double(v), rm);
}

}  // namespace opforge::isa::fp
