//===- sfu_math.cpp - Xmtia SFU special-function numerics ------------------===//
#include "opforge/isa/sfu_math.h"

#include <bit>
#include <cmath>

namespace opforge::isa::sfu {

float exact(SfuFunc fn, float x) {
  const double d = x;
  double r = 0;
  switch (fn) {
    case SfuFunc::Exp:
      r = std::exp(d);
      break;
    case SfuFunc::Log:
      r = std::log(d);
      break;
    case SfuFunc::Tanh:
      r = std::tanh(d);
      break;
    case SfuFunc::Erf:
      r = std::erf(d);
      break;
    case SfuFunc::Sin:
      r = std::sin(d);
      break;
    case SfuFunc::Cos:
      r = std::cos(d);
      break;
    case SfuFunc::Rsqrt:
      r = 1.0 / std::sqrt(d);
      break;
    case SfuFunc::Recip:
      r = 1.0 / d;
      break;
  }
  float f = static_cast<float>(r);
  if (f != f) return std::bit_cast<float>(0x7fc00000u);
  return f;
}

float round_to_precision(float v, unsigned mantissa_bits) {
  if (mantissa_bits == 0 || mantissa_bits >= kFp32MantissaBits) return v;
  if (v != v) return std::bit_cast<float>(0x7fc00000u);
  if (std::isinf(v)) return v;
  uint32_t b = std::bit_cast<uint32_t>(v);
  const unsigned drop = kFp32MantissaBits - mantissa_bits;
  const uint32_t lsb = (b >> drop) & 1u;
  const uint32_t half = 1u << (drop - 1);
  const uint32_t sign = b & 0x80000000u;
  uint32_t mag = b & 0x7fffffffu;
  mag += half - 1 + lsb;
  mag &= ~((1u << drop) - 1u);
  if (mag >= 0x7f800000u) mag = 0x7f800000u;  // rounded past the largest finite value
  return std::bit_cast<float>(sign | mag);
}

float evaluate(SfuFunc fn, float x, unsigned mantissa_bits) {
  return round_to_precision(exact(fn, x), mantissa_bits);
}

const char *func_name(SfuFunc fn) {
  switch (fn) {
    case SfuFunc::Exp:
      return "exp";
    case SfuFunc::Log:
      return "log";
    case SfuFunc::Tanh:
      return "tanh";
    case SfuFunc::Erf:
      return "erf";
    case SfuFunc::Sin:
      return "sin";
    case SfuFunc::Cos:
      return "cos";
    case SfuFunc::Rsqrt:
      return "rsqrt";
    case SfuFunc::Recip:
      return "recip";
  }
  return "?";
}

}  // namespace opforge::isa::sfu
