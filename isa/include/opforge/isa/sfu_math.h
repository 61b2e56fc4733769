//===- sfu_math.h - numerics of the Xmtia SFU special functions -----------===//
//
// The one definition of what vfexp.v ... vfrecip.v compute, shared by the
// ISS, the chip model and the RTL checks. Inputs and results are fp32.
//   exact mode (precision 0 or >= 23): the function evaluated in double
//     precision by the host libm and rounded once to fp32 (round to nearest
//     even); rsqrt = 1/sqrt(x), recip = 1/x.
//   precision p (1..22 mantissa bits): the exact-mode result rounded to p
//     explicit mantissa bits, round to nearest even on the fp32 encoding
//     (a carry may raise the exponent, up to infinity). NaN results are the
//     canonical NaN 0x7fc00000; infinities and zeros pass through.
// SFU instructions do not change fflags.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

#include "opforge/isa/accel_if.h"

namespace opforge::isa::sfu {

inline constexpr unsigned kFp32MantissaBits = 23;

// The exact-mode result of fn at x.
float exact(SfuFunc fn, float x);
// v rounded to `mantissa_bits` explicit mantissa bits (0 or >= 23: unchanged).
float round_to_precision(float v, unsigned mantissa_bits);
// What the SFU returns for fn(x) at the given precision (0 = exact).
float evaluate(SfuFunc fn, float x, unsigned mantissa_bits);
// "exp", "log", ... as in the mnemonics.
const char *func_name(SfuFunc fn);

}  // namespace opforge::isa::sfu
