//===- llir_half.cpp - fp16 <-> fp32 conversions and rounding with Zfh, as LLVM IR text ===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

// fp16 values are carried as fp32 (every one fp16-exact); with Zfh these
// are single instructions: fcvt.s.h, fcvt.h.s + fcvt.s.h, fcvt.h.s (and
// vfwcvt/vfncvt once vectorized). LLVM's instcombine narrows
// round(fadd(ext a, ext b)) to a half fadd: for + - * / the fp32 result
// rounded once to fp16 equals the fp16 operation (fp32 has more than
// 2*11+2 bits), so the bits are those of computing in fp32 and rounding.
const char *const kHalfHelpers = R"(
define internal float @__opforge_f16_to_f32(i16 %h) alwaysinline {
  %hf = bitcast i16 %h to half
  %f = fpext half %hf to float
  ret float %f
}
define internal float @__opforge_round_f16(float %x) alwaysinline {
  %h = fptrunc float %x to half
  %f = fpext half %h to float
  ret float %f
}
define internal i16 @__opforge_f32_to_f16(float %x) alwaysinline {
  %h = fptrunc float %x to half
  %b = bitcast half %h to i16
  ret i16 %b
}
)";

}  // namespace opforge::compiler::llir
