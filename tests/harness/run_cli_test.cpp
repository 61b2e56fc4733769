//===- run_cli_test.cpp - `opforge run` on the chip, `--check` against ATen, compile dumps ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

int run_opforge(const std::string &args, std::string *out) {
  return opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' " + args, out);
}

std::string library(const std::string &file) {
  return std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten/" + file;
}

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
    std::string help;
    if (run_opforge("run --help", &help) != 0) GTEST_SKIP() << "this opforge has no run command";
  }
};

// add.Tensor.py with its kernel computing x - alpha * y.
std::string wrong_add() {
  std::ifstream in(library("add.Tensor.py"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text.replace(text.find("out = x + alpha * y"), 19, "out = x - alpha * y");
  std::string path = opforge::test::temp_dir() + "/add.Tensor.py";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_F(RunCli, RunsAWrapperOnTheChipAndPrintsOutputsCyclesAndCounters) {
  std::string out;
  int rc =
      run_opforge("run '" + library("add.Tensor.py") +
                      "' --call 'add_Tensor(randn(64, 32).t(), randn(64), alpha=2)' --arch tiny "
                      "--timing lt --seed 3",
                  &out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("arg #0: f32[32, 64]"), std::string::npos) << out;
  EXPECT_NE(out.find("out: f32[32, 64]"), std::string::npos) << out;
  EXPECT_NE(out.find("launches 1"), std::string::npos) << out;
  EXPECT_NE(out.find("cycles "), std::string::npos) << out;
  EXPECT_EQ(out.find("cycles 0\n"), std::string::npos) << "lt timing counts cycles: " << out;
  EXPECT_NE(out.find("top counters:"), std::string::npos) << out;
  EXPECT_NE(out.find("pe[*]."), std::string::npos) << out;
}

TEST_F(RunCli, BadCallExpressionNamesTheColumn) {
  std::string out;
  int rc = run_opforge(
      "run '" + library("add.Tensor.py") + "' --call 'add_Tensor(randn(4), randn(4)' --arch tiny",
      &out);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("--call:1:30"), std::string::npos) << out;
  rc = run_opforge("run '" + library("add.Tensor.py") + "' --call 'no_such(randn(4))' --arch tiny",
                   &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("no wrapper 'no_such'"), std::string::npos) << out;
  EXPECT_NE(out.find("add_Tensor"), std::string::npos) << "lists the wrappers there are: " << out;
}

TEST_F(RunCli, AKernelReadingOutOfBoundsTrapsWithKernelProgramPcAndSource) {
  std::string path = opforge::test::temp_dir() + "/oob.py";
  const std::string src = R"PY(import torch
import triton
import triton.language as tl


@triton.jit
def oob_kernel(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * stride + offs)
    tl.store(out_ptr + offs, x)


def read_far(x):
    out = torch.empty((64, ), dtype=x.dtype, device=x.device)
    # program 1 reads 2 GiB past x: beyond the tiny chip's DRAM
    oob_kernel[(2, )](x, out, 1 << 29, BLOCK=64)
    return out
)PY";
  std::ofstream(path) << src;
  std::string out;
  int rc = run_opforge("run '" + path + "' --call 'read_far(randn(64))' --arch tiny", &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("kernel oob_kernel program (1, 0, 0)"), std::string::npos) << out;
  EXPECT_NE(out.find("pc=0x"), std::string::npos) << out;
  // The line of the faulting load (the binary's line table), not the kernel's def.
  const size_t at = src.find("x = tl.load(");
  ASSERT_NE(at, std::string::npos);
  const auto line = 1 + std::count(src.begin(), src.begin() + static_cast<long>(at), '\n');
  EXPECT_NE(out.find(path + ":" + std::to_string(line) + ": pc=0x"), std::string::npos)
      << "the faulting load's source line " << line << ": " << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(program \(1, 0, 0\) [^(]*\([a-z][a-z0-9.]*\s)")))
      << "the disassembled instruction: " << out;
}

#ifdef OPFORGE_EXE_HAS_ORACLE
TEST_F(RunCli, CheckAgreesWithATenForTheLibraryKernel) {
  std::string out;
  int rc =
      run_opforge("run '" + library("add.Tensor.py") +
                      "' --call 'add_Tensor(randn(64, 32).t(), randn(64), alpha=2)' --arch tiny "
                      "--check aten::add.Tensor",
                  &out);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("check aten::add.Tensor: ok"), std::string::npos) << out;
}

TEST_F(RunCli, CheckOfAWrongKernelExitsOneWithTheMismatch) {
  std::string out;
  int rc = run_opforge("run '" + wrong_add() +
                           "' --call 'add_Tensor(randn(100), randn(100), alpha=2)' --arch tiny "
                           "--check add.Tensor",
                       &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("MISMATCH"), std::string::npos) << out;
  EXPECT_NE(out.find("max abs error"), std::string::npos) << out;
}

TEST_F(RunCli, MissingOraclePluginIsAClearErrorOnlyWhereTheOracleIsNeeded) {
  std::string out;
  int rc = opforge::test::run_command(
      std::string("OPFORGE_ORACLE_PLUGIN=/nonexistent/liboracle.so '") + OPFORGE_EXE + "' run '" +
          library("add.Tensor.py") +
          "' --call 'add_Tensor(randn(8), randn(8))' --arch tiny --check add.Tensor",
      &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("/nonexistent/liboracle.so"), std::string::npos) << out;
  EXPECT_NE(out.find("oracle plugin"), std::string::npos) << out;
  EXPECT_NE(out.find("'bash scripts/install-deps.sh'"), std::string::npos)
      << "names the command that installs torch: " << out;
  const size_t error_at = out.find("error:");
  ASSERT_NE(error_at, std::string::npos) << out;
  EXPECT_EQ(out.find('\n', error_at), out.size() - 1) << "the error is one line: " << out;
  // Without --check the plugin is never needed.
  rc = opforge::test::run_command(std::string("OPFORGE_ORACLE_PLUGIN=/nonexistent/liboracle.so '") +
                                      OPFORGE_EXE + "' run '" + library("add.Tensor.py") +
                                      "' --call 'add_Tensor(randn(8), randn(8))' --arch tiny",
                                  &out);
  EXPECT_EQ(rc, 0) << out;
}
#endif

TEST(OpforgeStartup, TheExecutableDoesNotLinkLibtorch) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first";
  std::string out;
  ASSERT_EQ(opforge::test::run_command(std::string("ldd '") + OPFORGE_EXE + "'", &out), 0) << out;
  EXPECT_EQ(out.find("libtorch"), std::string::npos) << out;
  EXPECT_EQ(out.find("libc10"), std::string::npos) << out;
  EXPECT_NE(out.find("libc.so"), std::string::npos) << "ldd listed the libraries: " << out;
}

TEST(CompileDump, LoweredLlirAndAsmStagesPrint) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first";
  const std::string base = "compile '" + library("add.Tensor.py") +
                           "' --kernel add_kernel --signature "
                           "'x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n_elements=i32,alpha=fp32' "
                           "--constexpr UPCAST=0 --constexpr BLOCK_SIZE=1024 --dump ";
  std::string out;
  ASSERT_EQ(run_opforge(base + "lowered", &out), 0) << out;
  EXPECT_NE(out.find("add_kernel"), std::string::npos) << out;
  ASSERT_EQ(run_opforge(base + "llir", &out), 0) << out;
  EXPECT_NE(out.find("define"), std::string::npos) << out;
  EXPECT_NE(out.find("_start"), std::string::npos) << out;
  ASSERT_EQ(run_opforge(base + "asm", &out), 0) << out;
  EXPECT_NE(out.find("_start:"), std::string::npos) << out;
  EXPECT_NE(out.find("vsetvli"), std::string::npos) << "RVV code: " << out;
}
#endif
