//===- iss_runloop_test.cpp - the run loop's straight-line runs match single steps ===//
//
// The hart executes cached straight-line runs and counts instret/cycles once
// per run. These tests check that nothing observable changes: registers,
// memory, counters and stop points equal those of single-stepping, also
// when an instruction limit, a cycle budget or a trap falls inside a run and
// when a tiny decoded-instruction cache makes runs evict each other.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <memory>

#include "iss_test_util.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;
using opforge::isa::testing::build_program;
using opforge::isa::testing::TempDir;

namespace {

std::string done_word() {
  const InsnSpec *s = find_insn("xmtia.done");
  EXPECT_NE(s, nullptr);
  return "  .word " + std::to_string(s ? encode(*s, {}) : 0) + "\n";
}

// Loads, stores, branches, M, F/D and vector instructions in loops, with a
// call, then xmtia.done.
const char *kMixedProgram = R"(
  .globl _start
_start:
  la s0, buf
  li t1, 40
  li a5, 0
  fcvt.d.w f1, t1
1:
  ld a2, 0(s0)
  add a2, a2, t1
  mul a3, a2, t1
  sd a3, 8(s0)
  srli a4, a3, 3
  xor a5, a5, a4
  fcvt.d.l f2, a4
  fadd.d f1, f1, f2
  jal ra, helper
  addi t1, t1, -1
  bnez t1, 1b
  li t2, 8
  vsetvli t3, t2, e32, m1, ta, ma
  vid.v v1
  vadd.vx v2, v1, a5
  vse32.v v2, (s0)
  lw a6, 4(s0)
  fsd f1, 16(s0)
  j 2f
helper:
  addi a5, a5, 7
  sw a5, 24(s0)
  ret
2:
)";

struct Sim {
  ElfImage img;
  std::unique_ptr<FlatMemory> mem;
  std::unique_ptr<FunctionalAccelerator> accel;
  std::unique_ptr<Hart> hart;
  Sim(const std::string &elf, size_t icache_entries = 1u << 14) : img(read_elf(elf)) {
    mem = std::make_unique<FlatMemory>(img.low_addr() & ~0xfffull, 1 << 20);
    accel = std::make_unique<FunctionalAccelerator>(*mem);
    load_elf(img, *mem);
    HartConfig cfg;
    cfg.reset_pc = img.entry;
    cfg.icache_entries = icache_entries;
    cfg.cost.mul_cycles = 3;
    cfg.cost.load_cycles = 2;
    cfg.cost.jump_cycles = 2;
    hart = std::make_unique<Hart>(cfg, *mem, *accel);
    hart->set_xreg(2, img.high_addr() + 0x8000);
  }
  // Single steps until a stop other than the limit of one instruction.
  StopReason step_to_end(uint64_t max_steps = 1'000'000) {
    for (uint64_t k = 0; k < max_steps; ++k) {
      RunResult r = hart->step();
      if (r.reason != StopReason::InsnLimit) return r.reason;
    }
    return StopReason::InsnLimit;
  }
};

void expect_same_state(Sim &a, Sim &b) {
  EXPECT_EQ(a.hart->pc(), b.hart->pc());
  EXPECT_EQ(a.hart->instret(), b.hart->instret());
  EXPECT_EQ(a.hart->cycles(), b.hart->cycles());
  for (unsigned r = 0; r < 32; ++r) {
    EXPECT_EQ(a.hart->xreg(r), b.hart->xreg(r)) << "x" << r;
    EXPECT_EQ(a.hart->freg(r), b.hart->freg(r)) << "f" << r;
  }
  EXPECT_EQ(0, std::memcmp(a.hart->vreg(2), b.hart->vreg(2), a.hart->vlenb()));
  std::vector<uint8_t> ma(64), mb(64);
  const uint64_t buf = a.img.low_addr() + 0x1000;
  ASSERT_TRUE(a.mem->load(buf, ma.data(), ma.size()));
  ASSERT_TRUE(b.mem->load(buf, mb.data(), mb.size()));
  EXPECT_EQ(ma, mb);
}

std::string mixed_elf(TempDir &dir) {
  return build_program(dir, "mixed",
                       std::string(kMixedProgram) + done_word() +
                           "  .balign 4096\nbuf:\n  .dword 5, 0, 0, 0, 0, 0, 0, 0\n");
}

TEST(IssRunLoop, WholeRunMatchesSingleSteps) {
  TempDir dir;
  const std::string elf = mixed_elf(dir);
  Sim fast(elf), slow(elf);
  RunResult r = fast.hart->run(UINT64_MAX);
  EXPECT_EQ(r.reason, StopReason::Done);
  EXPECT_EQ(slow.step_to_end(), StopReason::Done);
  EXPECT_GT(fast.hart->instret(), 400u);
  expect_same_state(fast, slow);
}

TEST(IssRunLoop, TinyInstructionCacheGivesTheSameResult) {
  // 16 entries: the loop, the helper and the tail evict each other's runs.
  TempDir dir;
  const std::string elf = mixed_elf(dir);
  Sim tiny(elf, 16), big(elf);
  EXPECT_EQ(tiny.hart->run(UINT64_MAX).reason, StopReason::Done);
  EXPECT_EQ(big.hart->run(UINT64_MAX).reason, StopReason::Done);
  expect_same_state(tiny, big);
}

