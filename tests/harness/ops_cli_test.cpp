//===- ops_cli_test.cpp - `opforge ops list|show` on a real corpus ---------===//
#include <gtest/gtest.h>

#include "corpus_fixture.h"

#include <filesystem>

#ifdef OPFORGE_EXE
namespace {
int ops(const std::string &args, std::string *out) {
  return opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' ops " + args, out);
}

class OpsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(OPFORGE_EXE))
      GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
  }
};
}  // namespace

TEST_F(OpsCli, ListPrintsOverloadsWithCategoryDtypesAndCalls) {
  std::string out;
  ASSERT_EQ(ops("list --corpus '" + opforge::test::small_corpus() + "'", &out), 0) << out;
  EXPECT_NE(out.find("aten::add.Tensor"), std::string::npos) << out;
  EXPECT_NE(out.find("pointwise"), std::string::npos);
  EXPECT_NE(out.find("float32,bfloat16,int64,bool"), std::string::npos) << out;
  ASSERT_EQ(ops("list --category reduction --dtype int64 --corpus '" +
                    opforge::test::small_corpus() + "'",
                &out),
            0);
  EXPECT_NE(out.find("aten::sum"), std::string::npos) << out;
  EXPECT_EQ(out.find("aten::add.Tensor"), std::string::npos) << out;
}

TEST_F(OpsCli, ShowPrintsSchemaDocstringAndCalls) {
  std::string out;
  ASSERT_EQ(ops("show aten::add.Tensor --corpus '" + opforge::test::small_corpus() + "'", &out), 0)
      << out;
  EXPECT_NE(out.find("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"),
            std::string::npos);
  EXPECT_NE(out.find("docstring:"), std::string::npos);
  EXPECT_NE(out.find("Adds :attr:`other`"), std::string::npos) << out;
  EXPECT_NE(out.find("aten::add.Tensor(f32["), std::string::npos) << out;
}

TEST_F(OpsCli, UnknownOverloadAndBadCorpusFailWithClearErrors) {
  std::string out;
  EXPECT_EQ(ops("show aten::nope.Tensor --corpus '" + opforge::test::small_corpus() + "'", &out),
            1);
  EXPECT_NE(out.find("unknown overload 'aten::nope.Tensor'"), std::string::npos) << out;
  EXPECT_EQ(ops("list --corpus /nonexistent.h5", &out), 1);
  EXPECT_NE(out.find("/nonexistent.h5"), std::string::npos) << out;
  EXPECT_EQ(ops("list --category bogus --corpus '" + opforge::test::small_corpus() + "'", &out), 2);
  EXPECT_EQ(ops("frobnicate", &out), 2);
}

#ifdef OPFORGE_EXE_HAS_ORACLE
TEST_F(OpsCli, NegativeMaxCallsIsAUsageError) {
  std::string out;
  EXPECT_EQ(ops("check aten::add.Tensor --max-calls -1 --corpus '" + opforge::test::small_corpus() +
                    "' 2>&1",
                &out),
            2);
  EXPECT_NE(out.find("--max-calls must not be negative"), std::string::npos) << out;
}
#endif

#ifdef OPFORGE_EXE_HAS_ORACLE
TEST_F(OpsCli, CheckReplaysRecordedCallsThroughTheOracle) {
  std::string out;
  ASSERT_EQ(
      ops("check aten::add.Tensor --max-calls 3 --corpus '" + opforge::test::small_corpus() + "'",
          &out),
      0)
      << out;
  // Three calls in each of the four dtypes.
  EXPECT_NE(out.find("checked 12 calls of 1 overloads: 12 reproduced, 0 mismatched"),
            std::string::npos)
      << out;
}

// stft's samples call aten::view_as_real on complex intermediates; opforge holds no complex
// dtype, so those calls are counted apart and do not fail the check (every other call must
// be reproduced), and ATen's own warnings do not reach the terminal.
TEST_F(OpsCli, CallsWithComplexTensorsAreSkippedAndNamedNotFailures) {
  const std::string dir = opforge::test::temp_dir();
  const std::string corpus = dir + "/stft.h5";
  std::string log;
  ASSERT_EQ(opforge::test::run_exporter({"--ops", "stft,var_mean", "--dtypes", "float32",
                                         "--max-samples", "4", "--quiet", "--out", corpus},
                                        &log),
            0)
      << log;
  std::string out;
  EXPECT_EQ(ops("check --corpus '" + corpus + "' 2>&1", &out), 0) << out;
  EXPECT_NE(out.find(" 0 mismatched, 0 not replayable"), std::string::npos) << out;
  EXPECT_NE(out.find("skipped (complex tensors"), std::string::npos) << out;
  EXPECT_EQ(out.find("skipped (complex tensors: 0"), std::string::npos) << out;
  EXPECT_EQ(out.find("Warning:"), std::string::npos) << out;
}
#endif
#endif
