//===- iss_zfh_test.cpp - Zfh and Zvfh semantics: boxing, rounding, flags ===//
//
// The cases a random differential test rarely reaches: NaN-boxing of half
// values, fused multiply-add whose double sum loses the sticky bit, the sign
// of an exact zero sum under rdn, overflow per rounding mode, tininess, and
// vector FP at SEW=16 (Zvfh) including the f16 -> f32 widening multiply-add.
// qemu_diff_zfh_test.cpp compares everything else with qemu-riscv64.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "iss_machine_util.h"
#include "opforge/isa/hart.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;
using opforge::isa::testing::Machine;

namespace {
uint64_t boxh(uint16_t h) { return 0xffffffffffff0000ull | h; }
constexpr uint32_t kNx = csr::kFflagNx, kUf = csr::kFflagUf, kOf = csr::kFflagOf;
}  // namespace

TEST(IssZfh, HalfValuesAreNaNBoxedAndUnboxedOnesReadAsTheCanonicalNaN) {
  Machine m;
  m.hart->set_freg(1, boxh(0x3c00));           // 1.0
  m.hart->set_freg(2, 0x00000000ffff4000ull);  // 2.0 without the box
  m.hart->set_xreg(5, 0x1000 + 0x800);
  const uint16_t stored = 0xbc00;  // -1.0
  m.mem.store(0x1800, &stored, 2);
  RunResult r = m.run({Machine::enc("fadd.h", {{"fd", 3}, {"fs1", 1}, {"fs2", 1}, {"rm", 0}}),
                       Machine::enc("fadd.h", {{"fd", 4}, {"fs1", 1}, {"fs2", 2}, {"rm", 0}}),
                       Machine::enc("flh", {{"fd", 6}, {"rs1", 5}, {"imm12", 0}}),
                       Machine::enc("fmv.x.h", {{"rd", 7}, {"fs1", 6}}),
                       Machine::enc("fcvt.s.h", {{"fd", 8}, {"fs1", 6}, {"rm", 0}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->freg(3), boxh(0x4000));  // 2.0, boxed
  EXPECT_EQ(m.hart->freg(4), boxh(0x7e00));  // NaN + 1 = canonical NaN
  EXPECT_EQ(m.hart->freg(6), boxh(0xbc00));
  EXPECT_EQ(m.hart->xreg(7), 0xffffffffffffbc00ull);  // sign-extended
  EXPECT_EQ(m.hart->freg(8), 0xffffffff00000000ull | std::bit_cast<uint32_t>(-1.0f));
  EXPECT_EQ(m.fflags(), 0u);  // a quiet NaN operand raises nothing
}

TEST(IssZfh, FusedMultiplyAddKeepsTheStickyBitTheDoubleSumLoses) {
  // 2^15 + 2^-24 * 2^-24: the exact sum needs 64 bits, so the double sum is
  // 2^15 and only its error says which way rup/rdn must go.
  Machine m;
  m.hart->set_freg(1, boxh(0x0001));  // 2^-24
  m.hart->set_freg(2, boxh(0x7800));  // 2^15
  m.hart->set_freg(3, boxh(0xf800));  // -2^15
  m.hart->set_freg(9, boxh(0x8001));  // -2^-24
  RunResult r =
      m.run({Machine::enc("fmadd.h", {{"fd", 4}, {"fs1", 1}, {"fs2", 1}, {"fs3", 2}, {"rm", 3}}),
             Machine::enc("fmadd.h", {{"fd", 5}, {"fs1", 1}, {"fs2", 1}, {"fs3", 2}, {"rm", 0}}),
             Machine::enc("fmadd.h", {{"fd", 6}, {"fs1", 1}, {"fs2", 1}, {"fs3", 3}, {"rm", 2}}),
             Machine::enc("fmsub.h", {{"fd", 7}, {"fs1", 1}, {"fs2", 1}, {"fs3", 2}, {"rm", 1}}),
             Machine::enc("fmadd.h", {{"fd", 10}, {"fs1", 9}, {"fs2", 1}, {"fs3", 2}, {"rm", 1}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->freg(4), boxh(0x7801));   // rup: 32800
  EXPECT_EQ(m.hart->freg(5), boxh(0x7800));   // rne: 32768
  EXPECT_EQ(m.hart->freg(6), boxh(0xf800));   // rdn of -(2^15 - tiny): -32768
  EXPECT_EQ(m.hart->freg(7), boxh(0xf7ff));   // rtz of -(2^15 - tiny): -32752, the binade below
  EXPECT_EQ(m.hart->freg(10), boxh(0x77ff));  // rtz of 2^15 - tiny: 32752
  EXPECT_EQ(m.fflags(), kNx);
}

TEST(IssZfh, ExactZeroSumIsNegativeOnlyInRdn) {
  Machine m;
  m.hart->set_freg(1, boxh(0x3c00));
  m.hart->set_freg(2, boxh(0xbc00));
  RunResult r =
      m.run({Machine::enc("fadd.h", {{"fd", 3}, {"fs1", 1}, {"fs2", 2}, {"rm", 2}}),
             Machine::enc("fadd.h", {{"fd", 4}, {"fs1", 1}, {"fs2", 2}, {"rm", 3}}),
             Machine::enc("fnmsub.h", {{"fd", 5}, {"fs1", 1}, {"fs2", 1}, {"fs3", 1}, {"rm", 2}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->freg(3), boxh(0x8000));
  EXPECT_EQ(m.hart->freg(4), boxh(0x0000));
  EXPECT_EQ(m.hart->freg(5), boxh(0x8000));  // -(1*1) + 1 in rdn
  EXPECT_EQ(m.fflags(), 0u);
}

TEST(IssZfh, OverflowAndUnderflowFollowTheRoundingMode) {
  Machine m;
  m.hart->set_freg(1, boxh(0x7bff));  // 65504
  m.hart->set_freg(2, boxh(0x0400));  // 2^-14, the smallest normal
  m.hart->set_freg(3, boxh(0x3800));  // 0.5
  m.hart->set_freg(4, boxh(0x3c01));  // 1 + 2^-10
  RunResult r = m.run({Machine::enc("fadd.h", {{"fd", 5}, {"fs1", 1}, {"fs2", 1}, {"rm", 0}}),
                       Machine::enc("fadd.h", {{"fd", 6}, {"fs1", 1}, {"fs2", 1}, {"rm", 1}})});
  ASSERT_EQ(r.reason, StopReason::Done);
  EXPECT_EQ(m.hart->freg(5), boxh(0x7c00));  // rne: inf
  EXPECT_EQ(m.hart->freg(6), boxh(0x7bff));  // rtz: the largest finite
  EXPECT_EQ(m.fflags(), kOf | kNx);
  // 2^-14 * 0.5 is an exact subnormal: no flags. 2^-14 * 0.5 * (1 + 2^-10)
  // is tiny and inexact: underflow.
  m.hart->write_csr(csr::kFflags, 0);
  r = m.run({Machine::enc("fmul.h", {{"fd", 7}, {"fs1", 2}, {"fs2", 3}, {"rm", 0}})});
  EXPECT_EQ(m.hart->freg(7), boxh(0x0200));
  EXPECT_EQ(m.fflags(), 0u);
  r = m.run({Machine::enc("fmul.h", {{"fd", 8}, {"fs1", 7}, {"fs2", 4}, {"rm", 0}})});
  EXPECT_EQ(m.hart->freg(8), boxh(0x0200));  // 512.5 quanta, a tie to even
  EXPECT_EQ(m.fflags(), kUf | kNx);
}

TEST(IssZfh, VectorFpAtSew16IsLegalAndWidensToSingle) {
  Machine m;
  const uint16_t a[4] = {0x3c00, 0x4000, 0x3555, 0xfbff};  // 1, 2, ~1/3, -65504
  const uint16_t b[4] = {0x3c00, 0x3c00, 0x3c00, 0xfbff};
  std::memcpy(m.hart->vreg_mut(2), a, sizeof a);
  std::memcpy(m.hart->vreg_mut(3), b, sizeof b);
  m.hart->set_xreg(10, 4);
  m.hart->set_freg(1, boxh(0x4200));  // 3.0
  RunResult r =
      m.run({Machine::enc("vsetvli", {{"rd", 0}, {"rs1", 10}, {"zimm11", 0x08}}),  // e16, m1
             Machine::enc("vfadd.vv", {{"vd", 4}, {"vs2", 2}, {"vs1", 3}, {"vm", 1}}),
             Machine::enc("vfmul.vf", {{"vd", 5}, {"vs2", 2}, {"fs1", 1}, {"vm", 1}}),
             Machine::enc("vfwmacc.vv", {{"vd", 8}, {"vs1", 2}, {"vs2", 3}, {"vm", 1}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  uint16_t sum[4], prod[4];
  float wide[4];
  std::memcpy(sum, m.hart->vreg_mut(4), sizeof sum);
  std::memcpy(prod, m.hart->vreg_mut(5), sizeof prod);
  std::memcpy(wide, m.hart->vreg_mut(8), sizeof wide);
  EXPECT_EQ(sum[0], 0x4000);
  EXPECT_EQ(sum[1], 0x4200);
  EXPECT_EQ(sum[2], 0x3d55);   // 1.3330078125
  EXPECT_EQ(sum[3], 0xfc00);   // -inf: overflow
  EXPECT_EQ(prod[1], 0x4600);  // 6
  EXPECT_EQ(prod[3], 0xfc00);
  EXPECT_EQ(wide[0], 1.0f);  // vd was 0: 0 + a*b in single
  EXPECT_EQ(wide[3], 65504.0f * 65504.0f);
  EXPECT_EQ(m.fflags(), kOf | kNx);
}
