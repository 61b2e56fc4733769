//===- asm_elf_test.cpp - our objects and executables work with real tools -===//
//
// Executables from link_executable() run under qemu-riscv64 (user mode, Linux
// exit syscall) to the expected exit code; objects from write_object() are
// read by readelf, linked by GNU ld with a GNU as object, and run too.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <sys/wait.h>

#include "binutils_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"

namespace opforge::isa {
namespace {

using namespace testutil;

// Scalar, FP and RVV work; exits with a checksum (42 when all is right).
const char *const kProgram = R"(
  .globl _start
  .text
_start:
  la a0, values          # 40, 2
  ld a1, 0(a0)
  ld a2, 8(a0)
  add a3, a1, a2
  la t0, result
  sd a3, 0(t0)
  # float: 1.5 * 4.0 = 6.0 -> 6
  la t1, fvals
  flw ft0, 0(t1)
  flw ft1, 4(t1)
  fmul.s ft2, ft0, ft1
  fcvt.w.s t2, ft2, rtz
  # vector: sum of 1..8 with SEW=32 = 36
  la a4, ints
  li a5, 8
  vsetvli t3, a5, e32, m2, ta, ma
  vle32.v v2, (a4)
  vmv.s.x v4, zero
  vredsum.vs v4, v2, v4
  vmv.x.s t4, v4
  # 42 + (6 - 6) + (36 - 36) when everything is right
  addi t2, t2, -6
  addi t4, t4, -36
  ld a0, 0(t0)
  add a0, a0, t2
  add a0, a0, t4
  call finish
finish:
  li a7, 93              # exit
  ecall
  .section .rodata
  .p2align 2
fvals: .word 0x3fc00000, 0x40800000
ints: .word 1, 2, 3, 4, 5, 6, 7, 8
  .data
  .p2align 3
values: .dword 40, 2
  .bss
  .p2align 3
result: .zero 8
)";

class AsmElf : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *t : {"qemu-riscv64", "riscv64-unknown-elf-readelf", "riscv64-unknown-elf-ld",
                          "riscv64-unknown-elf-as"})
      if (!have_tool(t)) GTEST_SKIP() << t << " not installed";
  }
  static int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  const std::string qemu = "qemu-riscv64 -cpu rv64,v=true,vlen=256 ";
};

TEST_F(AsmElf, ExecutableRunsUnderQemuToTheExpectedExitCode) {
  ScratchDir dir("elf");
  LinkOptions opts;
  opts.text_base = 0x20000;
  write_program(dir / "prog", link_executable(assemble(kProgram, "prog.s"), opts));
  int st = 0;
  const std::string out = run(qemu + (dir / "prog"), &st);
  EXPECT_EQ(exit_code(st), 42) << out;
  // binutils reads it: entry point and symbols.
  const std::string hdr = run("riscv64-unknown-elf-readelf -h -s " + (dir / "prog"), &st);
  ASSERT_EQ(exit_code(st), 0) << hdr;
  EXPECT_NE(hdr.find("EXEC (Executable file)"), std::string::npos) << hdr;
  EXPECT_NE(hdr.find("RISC-V"), std::string::npos) << hdr;
  EXPECT_NE(hdr.find("Entry point address:               0x20000"), std::string::npos) << hdr;
  EXPECT_NE(hdr.find("GLOBAL DEFAULT    1 _start"), std::string::npos) << hdr;
}

TEST_F(AsmElf, DefaultTextBaseAndTohostSymbol) {
  const std::string src =
      "  .globl _start\n_start: la t0, tohost\n li t1, 1\n sd t1, 0(t0)\n j _start\n"
      "  .data\n  .p2align 3\n  .globl tohost\ntohost: .dword 0\n";
  const LinkedImage img = link(assemble(src, "t.s"));
  EXPECT_EQ(img.entry, 0x80000000u);
  const AsmSymbol *tohost = img.unit.find_symbol("tohost");
  ASSERT_NE(tohost, nullptr);
  EXPECT_GE(img.symbol_address(*tohost), 0x80000000u + 4 * 5);
  EXPECT_EQ(img.symbol_address(*tohost) % 8, 0u);
  ScratchDir dir("tohost");
  write_bytes(dir / "t.elf", link_executable(assemble(src, "t.s")));
  int st = 0;
  const std::string syms = run("riscv64-unknown-elf-readelf -s " + (dir / "t.elf"), &st);
  EXPECT_NE(syms.find("tohost"), std::string::npos) << syms;
}

TEST_F(AsmElf, ObjectHasRelocationsGnuLdResolves) {
  ScratchDir dir("obj");
  const std::string main_src = R"(
  .globl _start
_start:
  la a0, counter          # R_RISCV_PCREL_HI20 + PCREL_LO12_I
  lui a1, %hi(counter)    # R_RISCV_HI20
  addi a1, a1, %lo(counter)
  bne a0, a1, fail        # local branch, resolved here
  call add_two            # external: R_RISCV_CALL_PLT
  ld a0, 0(a1)
  j done
fail:
  li a0, 1
done:
  li a7, 93
  ecall
  .data
  .p2align 3
  .globl counter
counter: .dword 40
ptr: .dword counter       # R_RISCV_64
)";
  write_bytes(dir / "main.o", write_object(assemble(main_src, "main.s")));
  int st = 0;
  const std::string rel = run("riscv64-unknown-elf-readelf -W -r -s " + (dir / "main.o"), &st);
  ASSERT_EQ(exit_code(st), 0) << rel;
  for (const char *r : {"R_RISCV_PCREL_HI20", "R_RISCV_PCREL_LO12_I", "R_RISCV_HI20",
                        "R_RISCV_LO12_I", "R_RISCV_CALL_PLT", "R_RISCV_64", "add_two", "counter"})
    EXPECT_NE(rel.find(r), std::string::npos) << r << "\n" << rel;
  EXPECT_EQ(rel.find("R_RISCV_BRANCH"), std::string::npos) << "local branch should be resolved\n"
                                                           << rel;
  // The callee comes from GNU as; GNU ld links both.
  write_text(dir / "lib.s",
             "  .globl add_two\nadd_two:\n  la t0, counter\n  ld t1, 0(t0)\n  addi t1, t1, 2\n  sd "
             "t1, 0(t0)\n  ret\n");
  std::string log = run("riscv64-unknown-elf-as -march=" + std::string(kMarch) + " -o " +
                            (dir / "lib.o") + " " + (dir / "lib.s"),
                        &st);
  ASSERT_EQ(exit_code(st), 0) << log;
  log = run("riscv64-unknown-elf-ld -o " + (dir / "linked") + " " + (dir / "main.o") + " " +
                (dir / "lib.o"),
            &st);
  ASSERT_EQ(exit_code(st), 0) << log;
  const std::string out = run(qemu + (dir / "linked"), &st);
  EXPECT_EQ(exit_code(st), 42) << out;
}

}  // namespace
}  // namespace opforge::isa
