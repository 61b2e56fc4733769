//===- iss_semantics_test.cpp - semantics coverage and single-instruction behaviour ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>

#include "iss_machine_util.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/hart.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/sfu_math.h"
#include "opforge/isa/spec.h"
#include "opforge/support/dtype.h"

using namespace opforge::isa;
using opforge::isa::testing::Machine;

TEST(IssSemantics, EveryTableEntryHasSemanticsAndViceVersa) {
  const auto names = semantics_mnemonics();
  std::set<std::string> sem(names.begin(), names.end());
  EXPECT_EQ(sem.size(), names.size()) << "a mnemonic is registered twice";
  std::set<std::string> table;
  for (const InsnSpec &s : instructions()) table.insert(s.name);
  for (const auto &t : table)
    EXPECT_TRUE(sem.count(t)) << t << " (" << find_insn(t)->source << ") has no semantics";
  for (const auto &s : sem) EXPECT_TRUE(table.count(s)) << s << " has semantics but no table entry";
}

namespace {
uint64_t box(float f) { return 0xffffffff00000000ull | std::bit_cast<uint32_t>(f); }
}  // namespace

TEST(IssSemantics, FaddRoundingModesAndFlags) {
  Machine m;
  m.hart->set_freg(1, box(1.0f));
  m.hart->set_freg(2, box(std::ldexp(1.0f, -24)));  // exactly half an ulp of 1.0
  // rne: tie to even -> 1.0; rup -> next float; rmm -> away from zero.
  RunResult r = m.run({Machine::enc("fadd.s", {{"fd", 3}, {"fs1", 1}, {"fs2", 2}, {"rm", 0}}),
                       Machine::enc("fadd.s", {{"fd", 4}, {"fs1", 1}, {"fs2", 2}, {"rm", 3}}),
                       Machine::enc("fadd.s", {{"fd", 5}, {"fs1", 1}, {"fs2", 2}, {"rm", 4}})});
  ASSERT_EQ(r.reason, StopReason::Done);
  EXPECT_EQ(m.hart->freg(3), box(1.0f));
  EXPECT_EQ(m.hart->freg(4), box(std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(m.hart->freg(5), box(std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(m.hart->read_csr(csr::kFflags).value(), csr::kFflagNx);
}

TEST(IssSemantics, FusedMultiplyAddRoundsTiesAwayInRmm) {
  Machine m;
  m.hart->set_freg(1, box(1.0f));
  m.hart->set_freg(2, box(std::ldexp(1.0f, -24)));  // 1*1 + 2^-24: a tie between 1 and 1+2^-23
  m.hart->set_freg(3, std::bit_cast<uint64_t>(1.0));
  m.hart->set_freg(4, std::bit_cast<uint64_t>(std::ldexp(1.0, -53)));
  RunResult r =
      m.run({Machine::enc("fmadd.s", {{"fd", 5}, {"fs1", 1}, {"fs2", 1}, {"fs3", 2}, {"rm", 4}}),
             Machine::enc("fmadd.s", {{"fd", 6}, {"fs1", 1}, {"fs2", 1}, {"fs3", 2}, {"rm", 0}}),
             Machine::enc("fmadd.d", {{"fd", 7}, {"fs1", 3}, {"fs2", 3}, {"fs3", 4}, {"rm", 4}}),
             Machine::enc("fmadd.d", {{"fd", 8}, {"fs1", 3}, {"fs2", 3}, {"fs3", 4}, {"rm", 0}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->freg(5), box(std::nextafter(1.0f, 2.0f)));  // away from zero
  EXPECT_EQ(m.hart->freg(6), box(1.0f));                        // to even
  EXPECT_EQ(m.hart->freg(7), std::bit_cast<uint64_t>(std::nextafter(1.0, 2.0)));
  EXPECT_EQ(m.hart->freg(8), std::bit_cast<uint64_t>(1.0));
}

TEST(IssSemantics, InvalidStaticRoundingModeIsIllegal) {
  Machine m;
  const uint32_t w = Machine::enc("fadd.s", {{"fd", 3}, {"fs1", 1}, {"fs2", 2}, {"rm", 5}});
  RunResult r = m.run({w});
  ASSERT_EQ(r.reason, StopReason::Trap);
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
  EXPECT_EQ(r.trap.tval, w);
}

TEST(IssSemantics, VectorAddSew32WithMaskLeavesInactiveUndisturbed) {
  Machine m(256);
  // vsetvli x5, x6(=8), e32,m1 ; vadd.vv v1, v2, v3, v0.t
  m.hart->set_xreg(6, 8);
  for (int k = 0; k < 8; ++k) {
    uint32_t a = 100 + k, b = 1000 * k, old = 7;
    std::memcpy(m.hart->vreg_mut(2) + 4 * k, &a, 4);
    std::memcpy(m.hart->vreg_mut(3) + 4 * k, &b, 4);
    std::memcpy(m.hart->vreg_mut(1) + 4 * k, &old, 4);
  }
  m.hart->vreg_mut(0)[0] = 0b10101010;
  RunResult r = m.run({Machine::enc("vsetvli", {{"rd", 5}, {"rs1", 6}, {"zimm11", 0x10}}),
                       Machine::enc("vadd.vv", {{"vd", 1}, {"vs2", 2}, {"vs1", 3}, {"vm", 0}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->xreg(5), 8u);
  for (int k = 0; k < 8; ++k) {
    uint32_t got;
    std::memcpy(&got, m.hart->vreg(1) + 4 * k, 4);
    EXPECT_EQ(got, (k & 1) ? uint32_t(100 + k + 1000 * k) : 7u) << "element " << k;
  }
}

TEST(IssSemantics, VectorOpWithIllegalVtypeTraps) {
  Machine m;
  // vsetvl with a reserved vtype sets vill; the next vector op is illegal.
  m.hart->set_xreg(7, 1ull << 8);
  RunResult r = m.run({Machine::enc("vsetvl", {{"rd", 5}, {"rs1", 0}, {"rs2", 7}}),
                       Machine::enc("vadd.vv", {{"vd", 1}, {"vs2", 2}, {"vs1", 3}, {"vm", 1}})});
  ASSERT_EQ(r.reason, StopReason::Trap);
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
  EXPECT_EQ(m.hart->read_csr(csr::kVtype).value(), 1ull << 63);
}

TEST(IssSemantics, SfuExpAtPrecisionRoundsMantissa) {
  Machine m;
  XmtiaIds ids;
  ids.sfu_prec_bits = 10;
  m.hart->set_xmtia_ids(ids);
  m.hart->set_xreg(6, 4);
  const float xs[4] = {0.5f, -1.25f, 3.0f, 0.0f};
  std::memcpy(m.hart->vreg_mut(2), xs, 16);
  RunResult r = m.run({Machine::enc("vsetvli", {{"rd", 5}, {"rs1", 6}, {"zimm11", 0x10}}),
                       Machine::enc("vfexp.v", {{"vd", 1}, {"vs2", 2}, {"vm", 1}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  for (int k = 0; k < 4; ++k) {
    float got;
    std::memcpy(&got, m.hart->vreg(1) + 4 * k, 4);
    EXPECT_EQ(got, sfu::evaluate(SfuFunc::Exp, xs[k], 10));
    EXPECT_EQ(std::bit_cast<uint32_t>(got) & ((1u << 13) - 1), 0u)
        << "only 10 mantissa bits may be set";
    EXPECT_NEAR(got, std::exp(xs[k]), std::exp(xs[k]) * 1e-3);
  }
  EXPECT_EQ(m.accel.sfu_elements(), 4u);
}

TEST(IssSemantics, SfuRoundToPrecisionIsNearestEven) {
  // 1 + 2^-11 + 2^-12 rounds up at 10 bits; 1 + 2^-11 (a tie) rounds to even (down).
  EXPECT_EQ(sfu::round_to_precision(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -12), 10),
            1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(sfu::round_to_precision(1.0f + std::ldexp(1.0f, -11), 10), 1.0f);
  EXPECT_EQ(sfu::round_to_precision(1.0f + 3 * std::ldexp(1.0f, -11), 10),
            1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(sfu::round_to_precision(2.5f, 0), 2.5f);
}

TEST(IssSemantics, DmaAndDpeDescriptorsRunThroughTheAccelerator) {
  Machine m;
  // A (2x3 bf16), B (3x2 bf16) at 0x3000/0x3100 copied by DMA to 0x4000/0x4100, DPE into C at
  // 0x5000.
  const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {0.5f, -1, 2, 0.25f, -3, 8};
  for (int k = 0; k < 6; ++k) {
    uint16_t ab = opforge::fp32_to_bf16(a[k]), bb = opforge::fp32_to_bf16(b[k]);
    m.mem.store(0x3000 + 2 * k, &ab, 2);
    m.mem.store(0x3100 + 2 * k, &bb, 2);
  }
  const uint64_t dma[6] = {0x3000, 0x4000, 0x100, 2, 0x100, 0x100};  // 2 rows of 256 bytes
  m.mem.store(0x2000, dma, sizeof dma);
  uint8_t dpe[56] = {};
  const uint64_t abc[3] = {0x4000, 0x4100, 0x5000};
  const uint32_t dims[6] = {2, 2, 3, 3, 2, 2};
  std::memcpy(dpe, abc, 24);
  std::memcpy(dpe + 24, dims, 24);
  dpe[48] = 0;  // bf16
  m.mem.store(0x2100, dpe, sizeof dpe);
  m.hart->set_xreg(10, 0x2000);
  m.hart->set_xreg(11, 3);
  m.hart->set_xreg(12, 0x2100);
  RunResult r =
      m.run({Machine::enc("xmtia.dma", {{"rs1", 10}, {"rs2", 11}}),
             Machine::enc("xmtia.dmawait", {{"rs1", 11}}), Machine::enc("xmtia.dpe", {{"rs1", 12}}),
             Machine::enc("xmtia.dpewait", {})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.accel.dma_bytes(), 512u);
  EXPECT_EQ(m.accel.dpe_macs(), 12u);
  float c[4];
  m.mem.load(0x5000, c, 16);
  EXPECT_EQ(c[0], 1 * 0.5f + 2 * 2 + 3 * -3.0f);
  EXPECT_EQ(c[1], 1 * -1.0f + 2 * 0.25f + 3 * 8.0f);
  EXPECT_EQ(c[2], 4 * 0.5f + 5 * 2 + 6 * -3.0f);
  EXPECT_EQ(c[3], 4 * -1.0f + 5 * 0.25f + 6 * 8.0f);
}

TEST(IssSemantics, DmaFromUnmappedAddressTrapsWithThatAddress) {
  Machine m;
  const uint64_t dma[6] = {0x900000, 0x4000, 16, 1, 0, 0};
  m.mem.store(0x2000, dma, sizeof dma);
  m.hart->set_xreg(10, 0x2000);
  RunResult r = m.run({Machine::enc("xmtia.dma", {{"rs1", 10}, {"rs2", 0}})});
  ASSERT_EQ(r.reason, StopReason::Trap);
  EXPECT_EQ(r.trap.cause, cause::kLoadAccessFault);
  EXPECT_EQ(r.trap.tval, 0x900000u);
}

TEST(IssSemantics, XmtiaCsrsReadTheCommandProcessorValues) {
  Machine m;
  XmtiaIds ids;
  ids.pid[0] = 3;
  ids.nprog[1] = 7;
  ids.pe_id = 12;
  m.hart->set_xmtia_ids(ids);
  RunResult r = m.run({Machine::enc("csrrs", {{"rd", 5}, {"rs1", 0}, {"csr", csr::kMtiaPidX}}),
                       Machine::enc("csrrs", {{"rd", 6}, {"rs1", 0}, {"csr", csr::kMtiaNprogY}}),
                       Machine::enc("csrrs", {{"rd", 7}, {"rs1", 0}, {"csr", csr::kMtiaPeId}})});
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  EXPECT_EQ(m.hart->xreg(5), 3u);
  EXPECT_EQ(m.hart->xreg(6), 7u);
  EXPECT_EQ(m.hart->xreg(7), 12u);
  // They are read-only.
  r = m.run({Machine::enc("csrrw", {{"rd", 0}, {"rs1", 5}, {"csr", csr::kMtiaPidX}})});
  EXPECT_EQ(r.reason, StopReason::Trap);
}

TEST(IssSemantics, HpmCountersComeFromTheModel) {
  Machine m;
  m.hart->set_hpm_reader([](unsigned idx) { return 1000u + idx; });
  RunResult r =
      m.run({Machine::enc("csrrs", {{"rd", 5}, {"rs1", 0}, {"csr", csr::kHpmcounter3 + 2}})});
  ASSERT_EQ(r.reason, StopReason::Done);
  EXPECT_EQ(m.hart->xreg(5), 1005u);
}

namespace {
uint32_t lr(const char *name, unsigned rd, unsigned rs1) {
  return Machine::enc(name, {{"rd", rd}, {"rs1", rs1}, {"aq", 0}, {"rl", 0}});
}
uint32_t sc(const char *name, unsigned rd, unsigned rs1, unsigned rs2) {
  return Machine::enc(name, {{"rd", rd}, {"rs1", rs1}, {"rs2", rs2}, {"aq", 0}, {"rl", 0}});
}
// Runs lr on the word at 0x8000, lets `between` touch memory (as another hart
// would between two quanta), then runs sc of 77 there; returns sc's rd.
template <class Between>
uint64_t lr_then_sc(Machine &m, const char *lr_name, const char *sc_name, Between between) {
  m.hart->set_xreg(10, 0x8000);
  m.hart->set_xreg(11, 77);
  EXPECT_EQ(m.run({lr(lr_name, 5, 10)}).reason, StopReason::Done);
  between();
  EXPECT_EQ(m.run({sc(sc_name, 6, 10, 11)}).reason, StopReason::Done);
  return m.hart->xreg(6);
}
}  // namespace

TEST(IssSemantics, ScSucceedsWhenMemoryStillHoldsTheValueLrLoaded) {
  for (const char *w : {"w", "d"}) {
    Machine m;
    const uint64_t init = 0x1122334455667788ull;
    m.mem.store(0x8000, &init, 8);
    const std::string l = std::string("lr.") + w, s = std::string("sc.") + w;
    EXPECT_EQ(lr_then_sc(m, l.c_str(), s.c_str(), [] {}), 0u) << s;
    uint64_t now = 0;
    m.mem.load(0x8000, &now, 8);
    EXPECT_EQ(now, *w == 'w' ? 0x112233440000004dull : 77ull) << s;
    // The reservation is used up: a second sc fails and stores nothing.
    m.hart->set_xreg(11, 99);
    EXPECT_EQ(m.run({sc(s.c_str(), 6, 10, 11)}).reason, StopReason::Done);
    EXPECT_EQ(m.hart->xreg(6), 1u) << s;
    m.mem.load(0x8000, &now, 8);
    EXPECT_EQ(now & 0xff, 77u) << s;
  }
}

TEST(IssSemantics, ScFailsWhenAnotherWriterChangedTheReservedWord) {
  for (const char *w : {"w", "d"}) {
    Machine m;
    const uint64_t init = 5;
    m.mem.store(0x8000, &init, 8);
    const std::string l = std::string("lr.") + w, s = std::string("sc.") + w;
    // Another hart's store lands between lr and sc (not through this hart).
    const uint64_t other = 6;
    EXPECT_EQ(lr_then_sc(m, l.c_str(), s.c_str(), [&] { m.mem.store(0x8000, &other, 8); }), 1u)
        << s;
    EXPECT_EQ(m.hart->xreg(5), 5u) << s;  // lr's value
    uint64_t now = 0;
    m.mem.load(0x8000, &now, 8);
    EXPECT_EQ(now, 6u) << s << ": the failed sc must not store";
  }
}

TEST(IssSemantics, ScFailsOnAddressOrWidthOtherThanTheReservation) {
  Machine m;
  const uint64_t zero = 0;
  m.mem.store(0x8000, &zero, 8);
  m.mem.store(0x8008, &zero, 8);
  m.hart->set_xreg(10, 0x8000);
  m.hart->set_xreg(12, 0x8008);
  m.hart->set_xreg(11, 77);
  // lr.d then sc.d elsewhere (same value there): fails.
  ASSERT_EQ(m.run({lr("lr.d", 5, 10), sc("sc.d", 6, 12, 11)}).reason, StopReason::Done);
  EXPECT_EQ(m.hart->xreg(6), 1u);
  // lr.d then sc.w at the same address: fails, stores nothing.
  ASSERT_EQ(m.run({lr("lr.d", 5, 10), sc("sc.w", 6, 10, 11)}).reason, StopReason::Done);
  EXPECT_EQ(m.hart->xreg(6), 1u);
  uint64_t a = 1, b = 1;
  m.mem.load(0x8000, &a, 8);
  m.mem.load(0x8008, &b, 8);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 0u);
}
