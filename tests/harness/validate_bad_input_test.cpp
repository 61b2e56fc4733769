//===- validate_bad_input_test.cpp - bad library files and corpora fail one overload, not the run ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
namespace fs = std::filesystem;

TEST(ValidateBadInput, LintFailureNamesOverloadFileAndRuleWhileOthersValidate) {
  auto corpus = Corpus::open(test::small_corpus());
  std::string dir = test::temp_dir();
  fs::copy_file(default_library_dir() + "/add.Tensor.py", dir + "/add.Tensor.py");
  // Parses, but moves data to the host: lint rule OPF103.
  std::ofstream(dir + "/mul.Tensor.py") << "import torch\n\n\ndef mul_Tensor(self, other):\n"
                                           "    return self.cpu() * other.cpu()\n";
  auto library = KernelLibrary::load(dir);
  ValidateOptions options;
  options.overloads = {"aten::mul.Tensor", "aten::add.Tensor"};
  options.dtypes = {DType::Float32};
  options.max_calls_per_overload = 3;
  auto report = validate(corpus, library, options);
  ASSERT_EQ(report.results.size(), 2u);
  const auto &bad = report.results[0];
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("aten::mul.Tensor"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("mul.Tensor.py"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("OPF103"), std::string::npos) << bad.error;
  EXPECT_GT(bad.total, 0);
  EXPECT_EQ(bad.passed, 0);
  EXPECT_TRUE(report.results[1].ok()) << report.results[1].first_failure();
  EXPECT_NE(report.table().find("library: aten::mul.Tensor"), std::string::npos) << report.table();
}

TEST(ValidateBadInput, CorruptCorpusDataFailsOverloadsWithItsPathAndNeverThrows) {
  // HDF5 refuses truncated files at open (the corpus reader's tests cover
  // that); overwriting a tenth of the call data keeps the index readable.
  std::string path = test::temp_dir() + "/corrupt.h5";
  fs::copy_file(test::small_corpus(), path);
  const auto size = fs::file_size(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size * 30 / 100));
    std::string junk(size / 10, '\xa5');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  std::optional<Corpus> corpus;
  try {
    corpus.emplace(Corpus::open(path));
  } catch (const Error &e) {
    // The index was hit after all: opening names the file.
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    return;
  }
  auto library = KernelLibrary::load(default_library_dir());
  ValidateOptions options;
  for (const auto &f : library.files()) options.overloads.push_back(f.overload);
  options.max_calls_per_overload = 4;
  ValidateReport report;
  ASSERT_NO_THROW(report = validate(*corpus, library, options));
  ASSERT_EQ(report.results.size(), options.overloads.size());
  int unreadable = 0;
  for (const auto &r : report.results)
    if (!r.error.empty()) {
      ++unreadable;
      EXPECT_NE(r.error.find(r.overload), std::string::npos) << r.error;
      EXPECT_NE(r.error.find(path), std::string::npos) << r.error;
      EXPECT_GT(r.total, 0) << "the selected calls still count as failed: " << r.error;
    }
  EXPECT_GT(unreadable, 0) << "a tenth of the data is overwritten: some calls cannot be read";
  EXPECT_FALSE(report.ok());
}

#ifdef OPFORGE_EXE
TEST(ValidateBadInput, CliNamesAnUnreadableCorpusAndUnknownOverload) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "opforge executable not built";
  std::string garbage = test::temp_dir() + "/garbage.h5";
  std::ofstream(garbage) << "not hdf5\n";
  std::string out;
  int rc = test::run_command(std::string(OPFORGE_EXE) + " validate --corpus '" + garbage +
                                 "' --ops add.Tensor",
                             &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find(garbage), std::string::npos) << out;
  rc = test::run_command(std::string(OPFORGE_EXE) + " validate --corpus '" + test::small_corpus() +
                             "' --ops no_such_op.Tensor,add.Tensor --dtype float32 --max-calls 2",
                         &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("unknown overload 'aten::no_such_op.Tensor'"), std::string::npos) << out;
  EXPECT_NE(out.find("aten::add.Tensor"), std::string::npos) << out;
}
#endif
