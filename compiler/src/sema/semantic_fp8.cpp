//===- semantic_fp8.cpp - fp8 <-> fp32 conversions with integer operations ===//
//
// tl.float8e4nv (OCP e4m3fn), tl.float8e5 (OCP e5m2) and tl.float8e4b15 are
// held as their bit patterns in ttir i8 values; a cast decodes or encodes
// them with integer operations, so the IR interpreter and the code generator
// need nothing fp8-specific. Decoding is exact. Encoding rounds to nearest
// even and follows torch's c10 conversions (fp8e5m2_from_fp32_value,
// fp8e4m3fn_from_fp32_value of torch 2.15) bit for bit: NaN -> S.1111.111
// (e5m2: S.11111.11), e5m2 overflow (|x| >= 65536 before rounding, inf) -> inf,
// e4m3fn overflow (|x| > 464, inf included) -> the largest finite value, 448,
// subnormals rounded in units of the smallest one.
// e4b15 (no torch type) saturates to its largest finite value, 1.875, and
// maps NaN to S.1111.111. docs/compiler/semantics.md, "fp8".
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "semantic.h"

namespace opforge::compiler::sema {
using ttir::OpKind;

namespace {

struct Fp8Format {
  int exp_bits, man_bits, bias;
  bool ieee_specials;         // the largest exponent holds inf/NaN (e5m2)
  bool fn_nan;                // only S.1111.111 is NaN (e4m3fn)
  int64_t overflow_f32_bits;  // |x| bits from which the result is overflow_code
  int64_t overflow_code, nan_code;
};

Fp8Format format_of(Sc s) {
  switch (s) {
    case Sc::F8E5:
      return {5, 2, 15, true, false, 143LL << 23, 0x7C, 0x7F};
    case Sc::F8E4NV:
      // Above 464 (the midpoint 448..480, which rounds to even 448): saturated to
      // 448, infinities too, as torch's conversion does.
      return {4, 3, 7, false, true, 0x43E80001LL, 0x7E, 0x7F};
    default:  // F8E4B15: 1.9375 and above round beyond 1.875
      return {4, 3, 15, false, false, 0x3FF80000LL, 0x7F, 0x7F};
  }
}

}  // namespace

SValue Semantic::fp8_to_f32(const SValue &v) {
  const Fp8Format f = format_of(v.type.sc);
  const LType i32 = LType::scalar(Sc::I32), f32 = LType::scalar(Sc::F32);
  auto k = [&](int64_t x) { return constant(SValue::integer(x), i32); };
  SValue w = cast(cast(v, LType::scalar(Sc::U8), true), i32);
  SValue sign = bitwise(OpKind::AndI, shr(w, k(7)), k(1));
  SValue e = bitwise(OpKind::AndI, shr(w, k(f.man_bits)), k((1 << f.exp_bits) - 1));
  SValue m = bitwise(OpKind::AndI, w, k((1 << f.man_bits) - 1));
  SValue s31 = shl(sign, k(31));
  SValue normal = bitwise(
      OpKind::OrI, s31,
      bitwise(OpKind::OrI, shl(add(e, k(127 - f.bias)), k(23)), shl(m, k(23 - f.man_bits))));
  // Subnormal: m units of 2^(1 - bias - man_bits), exact in fp32.
  SValue mag = mul(cast(m, f32), SValue::floating(std::ldexp(1.0, 1 - f.bias - f.man_bits)));
  SValue sub = bitwise(OpKind::OrI, cast(mag, i32, true), s31);  // keeps the sign of -0
  SValue bits = where(compare(CmpKind::Eq, e, SValue::integer(0)), sub, normal);
  const int64_t emax = (1 << f.exp_bits) - 1;
  if (f.ieee_specials) {
    SValue special =
        bitwise(OpKind::OrI, bitwise(OpKind::OrI, s31, k(0x7F800000)), shl(m, k(23 - f.man_bits)));
    bits = where(compare(CmpKind::Eq, e, SValue::integer(emax)), special, bits);
  } else if (f.fn_nan) {
    SValue is_nan = compare(CmpKind::Eq, bitwise(OpKind::AndI, w, k(0x7F)), SValue::integer(0x7F));
    bits = where(is_nan, bitwise(OpKind::OrI, s31, k(0x7FF00000)), bits);  // c10's NaN bits
  }
  return cast(bits, f32, true);
}

SValue Semantic::f32_to_fp8(const SValue &x, Sc fmt) {
  const Fp8Format f = format_of(fmt);
  const LType i32 = LType::scalar(Sc::I32), f32 = LType::scalar(Sc::F32);
  auto k = [&](int64_t v) { return constant(SValue::integer(v), i32); };
  SValue b = cast(x, i32, true);
  SValue a = bitwise(OpKind::AndI, b, k(0x7FFFFFFF));
  SValue sign8 = bitwise(OpKind::AndI, shr(b, k(24)), k(0x80));
  const int shift = 23 - f.man_bits;
  // Normal results: rebias, add half an ulp minus one plus the kept lsb, truncate.
  SValue odd = bitwise(OpKind::AndI, shr(a, k(shift)), k(1));
  SValue normal = shr(
      add(add(a, k((static_cast<int64_t>(f.bias) - 127) * (1LL << 23) + (1LL << (shift - 1)) - 1)),
          odd),
      k(shift));
  // Subnormal results: |x| in units of the smallest subnormal, rounded to even
  // by the 2^23 trick (exact: the scaled value is below 2^(man_bits + 1)).
  SValue units =
      mul(cast(a, f32, true), SValue::floating(std::ldexp(1.0, f.bias - 1 + f.man_bits)));
  SValue rounded = sub(add(units, SValue::floating(8388608.0)), SValue::floating(8388608.0));
  SValue subn = cast(rounded, i32);
  SValue r = where(compare(CmpKind::Lt, a, SValue::integer((128LL - f.bias) << 23)), subn, normal);
  r = where(compare(CmpKind::Ge, a, SValue::integer(f.overflow_f32_bits)), k(f.overflow_code), r);
  r = where(compare(CmpKind::Gt, a, SValue::integer(0x7F800000)), k(f.nan_code), r);
  r = bitwise(OpKind::OrI, r, sign8);
  return cast(cast(r, LType::scalar(Sc::U8)), LType::scalar(fmt), true);
}

}  // namespace opforge::compiler::sema
