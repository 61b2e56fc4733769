//===- validate_chip_test.cpp - recorded calls through the kernel library on the chip model ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
namespace fs = std::filesystem;

#ifdef OPFORGE_HAVE_CHIP

namespace {

// Every test of this binary uses the same chip (one model::Device per process).
ChipOptions tiny() {
  ChipOptions o;
  o.arch = "tiny";
  o.timing = "functional";
  return o;
}

std::string describe(const OverloadResult &r) {
  std::string s =
      r.overload + " " + std::to_string(r.passed) + "/" + std::to_string(r.total) + " " + r.error;
  for (size_t i = 0; i < r.failures.size() && i < 3; ++i)
    s += "\n  " + r.failures[i].summary + ": " + r.failures[i].reason;
  return s;
}

}  // namespace

TEST(ValidateChip, SeedKernelsPassTheirRecordedCallsOnTheTinyChip) {
  auto corpus = Corpus::open(test::small_corpus());
  auto library = KernelLibrary::load(default_library_dir());
  ValidateOptions options;
  options.executor = ExecutorKind::Chip;
  options.chip = tiny();
  options.overloads = {"aten::add.Tensor", "aten::mul.Tensor",     "aten::exp",
                       "aten::sigmoid",    "aten::sum.dim_IntList", "aten::_softmax",
                       "aten::mm",         "aten::index_select",    "aten::cat",
                       "aten::where.self", "aten::transpose.int"};
  options.dtypes = {DType::Float32};
  options.max_calls_per_overload = 3;
  auto report = validate(corpus, library, options);
  ASSERT_EQ(report.results.size(), options.overloads.size());
  for (const auto &r : report.results) {
    EXPECT_GT(r.total, 0) << r.overload;
    EXPECT_TRUE(r.ok()) << describe(r);
  }
  EXPECT_EQ(report.results.back().file, "(view runtime)");
}

TEST(ValidateChip, AWrongKernelFailsOnTheChipWithTheMismatch) {
  auto corpus = Corpus::open(test::small_corpus());
  std::string dir = test::temp_dir();
  std::ifstream in(default_library_dir() + "/add.Tensor.py");
  std::stringstream text;
  text << in.rdbuf();
  std::string src = text.str();
  auto at = src.find("out = x + alpha * y");
  ASSERT_NE(at, std::string::npos);
  src.replace(at, 19, "out = x - alpha * y");
  std::ofstream(dir + "/add.Tensor.py") << src;
  ValidateOptions options;
  options.executor = ExecutorKind::Chip;
  options.chip = tiny();
  options.overloads = {"aten::add.Tensor"};
  options.dtypes = {DType::Float32};
  options.max_calls_per_overload = 3;
  auto report = validate(corpus, KernelLibrary::load(dir), options);
  ASSERT_EQ(report.results.size(), 1u);
  const auto &r = report.results[0];
  EXPECT_LT(r.passed, r.total);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_NE(r.failures[0].reason.find("max abs error"), std::string::npos) << r.failures[0].reason;
}

TEST(ValidateChip, ASecondChipConfigurationInOneProcessIsAClearError) {
  chip_device(tiny());
  ChipOptions other = tiny();
  other.sets = {"dram.channels=2"};
  try {
    chip_device(other);
    FAIL() << "a second device configuration must be refused";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("one model::Device per process"), std::string::npos)
        << e.what();
  }
}

#endif  // OPFORGE_HAVE_CHIP

TEST(ValidateReportJson, RoundTripsEveryField) {
  ValidateReport report;
  OverloadResult r;
  r.overload = "aten::add.Tensor";
  r.file = "/lib/add.Tensor.py";
  r.passed = 3;
  r.total = 5;
  r.failures.push_back({DType::BFloat16, 7, "aten::add.Tensor(bf16[2]) -> bf16[2]", "out: differs"});
  r.per_dtype[DType::BFloat16] = {3, 5};
  report.results.push_back(r);
  OverloadResult bad;
  bad.overload = "aten::exp";
  bad.error = "exp.py:3:9: expected ')'";
  report.results.push_back(bad);
  auto back = ValidateReport::from_json(report.to_json(), "shard.json");
  ASSERT_EQ(back.results.size(), 2u);
  EXPECT_EQ(back.results[0].overload, r.overload);
  EXPECT_EQ(back.results[0].file, r.file);
  EXPECT_EQ(back.results[0].passed, 3);
  EXPECT_EQ(back.results[0].total, 5);
  ASSERT_EQ(back.results[0].failures.size(), 1u);
  EXPECT_EQ(back.results[0].failures[0].dtype, DType::BFloat16);
  EXPECT_EQ(back.results[0].failures[0].index, 7);
  EXPECT_EQ(back.results[0].failures[0].reason, "out: differs");
  EXPECT_EQ(back.results[0].per_dtype.at(DType::BFloat16), (std::pair<int64_t, int64_t>{3, 5}));
  EXPECT_EQ(back.results[1].error, bad.error);
  EXPECT_EQ(back.table(), report.table());
  try {
    ValidateReport::from_json("[{\"overload\": 1}]", "shard7.json");
    FAIL() << "malformed results must be refused";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("shard7.json"), std::string::npos) << e.what();
  }
}

#if defined(OPFORGE_EXE) && defined(OPFORGE_HAVE_CHIP)
TEST(ValidateChipCli, JobsShardOverloadsOverChildProcessesAndMergeInOrder) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "opforge executable not built: " << OPFORGE_EXE;
  std::string dir = test::temp_dir();
  for (const char *f : {"add.Tensor.py", "mul.Tensor.py"})
    fs::copy_file(default_library_dir() + "/" + f, dir + "/" + f);
  std::ofstream(dir + "/exp.py") << "def exp(self:\n";
  std::string out;
  int rc = test::run_command(std::string(OPFORGE_EXE) + " validate --corpus '" +
                                 test::small_corpus() + "' --library '" + dir +
                                 "' --executor chip --arch tiny --jobs 2 --dtype float32"
                                 " --max-calls 2 --ops mul.Tensor,exp,add.Tensor --out '" +
                                 dir + "/r.h5' 2>&1",
                             &out);
  EXPECT_EQ(rc, 1) << out;  // exp.py does not parse
  auto mul = out.find("aten::mul.Tensor "), ex = out.find("aten::exp "),
       add = out.find("aten::add.Tensor ");
  ASSERT_NE(mul, std::string::npos) << out;
  ASSERT_NE(ex, std::string::npos) << out;
  ASSERT_NE(add, std::string::npos) << out;
  EXPECT_LT(mul, ex) << "rows keep the --ops order: " << out;
  EXPECT_LT(ex, add) << out;
  EXPECT_NE(out.find("2/2"), std::string::npos) << out;
  EXPECT_NE(out.find("exp.py"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(dir + "/r.h5"));
}
#endif