TEST(IssRunLoop, InstructionLimitStopsInsideRuns) {
  TempDir dir;
  const std::string elf = mixed_elf(dir);
  Sim ref(elf);
  for (uint64_t k = 1; k <= 40; ++k) {
    ref.hart->step();
    Sim s(elf);
    RunResult r = s.hart->run(k);
    ASSERT_EQ(r.reason, StopReason::InsnLimit) << k;
    ASSERT_EQ(r.instructions, k);
    ASSERT_EQ(s.hart->pc(), ref.hart->pc()) << "after " << k << " instructions";
    ASSERT_EQ(s.hart->cycles(), ref.hart->cycles()) << k;
  }
}

TEST(IssRunLoop, CycleBudgetStopsWhereSingleStepsWould) {
  TempDir dir;
  const std::string elf = mixed_elf(dir);
  Sim whole(elf);
  ASSERT_EQ(whole.hart->run(UINT64_MAX).reason, StopReason::Done);
  const uint64_t total = whole.hart->cycles();
  for (uint64_t budget : {uint64_t(1), uint64_t(2), uint64_t(5), uint64_t(13), total / 7, total / 3,
                          total / 2, total - total / 5, total - 3}) {
    Sim ref(elf);
    while (ref.hart->cycles() < budget)
      ASSERT_EQ(ref.hart->step().reason, StopReason::InsnLimit) << "budget beyond the program";
    Sim s(elf);
    RunResult r = s.hart->run(UINT64_MAX, budget);
    ASSERT_EQ(r.reason, StopReason::CycleBudget) << budget;
    EXPECT_EQ(s.hart->instret(), ref.hart->instret()) << "budget " << budget;
    EXPECT_EQ(s.hart->cycles(), ref.hart->cycles()) << "budget " << budget;
    EXPECT_EQ(s.hart->pc(), ref.hart->pc()) << "budget " << budget;
    // The rest of the program runs on from there.
    EXPECT_EQ(s.hart->run(UINT64_MAX).reason, StopReason::Done);
  }
}

TEST(IssRunLoop, TrapInsideARunRetiresOnlyTheInstructionsBeforeIt) {
  TempDir dir;
  const std::string elf = build_program(dir, "fault", R"(
  .globl _start
_start:
  addi a0, zero, 1
  addi a1, a0, 2
  mul a2, a1, a1
  ld a3, 16(zero)
  addi a4, zero, 9
  j _start
)");
  Sim s(elf);
  RunResult r = s.hart->run(UINT64_MAX);
  ASSERT_EQ(r.reason, StopReason::Trap);
  EXPECT_EQ(r.trap.cause, cause::kLoadAccessFault);
  EXPECT_EQ(r.trap.pc, s.img.entry + 12);
  EXPECT_EQ(r.instructions, 3u);
  EXPECT_EQ(r.cycles, 1u + 1u + 3u);
  EXPECT_EQ(s.hart->xreg(12), 9u);
  EXPECT_EQ(s.hart->xreg(14), 0u);  // after the fault: not executed
}

TEST(IssRunLoop, HandlerSeesExactInstretAfterAFaultInARun) {
  TempDir dir;
  const std::string elf = build_program(dir, "handler", R"(
  .globl _start
_start:
  la t0, handler
  csrw mtvec, t0
  csrr s0, minstret
  addi a0, zero, 1
  addi a1, zero, 2
  ld a3, 16(zero)
  addi a4, zero, 9
)" + done_word() + R"(
handler:
  csrr s1, minstret
  csrr s2, mepc
  addi s2, s2, 4
  csrw mepc, s2
  mret
)");
  Sim s(elf);
  RunResult r = s.hart->run(100);
  ASSERT_EQ(r.reason, StopReason::Done);
  // Between the two reads: csrr s0, 2 addi; the faulting ld does not retire.
  EXPECT_EQ(s.hart->xreg(9) - s.hart->xreg(8), 3u);
  EXPECT_EQ(s.hart->xreg(14), 9u);  // resumed after the ld
}

TEST(IssRunLoop, HpmcountersReadTheModelsCounters) {
  TempDir dir;
  const std::string elf = build_program(dir, "hpm", R"(
  .globl _start
_start:
  csrr a0, hpmcounter3
  csrr a1, mhpmcounter17
  csrr a2, hpmcounter31
)" + done_word());
  Sim s(elf);
  s.hart->set_hpm_reader([](unsigned index) { return 1000u + index; });
  ASSERT_EQ(s.hart->run(100).reason, StopReason::Done);
  EXPECT_EQ(s.hart->xreg(10), 1003u);
  EXPECT_EQ(s.hart->xreg(11), 1017u);
  EXPECT_EQ(s.hart->xreg(12), 1031u);
}

TEST(IssRunLoop, WfiStopsAfterTheInstruction) {
  TempDir dir;
  const std::string elf = build_program(
      dir, "wfi", ".globl _start\n_start:\n  addi a0, zero, 3\n  wfi\n  addi a0, zero, 4\n");
  SimOptions opt;
  opt.max_instructions = 100;
  SimResult r = run_elf_functional(read_elf(elf), opt);
  EXPECT_EQ(r.verdict, Verdict::Wfi) << r.message;
  EXPECT_EQ(r.instructions, 2u);
  EXPECT_EQ(r.final_pc, read_elf(elf).entry + 8);
}

}  // namespace
