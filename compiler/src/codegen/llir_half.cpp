//===- llir_half.cpp - fp16 <-> fp32 in integer code, as LLVM IR text (no Zfh) ===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

// Values handed to __opforge_f32_to_f16 are already fp16-exact (rounded by
// __opforge_round_f16).
const char *const kHalfHelpers = R"(
define internal float @__opforge_f16_to_f32(i16 %h) alwaysinline {
  %w = zext i16 %h to i32
  %sign = shl i32 %w, 16
  %sign1 = and i32 %sign, -2147483648
  %mag = and i32 %w, 32767
  %u = shl i32 %mag, 13
  %f = bitcast i32 %u to float
  %scaled = fmul float %f, 0x46F0000000000000
  %sb = bitcast float %scaled to i32
  %isinf = icmp uge i32 %mag, 31744
  %infbits = or i32 %u, 2139095040
  %m = select i1 %isinf, i32 %infbits, i32 %sb
  %r = or i32 %m, %sign1
  %rf = bitcast i32 %r to float
  ret float %rf
}
define internal float @__opforge_round_f16(float %x) alwaysinline {
  %b = bitcast float %x to i32
  %sign = and i32 %b, -2147483648
  %a = and i32 %b, 2147483647
  %isnan = icmp ugt i32 %a, 2139095040
  %big = icmp uge i32 %a, 1199566848
  %small = icmp ult i32 %a, 947912704
  %lsb0 = lshr i32 %a, 13
  %lsb = and i32 %lsb0, 1
  %n0 = add i32 %a, 4095
  %n1 = add i32 %n0, %lsb
  %n = and i32 %n1, -8192
  %af = bitcast i32 %a to float
  %t = fadd float %af, 5.000000e-01
  %sub = fsub float %t, 5.000000e-01
  %subb = bitcast float %sub to i32
  %r0 = select i1 %small, i32 %subb, i32 %n
  %r1 = select i1 %big, i32 2139095040, i32 %r0
  %qnan = or i32 %a, 4194304
  %r2 = select i1 %isnan, i32 %qnan, i32 %r1
  %r = or i32 %r2, %sign
  %rf = bitcast i32 %r to float
  ret float %rf
}
define internal i16 @__opforge_f32_to_f16(float %x) alwaysinline {
  %b = bitcast float %x to i32
  %sign0 = lshr i32 %b, 16
  %sign = and i32 %sign0, 32768
  %a = and i32 %b, 2147483647
  %isspecial = icmp uge i32 %a, 2139095040
  %man = lshr i32 %a, 13
  %man10 = and i32 %man, 1023
  %nanbit = select i1 %isspecial, i32 %man10, i32 0
  %nanq = icmp ugt i32 %a, 2139095040
  %nanq1 = select i1 %nanq, i32 512, i32 0
  %spec = or i32 31744, %nanbit
  %spec1 = or i32 %spec, %nanq1
  %norm = sub i32 %man, 114688
  %issub = icmp ult i32 %a, 947912704
  %af = bitcast i32 %a to float
  %sc = fmul float %af, 0x4170000000000000
  %subv = fptoui float %sc to i32
  %r0 = select i1 %issub, i32 %subv, i32 %norm
  %r1 = select i1 %isspecial, i32 %spec1, i32 %r0
  %r = or i32 %r1, %sign
  %h = trunc i32 %r to i16
  ret i16 %h
}
)";

}  // namespace opforge::compiler::llir
