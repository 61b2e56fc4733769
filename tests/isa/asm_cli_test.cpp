//===- asm_cli_test.cpp - `opforge asm` / `opforge disasm` exit codes, output ===//
//
// Runs the built opforge executable (or $OPFORGE_EXE); skipped when the
// executable has not been built.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>

#include "binutils_util.h"

namespace opforge::isa {
namespace {

using namespace testutil;

class AsmCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char *env = std::getenv("OPFORGE_EXE");
    exe_ = env ? env : std::string(OPFORGE_BINARY_DIR) + "/harness/opforge";
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  int run_cli(const std::string &args, std::string *out) {
    int st = 0;
    *out = run(exe_ + " " + args, &st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  std::string exe_;
};

TEST_F(AsmCli, HelpAndUsageErrors) {
  std::string out;
  EXPECT_EQ(run_cli("asm --help", &out), 0);
  EXPECT_NE(out.find("usage: opforge asm FILE.s -o OUT"), std::string::npos) << out;
  EXPECT_EQ(run_cli("disasm --help", &out), 0);
  EXPECT_NE(out.find("usage: opforge disasm FILE"), std::string::npos) << out;
  EXPECT_EQ(run_cli("asm", &out), 2) << out;
  EXPECT_EQ(run_cli("asm x.s", &out), 2) << out;
  EXPECT_NE(out.find("no output file"), std::string::npos) << out;
  EXPECT_EQ(run_cli("asm x.s -o y.o --bogus", &out), 2) << out;
  EXPECT_EQ(run_cli("disasm", &out), 2) << out;
  EXPECT_EQ(run_cli("disasm a b", &out), 2) << out;
}

TEST_F(AsmCli, AssemblerErrorsExitOneWithFileLineCol) {
  ScratchDir dir("cli_bad");
  write_text(dir / "bad.s", "  nop\n  addi a0, a0, 5000\n");
  std::string out;
  EXPECT_EQ(run_cli("asm " + (dir / "bad.s") + " -o " + (dir / "bad.o"), &out), 1);
  EXPECT_NE(out.find("bad.s:2:16: addi: immediate 5000 out of range [-2048, 2047]"),
            std::string::npos)
      << out;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.o"));
  EXPECT_EQ(run_cli("disasm " + (dir / "missing.elf"), &out), 1);
  EXPECT_NE(out.find("missing.elf: cannot open file"), std::string::npos) << out;
}

TEST_F(AsmCli, AssembleLinkDisassembleAndRun) {
  ScratchDir dir("cli_ok");
  write_text(dir / "p.s", "  .globl _start\n_start:\n  li a0, 7\n  li a7, 93\n  ecall\n");
  std::string out;
  ASSERT_EQ(
      run_cli("asm " + (dir / "p.s") + " -o " + (dir / "p.elf") + " --text-base 0x20000", &out), 0)
      << out;
  ASSERT_EQ(run_cli("asm " + (dir / "p.s") + " -o " + (dir / "p.o"), &out), 0) << out;
  ASSERT_EQ(run_cli("disasm " + (dir / "p.elf"), &out), 0) << out;
  EXPECT_NE(out.find("0000000000020000 <_start>:"), std::string::npos) << out;
  EXPECT_NE(out.find("addi\ta0,zero,7"), std::string::npos) << out;
  ASSERT_EQ(run_cli("disasm " + (dir / "p.o"), &out), 0) << out;
  EXPECT_NE(out.find("ecall"), std::string::npos) << out;
  if (have_tool("qemu-riscv64")) {
    int st = 0;
    run("qemu-riscv64 " + (dir / "p.elf"), &st);
    EXPECT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 7);
  }
}

}  // namespace
}  // namespace opforge::isa
