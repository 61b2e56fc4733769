//===- fp_helpers.h - IEEE-754 arithmetic as RISC-V requires, on host FP ---===//
//
// Scalar and vector FP bodies compute with the host's SSE unit: before an
// operation the MXCSR rounding field is set from the RISC-V rounding mode
// and its flags cleared; afterwards the flags are accrued into fflags and a
// NaN result is replaced by the RISC-V canonical NaN. x86 detects tininess
// after rounding like RISC-V. RMM (round to nearest, ties to max magnitude)
// has no host mode: it is computed as RNE and then corrected on exact ties,
// using the exact error of the operation (TwoSum, FMA residual, integer
// arithmetic for conversions); division and square root cannot tie.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define OPF_HOST_SSE 1
#else
#include <cfenv>
#endif

#include "opforge/isa/hart.h"

namespace opforge::isa::fp {

inline constexpr unsigned kRne = 0, kRtz = 1, kRdn = 2, kRup = 3, kRmm = 4;
inline constexpr uint32_t kCanonNan32 = 0x7fc00000u;
inline constexpr uint64_t kCanonNan64 = 0x7ff8000000000000ull;

template <class T>
struct BitsOf {
  using type = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
};
template <class T>
using Bits = typename BitsOf<T>::type;  // fp_half.h adds Half -> uint16_t
template <class T>
inline Bits<T> bits(T v) {
  return std::bit_cast<Bits<T>>(v);
}
template <class T>
inline T from_bits(Bits<T> b) {
  return std::bit_cast<T>(b);
}
template <class T>
inline T canon_nan() {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<float>(kCanonNan32);
  else
    return std::bit_cast<double>(kCanonNan64);
}
template <class T>
inline bool is_snan(T v) {
  if constexpr (sizeof(T) == 4) {
    uint32_t b = bits(v);
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) && !(b & 0x00400000u);
  } else {
    uint64_t b = bits(v);
    return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0x000fffffffffffffull) &&
           !(b & 0x0008000000000000ull);
  }
}
template <class T>
inline T canon(T v) {
  return v != v ? canon_nan<T>() : v;
}

// Keep the compiler from moving arithmetic across the MXCSR accesses.
template <class T>
inline void opaque(T &v) {
#ifdef OPF_HOST_SSE
  asm volatile("" : "+x"(v));
#else
  asm volatile("" : "+g"(v));
#endif
}

// Resolve the instruction's rm field (7 = dynamic); illegal for 5, 6 or a bad frm.
inline unsigned resolve_rm(Hart &h, unsigned rm, uint32_t word) {
  if (rm == 7) rm = h.frm;
  if (rm > 4) Hart::raise(cause::kIllegalInsn, word);
  return rm;
}

inline void host_begin(unsigned rm) {
#ifdef OPF_HOST_SSE
  static constexpr uint32_t kRc[5] = {0u << 13, 3u << 13, 1u << 13, 2u << 13, 0u << 13};
  _mm_setcsr(0x1f80u | kRc[rm]);
#else
  static const int kRc[5] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};
  std::fesetround(kRc[rm]);
  std::feclearexcept(FE_ALL_EXCEPT);
#endif
}
// The RISC-V fflags raised since host_begin.
inline uint32_t host_flags() {
#ifdef OPF_HOST_SSE
  uint32_t c = _mm_getcsr();
  return ((c & 1) ? csr::kFflagNv : 0) | ((c & 4) ? csr::kFflagDz : 0) |
         ((c & 8) ? csr::kFflagOf : 0) | ((c & 16) ? csr::kFflagUf : 0) |
         ((c & 32) ? csr::kFflagNx : 0);
#else
  int e = std::fetestexcept(FE_ALL_EXCEPT);
  return ((e & FE_INVALID) ? csr::kFflagNv : 0) | ((e & FE_DIVBYZERO) ? csr::kFflagDz : 0) |
         ((e & FE_OVERFLOW) ? csr::kFflagOf : 0) | ((e & FE_UNDERFLOW) ? csr::kFflagUf : 0) |
         ((e & FE_INEXACT) ? csr::kFflagNx : 0);
#endif
}
inline void accrue(Hart &h, uint32_t flags) {
  h.fflags |= flags;
  if (flags) h.mstatus |= csr::kMstatusFs;
}

