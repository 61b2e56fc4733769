//===- riscvp_suite_test.cpp - p-environment RISC-V unit tests run to a tohost verdict ===//
//
// Every assembly file under tests/isa/riscv_p/rv64*/ is built (by CMake,
// with riscv64-unknown-elf-gcc) into <suite>-p-<name>.elf and must end with
// PASS on the ISS; the selftest/ programs must end with their known fail
// code, which proves a failing case is reported, not lost.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "opforge/isa/iss.h"

using namespace opforge::isa;
namespace fs = std::filesystem;

namespace {

struct PTest {
  std::string suite, name;
  std::string elf() const {
    return std::string(OPFORGE_BINARY_DIR) + "/tests/isa/riscv_p/" + suite + "-p-" + name + ".elf";
  }
};

void PrintTo(const PTest &t, std::ostream *os) { *os << t.suite << "-p-" << t.name; }

const std::string kSourceDir = std::string(OPFORGE_SOURCE_DIR) + "/tests/isa/riscv_p";

std::vector<PTest> sources(bool selftest) {
  std::vector<PTest> out;
  std::error_code ec;
  for (const auto &dir : fs::directory_iterator(kSourceDir, ec)) {
    const std::string suite = dir.path().filename().string();
    const bool is_self = suite == "selftest";
    if (!dir.is_directory() || (suite.rfind("rv64", 0) != 0 && !is_self) || is_self != selftest)
      continue;
    for (const auto &f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".S") out.push_back({suite, f.path().stem().string()});
  }
  std::sort(out.begin(), out.end(),
            [](const PTest &a, const PTest &b) { return a.suite + a.name < b.suite + b.name; });
  return out;
}

SimResult run(const PTest &t) {
  SimOptions opt;
  opt.max_instructions = 2'000'000;
  // The hart has the ISA the program was built for (riscv_p/CMakeLists.txt):
  // C only for rv64uc, so rv64mi's misaligned-target traps stay traps.
  opt.isa_string = t.suite == "rv64uc" ? "rv64imafdc_zicsr_zifencei" : "rv64imafd_zicsr_zifencei";
  return run_elf_functional(read_elf(t.elf()), opt);
}

class RiscvPSuite : public ::testing::TestWithParam<PTest> {};

TEST_P(RiscvPSuite, RunsToPassVerdict) {
  const PTest &t = GetParam();
  ASSERT_TRUE(fs::exists(t.elf())) << t.elf() << " was not built";
  const SimResult r = run(t);
  EXPECT_EQ(r.verdict, Verdict::Pass) << t.suite << "-p-" << t.name << ": " << r.message;
  EXPECT_GT(r.instructions, 0u);
}

INSTANTIATE_TEST_SUITE_P(Suites, RiscvPSuite, ::testing::ValuesIn(sources(false)),
                         [](const ::testing::TestParamInfo<PTest> &info) {
                           return info.param.suite + "_p_" + info.param.name;
                         });

TEST(RiscvPEnvironment, CoversEveryExtensionSuite) {
  std::vector<std::string> suites;
  for (const PTest &t : sources(false)) suites.push_back(t.suite);
  for (const char *s : {"rv64ui", "rv64um", "rv64ua", "rv64uf", "rv64ud", "rv64uc", "rv64mi"})
    EXPECT_NE(std::find(suites.begin(), suites.end(), s), suites.end()) << "no tests for " << s;
}

TEST(RiscvPEnvironment, FailingCaseReportsItsNumber) {
  const SimResult r = run({"selftest", "fail3"});
  EXPECT_EQ(r.verdict, Verdict::Fail) << r.message;
  EXPECT_EQ(r.fail_code, 3u);
  EXPECT_EQ(r.tohost_value, 7u);
  EXPECT_NE(r.message.find("test 3 failed"), std::string::npos) << r.message;
}

TEST(RiscvPEnvironment, UnexpectedTrapFailsWithCode1337) {
  const SimResult r = run({"selftest", "stray_trap"});
  EXPECT_EQ(r.verdict, Verdict::Fail) << r.message;
  EXPECT_EQ(r.fail_code, 1337u);
}

TEST(RiscvPEnvironment, EverySelftestHasAnExpectation) {
  std::vector<std::string> names;
  for (const PTest &t : sources(true)) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fail3", "stray_trap"}));
}

}  // namespace
