//===- validate_library_test.cpp - the seed kernel library against a small exported corpus ===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
namespace fs = std::filesystem;

namespace {

// The dtypes each seed kernel claims (of the small corpus's float32, bfloat16, int64, bool).
const std::map<std::string, std::vector<DType>> &seed_claims() {
  static const std::map<std::string, std::vector<DType>> claims = {
      {"aten::add.Tensor", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::mul.Tensor", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::exp", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::sigmoid", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::sum.dim_IntList", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::_softmax", {DType::Float32, DType::BFloat16}},
      {"aten::mm", {DType::Float32, DType::Int64}},
      {"aten::index_select", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::cat", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
      {"aten::where.self", {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}},
  };
  return claims;
}

std::string read_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
}

std::string describe(const OverloadResult &r) {
  std::string s =
      r.overload + " " + std::to_string(r.passed) + "/" + std::to_string(r.total) + " " + r.error;
  for (size_t i = 0; i < r.failures.size() && i < 5; ++i)
    s += "\n  " + r.failures[i].summary + ": " + r.failures[i].reason;
  return s;
}

}  // namespace

TEST(ValidateNames, WrapperAndFileNamesFollowTheOverload) {
  EXPECT_EQ(wrapper_name_for("aten::add.Tensor"), "add_Tensor");
  EXPECT_EQ(wrapper_name_for("aten::exp"), "exp");
  EXPECT_EQ(wrapper_name_for("aten::sum.dim_IntList"), "sum_dim_IntList");
  EXPECT_EQ(library_file_name_for("aten::add.Tensor"), "add.Tensor.py");
  EXPECT_EQ(library_file_name_for("aten::_softmax"), "_softmax.py");
}

TEST(ValidateLibrary, SeedKernelsPassEveryRecordedCallOfTheirDtypes) {
  auto corpus = Corpus::open(test::small_corpus());
  auto library = KernelLibrary::load(default_library_dir());
  for (const auto &f : library.files()) EXPECT_EQ(f.error, "") << f.path;
  for (const auto &[overload, dtypes] : seed_claims()) {
    ValidateOptions options;
    options.overloads = {overload};
    options.dtypes = dtypes;
    auto report = validate(corpus, library, options);
    ASSERT_EQ(report.results.size(), 1u);
    const auto &r = report.results[0];
    EXPECT_GT(r.total, 0) << overload << " has no recorded calls in the test corpus";
    EXPECT_TRUE(r.ok()) << describe(r);
    EXPECT_EQ(r.passed, r.total) << describe(r);
    for (auto d : dtypes) {
      if (corpus.overload(overload).calls_per_dtype.count(d)) {
        ASSERT_TRUE(r.per_dtype.count(d)) << overload << " " << dtype_name(d);
        EXPECT_GT(r.per_dtype.at(d).second, 0) << overload << " " << dtype_name(d);
      }
    }
  }
}

TEST(ValidateLibrary, WrongKernelIsReportedAsFailingWithTheMismatch) {
  auto corpus = Corpus::open(test::small_corpus());
  std::string dir = test::temp_dir();
  std::string text = read_text(default_library_dir() + "/add.Tensor.py");
  auto at = text.find("out = x + alpha * y");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, "out = x - alpha * y");
  write_text(dir + "/add.Tensor.py", text);
  auto library = KernelLibrary::load(dir);
  ValidateOptions options;
  options.overloads = {"aten::add.Tensor"};
  options.dtypes = {DType::Float32};
  auto report = validate(corpus, library, options);
  ASSERT_EQ(report.results.size(), 1u);
  const auto &r = report.results[0];
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(r.error, "");
  EXPECT_GT(r.total, 0);
  EXPECT_LT(r.passed, r.total);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_NE(r.failures[0].reason.find("elements differ"), std::string::npos)
      << r.failures[0].reason;
  EXPECT_NE(r.failures[0].reason.find("max abs error"), std::string::npos) << r.failures[0].reason;
  EXPECT_NE(report.table().find("aten::add.Tensor"), std::string::npos);
}