// RMM correction: s is the RNE result, err the exact error (exact = s + err).
template <class T, class W>
inline T rmm_fix(T s, W err) {
  if (err == 0 || !std::isfinite(s)) return s;
  T t = std::nextafter(
      s, err > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
  if (!std::isfinite(t)) return s;
  W gap = W(t) - W(s);
  if (W(2) * err == gap) return std::fabs(t) > std::fabs(s) ? t : s;
  return s;
}

template <class T>
inline T add(Hart &h, unsigned rm, T a, T b) {
  host_begin(rm);
  opaque(a);
  opaque(b);
  T r = a + b;
  opaque(r);
  accrue(h, host_flags());
  if (rm == kRmm && std::isfinite(r)) {
    T bb = r - a, err = (a - (r - bb)) + (b - bb);  // TwoSum, exact in RNE
    r = rmm_fix(r, err);
  }
  return canon(r);
}
template <class T>
inline T sub(Hart &h, unsigned rm, T a, T b) {
  return add(h, rm, a, -b);
}
template <class T>
inline T mul(Hart &h, unsigned rm, T a, T b) {
  host_begin(rm);
  opaque(a);
  opaque(b);
  T r = a * b;
  opaque(r);
  accrue(h, host_flags());
  if (rm == kRmm && std::isfinite(r)) r = rmm_fix(r, std::fma(a, b, -r));
  return canon(r);
}
template <class T>
inline T div(Hart &h, unsigned rm, T a, T b) {
  host_begin(rm);
  opaque(a);
  opaque(b);
  T r = a / b;
  opaque(r);
  accrue(h, host_flags());
  return canon(r);
}
template <class T>
inline T sqrt(Hart &h, unsigned rm, T a) {
  host_begin(rm);
  opaque(a);
  T r = std::sqrt(a);
  opaque(r);
  accrue(h, host_flags());
  return canon(r);
}
// a*b + c with one rounding. RMM ties are found by recomputing a*b + c in
// a wider format (x87 extended for float, binary128 for double) in which an
// exact midpoint is representable and therefore computed exactly.
template <class T>
inline T fma(Hart &h, unsigned rm, T a, T b, T c) {
  host_begin(rm);
  opaque(a);
  opaque(b);
  opaque(c);
  T r = std::fma(a, b, c);
  opaque(r);
  uint32_t fl = host_flags();
  if (rm == kRmm && std::isfinite(r) && std::isfinite(a) && std::isfinite(b) && std::isfinite(c)) {
    if constexpr (sizeof(T) == 4) {
      const long double exact = static_cast<long double>(a) * b + c;
      r = rmm_fix<float, long double>(r, exact - static_cast<long double>(r));
    } else {
      const __float128 exact = static_cast<__float128>(a) * b + c;
      r = rmm_fix<double, __float128>(r, exact - static_cast<__float128>(r));
    }
  }
  // IEEE leaves inf*0 + qNaN's invalid flag to the implementation; RISC-V raises it.
  if (std::isnan(c) && !is_snan(c) && ((std::isinf(a) && b == 0) || (a == 0 && std::isinf(b))))
    fl |= csr::kFflagNv;
  accrue(h, fl);
  return canon(r);
}

template <class T>
inline T min(Hart &h, T a, T b) {
  if (is_snan(a) || is_snan(b)) accrue(h, csr::kFflagNv);
  if (a != a && b != b) return canon_nan<T>();
  if (a != a) return b;
  if (b != b) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T>
inline T max(Hart &h, T a, T b) {
  if (is_snan(a) || is_snan(b)) accrue(h, csr::kFflagNv);
  if (a != a && b != b) return canon_nan<T>();
  if (a != a) return b;
  if (b != b) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// Quiet equality; signaling less-than / less-or-equal.
template <class T>
inline bool feq(Hart &h, T a, T b) {
  if (is_snan(a) || is_snan(b)) accrue(h, csr::kFflagNv);
  return a == b;
}
template <class T>
inline bool flt(Hart &h, T a, T b) {
  if (a != a || b != b) {
    accrue(h, csr::kFflagNv);
    return false;
  }
  return a < b;
}
template <class T>
inline bool fle(Hart &h, T a, T b) {
  if (a != a || b != b) {
    accrue(h, csr::kFflagNv);
    return false;
  }
  return a <= b;
}

template <class T>
inline uint64_t fclass(T v) {
  bool neg = std::signbit(v);
  switch (std::fpclassify(v)) {
    case FP_INFINITE:
      return neg ? 1u << 0 : 1u << 7;
    case FP_NORMAL:
      return neg ? 1u << 1 : 1u << 6;
    case FP_SUBNORMAL:
      return neg ? 1u << 2 : 1u << 5;
    case FP_ZERO:
      return neg ? 1u << 3 : 1u << 4;
    default:
      return is_snan(v) ? 1u << 8 : 1u << 9;
  }
}

// Round to an integral value in rounding mode rm, exactly (no flags).
template <class T>
inline T round_integral(T v, unsigned rm) {
  switch (rm) {
    case kRtz:
      return std::trunc(v);
    case kRdn:
      return std::floor(v);
    case kRup:
      return std::ceil(v);
    case kRmm:
      return std::round(v);
    default: {
      T f = std::floor(v), d = v - f;
      if (d > T(0.5)) return f + 1;
      if (d < T(0.5)) return f;
      return std::fmod(f, T(2)) == 0 ? f : f + 1;
    }
  }
}

// Float -> integer with RISC-V saturation: NaN -> max, out of range -> the
// nearer bound, both with NV; NX when in range and inexact.
template <class I, class T>
inline I to_int(Hart &h, T v, unsigned rm) {
  constexpr I lo = std::numeric_limits<I>::min(), hi = std::numeric_limits<I>::max();
  if (v != v) {
    accrue(h, csr::kFflagNv);
    return hi;
  }
  T r = round_integral(v, rm);
  // Bounds as exact powers of two: [lo, hi + 1).
  const T lo_f = std::is_signed_v<I> ? -std::ldexp(T(1), std::numeric_limits<I>::digits) : T(0);
  const T hi_f = std::ldexp(T(1), std::numeric_limits<I>::digits);
  if (r < lo_f) {
    accrue(h, csr::kFflagNv);
    return lo;
  }
  if (r >= hi_f) {
    accrue(h, csr::kFflagNv);
    return hi;
  }
  if (r != v) accrue(h, csr::kFflagNx);
  return static_cast<I>(r);
}

// Integer -> float in rounding mode rm.
template <class T, class I>
inline T from_int(Hart &h, I v, unsigned rm) {
  host_begin(rm);
  opaque(v);
  T r = static_cast<T>(v);
  opaque(r);
  accrue(h, host_flags());
  if (rm == kRmm) {
    using W = std::conditional_t<std::is_signed_v<I>, __int128, unsigned __int128>;
    __int128 err = static_cast<__int128>(W(v)) - static_cast<__int128>(static_cast<long double>(r));
    if (err != 0) {
      T t = std::nextafter(
          r, err > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
      __int128 gap = static_cast<__int128>(static_cast<long double>(t)) -
                     static_cast<__int128>(static_cast<long double>(r));
      if (2 * err == gap) r = std::fabs(t) > std::fabs(r) ? t : r;
    }
  }
  return r;
}

inline float narrow(Hart &h, double v, unsigned rm) {
  host_begin(rm);
  opaque(v);
  float r = static_cast<float>(v);
  opaque(r);
  accrue(h, host_flags());
  if (rm == kRmm && std::isfinite(r) && std::isfinite(v))
    r = rmm_fix<float, double>(r, v - double(r));
  return canon(r);
}
inline double widen(Hart &h, float v) {
  if (is_snan(v)) accrue(h, csr::kFflagNv);
  return canon(static_cast<double>(v));
}

}  // namespace opforge::isa::fp
