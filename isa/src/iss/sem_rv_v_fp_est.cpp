//===- sem_rv_v_fp_est.cpp - RVV vfrec7.v / vfrsqrt7.v estimates -----------===//
//
// 7-bit reciprocal and reciprocal-square-root estimates as RVV 1.0 defines
// them. The two 128-entry tables are the rounded midpoint values the
// specification tabulates: for vfrec7, index = the 7 significand MSBs and
// entry = round(128 * (2/m - 1)); for vfrsqrt7, index = exponent LSB and 6
// significand MSBs and entry = round(128 * (2/sqrt(m') - 1)) with m' the
// interval midpoint scaled by 2 when the biased exponent is even.
//
//===----------------------------------------------------------------------===//
#include <array>

#include "fp_half.h"
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_fp_est)

namespace {
const std::array<uint8_t, 128> &rec7_table() {
  static const std::array<uint8_t, 128> t = [] {
    std::array<uint8_t, 128> r{};
    for (int i = 0; i < 128; ++i) {
      const double m = 1.0 + (2.0 * i + 1.0) / 256.0;
      long v = std::lround(128.0 * (2.0 / m - 1.0));
      r[i] = static_cast<uint8_t>(v > 127 ? 127 : v < 0 ? 0 : v);
    }
    return r;
  }();
  return t;
}
const std::array<uint8_t, 128> &rsqrt7_table() {
  static const std::array<uint8_t, 128> t = [] {
    std::array<uint8_t, 128> r{};
    for (int i = 0; i < 128; ++i) {
      const double s = 1.0 + (2.0 * (i & 63) + 1.0) / 128.0;
      const double x = (i & 64) ? s : 2.0 * s;
      long v = std::lround(128.0 * (2.0 / std::sqrt(x) - 1.0));
      r[i] = static_cast<uint8_t>(v > 127 ? 127 : v < 0 ? 0 : v);
    }
    return r;
  }();
  return t;
}

template <class F>
struct Fmt;
template <>
struct Fmt<float> {
  static constexpr int M = 23, E = 8;
};
template <>
struct Fmt<double> {
  static constexpr int M = 52, E = 11;
};
template <>
struct Fmt<fp::Half> {  // Zvfh
  static constexpr int M = 10, E = 5;
};
// The value of an element (exact) and its format's canonical NaN bits.
inline double value(float v) { return v; }
inline double value(double v) { return v; }
inline double value(fp::Half v) { return fp::to_double(v); }
template <class F>
fp::Bits<F> canon_nan_bits() {
  if constexpr (sizeof(F) == 2)
    return fp::kCanonNan16;
  else
    return std::bit_cast<fp::Bits<F>>(fp::canon_nan<F>());
}

// Split a positive finite nonzero value into (normalized biased exponent, fraction bits).
template <class F>
void normalize(fp::Bits<F> mag, int64_t &exp, fp::Bits<F> &frac) {
  using B = fp::Bits<F>;
  constexpr int M = Fmt<F>::M;
  exp = static_cast<int64_t>(mag >> M);
  frac = mag & ((B(1) << M) - 1);
  if (exp == 0) {
    while (!(frac & (B(1) << M))) {
      frac <<= 1;
      --exp;
    }
    ++exp;
    frac &= (B(1) << M) - 1;
  }
}

template <class F>
fp::Bits<F> rec7(Hart &h, F v, unsigned rm) {
  using B = fp::Bits<F>;
  constexpr int M = Fmt<F>::M, E = Fmt<F>::E;
  constexpr int64_t bias = (int64_t(1) << (E - 1)) - 1;
  const B bits = std::bit_cast<B>(v);
  const B sign = bits & (B(1) << (M + E));
  const B inf = ((B(1) << E) - 1) << M;
  const double d = value(v);
  if (d != d) {
    if (fp::is_snan(v)) fp::accrue(h, csr::kFflagNv);
    return canon_nan_bits<F>();
  }
  if (std::isinf(d)) return sign;
  if (d == 0) {
    fp::accrue(h, csr::kFflagDz);
    return sign | inf;
  }
  int64_t e;
  B frac;
  normalize<F>(bits & ~sign, e, frac);
  if (e < -1) {  // tiny subnormal: the reciprocal overflows
    fp::accrue(h, csr::kFflagOf | csr::kFflagNx);
    const bool to_max = rm == fp::kRtz || (rm == fp::kRdn && !sign) || (rm == fp::kRup && sign);
    return static_cast<B>(sign | (to_max ? inf - 1 : inf));
  }
  const B sig7 = rec7_table()[frac >> (M - 7)];
  int64_t out_e = 2 * bias - 1 - e;
  B out_frac = sig7 << (M - 7);
  if (out_e <= 0) {
    out_frac = ((B(1) << M) | out_frac) >> (1 - out_e);
    out_e = 0;
  }
  return static_cast<B>(sign | (B(out_e) << M) | out_frac);
}

template <class F>
fp::Bits<F> rsqrt7(Hart &h, F v) {
  using B = fp::Bits<F>;
  constexpr int M = Fmt<F>::M, E = Fmt<F>::E;
  constexpr int64_t bias = (int64_t(1) << (E - 1)) - 1;
  const B bits = std::bit_cast<B>(v);
  const B sign = bits & (B(1) << (M + E));
  const B inf = ((B(1) << E) - 1) << M;
  const double d = value(v);
  if (d != d || (sign && d != 0)) {
    if (fp::is_snan(v) || d == d) fp::accrue(h, csr::kFflagNv);
    return canon_nan_bits<F>();
  }
  if (std::isinf(d)) return 0;
  if (d == 0) {
    fp::accrue(h, csr::kFflagDz);
    return static_cast<B>(sign | inf);
  }
  int64_t e;
  B frac;
  normalize<F>(bits, e, frac);
  const unsigned idx =
      static_cast<unsigned>(((e & 1) << 6) | static_cast<int64_t>(frac >> (M - 6)));
  const int64_t out_e = (3 * bias - 1 - e) / 2;
  return static_cast<B>((B(out_e) << M) | (B(rsqrt7_table()[idx]) << (M - 7)));
}

template <bool recip>
uint64_t vest(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  if (!(h.mstatus & csr::kMstatusFs)) illegal(i);
  if (h.frm > 4) illegal(i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  const unsigned rm = h.frm;
  auto body = [&](auto t) {
    using F = decltype(t);
    using B = fp::Bits<F>;
    each(h, i, [&](uint64_t k) {
      const F v = std::bit_cast<F>(get<B>(h, i.vs2(), k));
      set<B>(h, i.vd(), k, recip ? rec7<F>(h, v, rm) : rsqrt7<F>(h, v));
    });
  };
  if (h.vsew_bits == 16)
    body(fp::Half{});
  else if (h.vsew_bits == 32)
    body(float{});
  else if (h.vsew_bits == 64)
    body(double{});
  else
    illegal(i);
  h.charge_vector(InsnClass::VecFp, h.vl, h.vsew_bits);
  return pc + 4;
}
}  // namespace

INSN(vfrec7_v, VecFp) { return vest<true>(h, i, pc); }
INSN(vfrsqrt7_v, VecFp) { return vest<false>(h, i, pc); }