TEST(ValidateLibrary, SyntaxErrorIsReportedByFileWhileOthersValidate) {
  auto corpus = Corpus::open(test::small_corpus());
  std::string dir = test::temp_dir();
  fs::copy_file(default_library_dir() + "/add.Tensor.py", dir + "/add.Tensor.py");
  write_text(dir + "/exp.py", "import triton\n\ndef exp(self:\n    return self\n");
  auto library = KernelLibrary::load(dir);
  ValidateOptions options;
  options.overloads = {"aten::exp", "aten::add.Tensor"};
  options.dtypes = {DType::Float32};
  auto report = validate(corpus, library, options);
  ASSERT_EQ(report.results.size(), 2u);
  const auto &bad = report.results[0];
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("exp.py"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("aten::exp"), std::string::npos) << bad.error;
  EXPECT_EQ(bad.passed, 0);
  const auto &good = report.results[1];
  EXPECT_TRUE(good.ok()) << describe(good);
  EXPECT_GT(good.total, 0);
  EXPECT_FALSE(report.ok());
}

TEST(ValidateLibrary, UnknownOverloadAndMissingWrapperAreNamed) {
  auto corpus = Corpus::open(test::small_corpus());
  std::string dir = test::temp_dir();
  auto library = KernelLibrary::load(dir);
  ValidateOptions options;
  options.overloads = {"aten::no_such_op.default", "aten::mul.Tensor"};
  auto report = validate(corpus, library, options);
  ASSERT_EQ(report.results.size(), 2u);
  EXPECT_NE(report.results[0].error.find("unknown overload 'aten::no_such_op.default'"),
            std::string::npos)
      << report.results[0].error;
  EXPECT_NE(report.results[1].error.find("mul_Tensor"), std::string::npos)
      << report.results[1].error;
  EXPECT_NE(report.results[1].error.find("mul.Tensor.py"), std::string::npos)
      << report.results[1].error;
  EXPECT_GT(report.results[1].total, 0);
  EXPECT_FALSE(report.ok());
}

TEST(ValidateLibrary, MissingLibraryDirectoryIsAnError) {
  EXPECT_THROW(KernelLibrary::load("/nonexistent/opforge/library"), opforge::Error);
}

#ifdef OPFORGE_EXE
TEST(ValidateCli, PrintsTableAndExitStatusFollowsTheResult) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "opforge executable not built: " << OPFORGE_EXE;
  std::string out;
  std::string base = std::string(OPFORGE_EXE) + " validate --corpus '" + test::small_corpus() +
                     "' --dtype float32";
  int rc = test::run_command(base + " --ops aten::add.Tensor,sum.dim_IntList 2>&1", &out);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("aten::add.Tensor"), std::string::npos) << out;
  EXPECT_NE(out.find("aten::sum.dim_IntList"), std::string::npos) << out;

  std::string dir = test::temp_dir();
  write_text(dir + "/exp.py", "def exp(self:\n");
  rc = test::run_command(base + " --library '" + dir + "' --ops exp 2>&1", &out);
  EXPECT_NE(rc, 0) << out;
  EXPECT_NE(out.find("exp.py"), std::string::npos) << out;
}
#endif

// ATen 2.x's CPU add of float16 tensors with alpha rounds alpha * other to float16 before the
// add on small tensors (its scalar loop) and rounds once on large ones (its vector loop), so a
// recorded output can be further from the exact result than the library kernel, which rounds
// once. A call that misses the recorded output is judged again against ATen on float64-upcast
// inputs rounded to float16 (docs/verification.md): the kernel passes; without the oracle the
// recorded output alone decides and the call fails.
TEST(ValidateLibrary, ACallMissingATensRoundingButWithinTheFloat64ReferencePasses) {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/add16.h5";
  std::string log;
  ASSERT_EQ(test::run_exporter({"--ops", "add", "--dtypes", "float16", "--quiet", "--out", path},
                               &log),
            0)
      << log;
  auto corpus = Corpus::open(path);
  auto library = KernelLibrary::load(default_library_dir());
  ValidateOptions options;
  options.overloads = {"aten::add.Tensor"};
  ::setenv("OPFORGE_ORACLE_PLUGIN", "/nonexistent/libopforge_oracle_plugin.so", 1);
  auto without = validate(corpus, library, options);
  ::unsetenv("OPFORGE_ORACLE_PLUGIN");
  ASSERT_EQ(without.results.size(), 1u);
  EXPECT_LT(without.results[0].passed, without.results[0].total)
      << "every call matched ATen's recorded rounding; the test no longer exercises the rule";
  auto with = validate(corpus, library, options);
  ASSERT_EQ(with.results.size(), 1u);
  EXPECT_EQ(with.results[0].passed, with.results[0].total) << describe(with.results[0]);
}
