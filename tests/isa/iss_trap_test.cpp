//===- iss_trap_test.cpp - traps, handlers, CSR rules and run limits ------===//
#include <gtest/gtest.h>

#include "iss_test_util.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;
using opforge::isa::testing::build_program;
using opforge::isa::testing::TempDir;

namespace {
// `.word` directive for an instruction GNU as does not know (Xmtia), encoded from the tables.
std::string word_of(const char *mnemonic) {
  const InsnSpec *s = find_insn(mnemonic);
  EXPECT_NE(s, nullptr) << mnemonic;
  return "  .word " + std::to_string(s ? encode(*s, {}) : 0) + "\n";
}

SimResult run_asm(const std::string &body, uint64_t max_insns = 100000,
                  const std::string &isa_string = "") {
  TempDir dir;
  const std::string elf = build_program(dir, "prog", ".globl _start\n_start:\n" + body);
  SimOptions opt;
  opt.max_instructions = max_insns;
  opt.isa_string = isa_string;
  return run_elf_functional(read_elf(elf), opt);
}
}  // namespace

TEST(IssTrap, IllegalInstructionReportsPcAndEncoding) {
  SimResult r = run_asm("  nop\n  nop\n  .word 0xffffffff\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
  EXPECT_EQ(r.trap.pc, 0x80000008u);
  EXPECT_EQ(r.trap.tval, 0xffffffffu);
  EXPECT_EQ(r.trap.encoding, 0xffffffffu);
  EXPECT_NE(r.message.find("illegal instruction"), std::string::npos);
  EXPECT_NE(r.message.find("0x80000008"), std::string::npos);
  EXPECT_EQ(r.instructions, 2u);
}

TEST(IssTrap, LoadFromUnmappedAddressIsAccessFault) {
  SimResult r = run_asm("  li t0, 0x10\n  ld t1, 0(t0)\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kLoadAccessFault);
  EXPECT_EQ(r.trap.tval, 0x10u);
  EXPECT_EQ(r.trap.mnemonic, "ld");
  EXPECT_NE(r.trap.disassembly.find("ld"), std::string::npos) << r.trap.disassembly;
  EXPECT_NE(r.message.find("0(t0)"), std::string::npos) << r.message;
}

TEST(IssTrap, StoreToUnmappedAddressIsStoreAccessFault) {
  SimResult r = run_asm("  li t0, 0x20\n  sw t0, 4(t0)\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kStoreAccessFault);
  EXPECT_EQ(r.trap.tval, 0x24u);
}

TEST(IssTrap, MisalignedJumpTargetTraps) {
  // Without C a target must be 4-byte aligned (with C, 2: iss_rvc_test.cpp).
  SimResult r = run_asm("  la t0, 1f\n  addi t0, t0, 2\n  jr t0\n1: nop\n", 100000, "rv64imafdv");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kInsnMisaligned);
  EXPECT_EQ(r.trap.pc, 0x80000008u + 4);  // la is auipc+addi
}

TEST(IssTrap, MisalignedAtomicTraps) {
  SimResult r = run_asm(
      "  la t0, data\n  addi t0, t0, 4\n  amoadd.d t1, t1, (t0)\n  .balign 8\ndata: .dword 0, 0\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kStoreMisaligned);
}

TEST(IssTrap, WriteToReadOnlyCsrIsIllegal) {
  SimResult r = run_asm("  csrw mhartid, zero\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
  EXPECT_EQ(r.trap.mnemonic, "csrrw");
}

TEST(IssTrap, UnimplementedCsrIsIllegal) {
  SimResult r = run_asm("  csrr t0, 0x7c0\n");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
}

TEST(IssTrap, EcallWithHandlerJumpsToMtvecAndMretReturns) {
  // The handler records mcause/mepc, skips the ecall and returns; the
  // program then reports pass through tohost.
  const char *prog =
      "  la t0, handler\n  csrw mtvec, t0\n  ecall\n  li t3, 1\n"
      "  la t0, tohost\n  sd t3, 0(t0)\n1: j 1b\n"
      "handler:\n  csrr t1, mcause\n  li t2, 11\n  bne t1, t2, bad\n"
      "  csrr t1, mepc\n  addi t1, t1, 4\n  csrw mepc, t1\n  mret\n"
      "bad:\n  li t3, 3\n  la t0, tohost\n  sd t3, 0(t0)\n2: j 2b\n"
      "  .section .data\n  .balign 8\n  .globl tohost\ntohost: .dword 0\n";
  SimResult r = run_asm(prog);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

TEST(IssTrap, EbreakWithoutHandlerStops) {
  SimResult r = run_asm("  nop\n  ebreak\n");
  ASSERT_EQ(r.verdict, Verdict::Trap);
  EXPECT_EQ(r.trap.cause, cause::kBreakpoint);
  EXPECT_EQ(r.final_pc, 0x80000004u);
}

TEST(IssLimit, RunawayLoopHitsInstructionLimit) {
  SimResult r = run_asm("1: addi t0, t0, 1\n  j 1b\n", 1000);
  EXPECT_EQ(r.verdict, Verdict::InsnLimit);
  EXPECT_EQ(r.instructions, 1000u);
  EXPECT_NE(r.message.find("instruction limit"), std::string::npos);
}

TEST(IssLimit, XmtiaDoneStopsWithDone) {
  SimResult r = run_asm("  li a0, 5\n" + word_of("xmtia.done") + "  .word 0xffffffff\n");
  EXPECT_EQ(r.verdict, Verdict::Done) << r.message;
  EXPECT_EQ(r.instructions, 2u);
}

TEST(IssLimit, CycleBudgetStopsAndResumes) {
  TempDir dir;
  const std::string elf =
      build_program(dir, "loop",
                    ".globl _start\n_start:\n  li t1, 100\n1: addi t0, t0, 1\n  bne t0, t1, 1b\n" +
                        word_of("xmtia.done"));
  ElfImage img = read_elf(elf);
  FlatMemory mem(img.low_addr() & ~0xfffull, 1 << 20);
  FunctionalAccelerator accel(mem);
  load_elf(img, mem);
  HartConfig cfg;
  cfg.reset_pc = img.entry;
  cfg.cost.branch_cycles = 3;
  Hart hart(cfg, mem, accel);
  RunResult r1 = hart.run(UINT64_MAX, 50);
  EXPECT_EQ(r1.reason, StopReason::CycleBudget);
  EXPECT_GE(r1.cycles, 50u);
  RunResult r2 = hart.run(UINT64_MAX);
  EXPECT_EQ(r2.reason, StopReason::Done);
  EXPECT_EQ(hart.xreg(5), 100u);
  EXPECT_EQ(hart.instret(), 1u + 200u + 1u);
  // 1 li + 100 addi (1 cycle) + 100 bne (3 cycles) + done (system).
  EXPECT_EQ(hart.cycles(), 1u + 100u + 300u + cfg.cost.system_cycles);
}

TEST(IssLimit, LimitHoldsAcrossCsrInstructions) {
  // CSR reads make the run loop write its counters back; the limit must still hold.
  SimResult r = run_asm("1: csrr t0, minstret\n  addi t1, t1, 1\n  j 1b\n", 1000);
  EXPECT_EQ(r.verdict, Verdict::InsnLimit);
  EXPECT_EQ(r.instructions, 1000u);
}
