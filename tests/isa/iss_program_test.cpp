//===- iss_program_test.cpp - bare-metal C programs run to a tohost verdict ===//
#include <gtest/gtest.h>

#include "iss_test_util.h"
#include "opforge/isa/iss.h"

using namespace opforge::isa;
using opforge::isa::testing::baremetal_elf;

namespace {
SimResult run(const std::string &stem) {
  SimOptions opt;
  opt.max_instructions = 50'000'000;
  return run_elf_functional(read_elf(baremetal_elf(stem)), opt);
}
}  // namespace

TEST(IssBaremetal, IntegerProgramPasses) {
  SimResult r = run("int_test");
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_GT(r.instructions, 1000u);
}

TEST(IssBaremetal, FloatProgramPasses) {
  SimResult r = run("float_test");
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

TEST(IssBaremetal, DoubleProgramPasses) {
  SimResult r = run("double_test");
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

TEST(IssBaremetal, FailingCheckReportsItsCode) {
  SimResult r = run("fail_test");
  EXPECT_EQ(r.verdict, Verdict::Fail) << r.message;
  EXPECT_EQ(r.fail_code, 3u);
  EXPECT_EQ(r.tohost_value, 7u);
}

TEST(IssBaremetal, ProgramsDeterministicAcrossVlen) {
  SimOptions a, b;
  a.vlen_bits = 128;
  b.vlen_bits = 1024;
  ElfImage img = read_elf(baremetal_elf("int_test"));
  SimResult ra = run_elf_functional(img, a), rb = run_elf_functional(img, b);
  EXPECT_EQ(ra.verdict, Verdict::Pass);
  EXPECT_EQ(ra.instructions, rb.instructions);
  EXPECT_EQ(ra.final_pc, rb.final_pc);
}
