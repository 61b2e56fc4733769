// scenario_inductor_kernels_tests.cpp - kernel sets rendered on demand from the inductor lowering
// table (a workload's inductor_kernels): what the provider renders, keyed so stale renders are
// never used, and the errors of a bad manifest.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "opforge/generator/inductor.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/inductor_kernels.h"
#include "opforge/harness/scenario.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kManifest = std::string(OPFORGE_SOURCE_DIR) + "/scenarios/traces/kernels.json";

// Every test renders into its own empty cache ($OPFORGE_CACHE_DIR), removed afterwards.
class InductorKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("opforge-inductor-kernels-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (const char *old = std::getenv("OPFORGE_CACHE_DIR")) old_cache_ = old;
    ::setenv("OPFORGE_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    if (old_cache_)
      ::setenv("OPFORGE_CACHE_DIR", old_cache_->c_str(), 1);
    else
      ::unsetenv("OPFORGE_CACHE_DIR");
    fs::remove_all(dir_);
  }
  static std::string slurp(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // The .py files of a directory, by name.
  static std::set<std::string> py_files(const fs::path &d) {
    std::set<std::string> out;
    for (const auto &e : fs::directory_iterator(d))
      if (e.path().extension() == ".py") out.insert(e.path().filename().string());
    return out;
  }
  std::string error_of(const json &manifest) {
    std::ofstream(dir_ / "m.json") << manifest.dump();
    try {
      harness::rendered_inductor_kernel_dir((dir_ / "m.json").string());
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
  std::optional<std::string> old_cache_;
};

// The kernels the traces took from the 19 files once committed under scenarios/traces/kernels.
const std::set<std::string> kTraceOverloads = {"aten::_embedding_bag",
                                               "aten::_unsafe_view",
                                               "aten::addmm",
                                               "aten::arange",
                                               "aten::bitwise_not",
                                               "aten::bmm",
                                               "aten::clone",
                                               "aten::embedding",
                                               "aten::gelu",
                                               "aten::index.Tensor",
                                               "aten::masked_fill.Scalar",
                                               "aten::native_layer_norm",
                                               "aten::ones",
                                               "aten::relu",
                                               "aten::split.Tensor",
                                               "aten::stack",
                                               "aten::tril",
                                               "aten::tril_indices",
                                               "aten::unbind.int"};

TEST_F(InductorKernels, TheTraceSetRendersEachOfItsNineteenOverloadsExactlyAsTheProviderDoes) {
  auto set = harness::read_inductor_kernel_set(kManifest);
  std::set<std::string> listed;
  for (const auto &k : set.kernels) listed.insert(k.overload);
  EXPECT_EQ(listed, kTraceOverloads);

  fs::path rendered = harness::rendered_inductor_kernel_dir(kManifest);
  EXPECT_EQ(rendered.parent_path(), dir_ / "cache" / "inductor-kernels");
  EXPECT_EQ(rendered.filename().string().rfind("kernels-", 0), 0u) << rendered;
  EXPECT_EQ(py_files(rendered).size(), set.kernels.size());

  auto table = generator::LoweringTable::load(generator::LoweringTable::default_dir());
  auto library = harness::KernelLibrary::load(rendered.string());
  for (const auto &k : set.kernels) {
    SCOPED_TRACE(k.overload);
    auto r = table.render(k.overload, k.schema);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.source.rfind("\"\"\"", 0), 0u) << "the template does not open with its docstring";
    const std::string text = slurp(rendered / harness::library_file_name_for(k.overload));
    // A comment header (every line '#'), then the provider's rendering, byte for byte.
    size_t body = text.find("\n\"\"\"");
    ASSERT_NE(body, std::string::npos);
    std::istringstream header(text.substr(0, body + 1));
    for (std::string line; std::getline(header, line);) EXPECT_EQ(line.rfind("#", 0), 0u) << line;
    EXPECT_EQ(text.substr(body + 1), r.source);
    EXPECT_NE(text.find("# overload: " + k.overload + ", template: generator/inductor/templates/" +
                        r.family + "/"),
              std::string::npos);
    if (!k.note.empty()) {
      EXPECT_NE(text.find("# note: "), std::string::npos);
    }
    // It loads and lints as a library file and serves its overload.
    const auto *file = library.find(k.overload);
    ASSERT_NE(file, nullptr);
    EXPECT_EQ(file->error, "");
    EXPECT_NE(file->wrapper_for(k.overload), "");
  }
}

// The manifest carries the schemas so that rendering needs no corpus; they must be the ones
// the corpus records (the renders' docstrings and wrapper signatures come from them).
TEST_F(InductorKernels, TheTraceSetsSchemasAreTheCorpusSchemas) {
  const std::string path = harness::Corpus::default_path();
  if (!fs::exists(path)) GTEST_SKIP() << "no corpus at " << path << " (make corpus)";
  auto corpus = harness::Corpus::open(path);
  auto set = harness::read_inductor_kernel_set(kManifest);
  int compared = 0;
  for (const auto &k : set.kernels) {
    if (corpus.has_overload(k.overload)) {
      EXPECT_EQ(k.schema, corpus.overload(k.overload).schema) << k.overload;
      ++compared;
    } else if (k.overload == "aten::_embedding_bag" &&
               corpus.has_overload("aten::_embedding_bag_forward_only")) {
      // Not recorded itself: the same declaration as the forward-only overload.
      std::string fwd = corpus.overload("aten::_embedding_bag_forward_only").schema;
      fwd.replace(0, std::string("aten::_embedding_bag_forward_only").size(),
                  "aten::_embedding_bag");
      EXPECT_EQ(k.schema, fwd);
      ++compared;
    }
  }
  EXPECT_GE(compared, 18) << "the corpus records too few of the set's overloads";
}

TEST_F(InductorKernels, AnEditedOrExtraFileInTheCacheIsReplacedNotUsed) {
  fs::path first = harness::rendered_inductor_kernel_dir(kManifest);
  const std::string addmm = slurp(first / "addmm.py");
  std::ofstream(first / "addmm.py", std::ios::app) << "# edited\n";
  EXPECT_EQ(harness::rendered_inductor_kernel_dir(kManifest), first.string());
  EXPECT_EQ(slurp(first / "addmm.py"), addmm);

  std::ofstream(first / "exp.py") << "def exp(self):\n    return self\n";
  EXPECT_EQ(harness::rendered_inductor_kernel_dir(kManifest), first.string());
  EXPECT_FALSE(fs::exists(first / "exp.py"));

  fs::remove(first / "relu.py");
  EXPECT_EQ(harness::rendered_inductor_kernel_dir(kManifest), first.string());
  EXPECT_TRUE(fs::exists(first / "relu.py"));
  // No temporary or stale directories are left behind.
  size_t entries = 0;
  for (const auto &e : fs::directory_iterator(first.parent_path())) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST_F(InductorKernels, AChangedTemplateOrManifestRendersIntoANewDirectory) {
  fs::path table = dir_ / "inductor";
  fs::copy(generator::LoweringTable::default_dir(), table, fs::copy_options::recursive);
  fs::path before = harness::rendered_inductor_kernel_dir(kManifest, table.string());
  EXPECT_EQ(before.string(), harness::rendered_inductor_kernel_dir(kManifest));

  auto relu = generator::LoweringTable::load(table.string())
                  .render("aten::relu", "aten::relu(Tensor self) -> Tensor");
  ASSERT_EQ(relu.error, "");
  std::ofstream(relu.template_path, std::ios::app) << "# a later template edit\n";
  fs::path after = harness::rendered_inductor_kernel_dir(kManifest, table.string());
  EXPECT_NE(after, before);
  EXPECT_NE(slurp(after / "relu.py").find("# a later template edit\n"), std::string::npos);
  EXPECT_EQ(slurp(before / "relu.py").find("# a later template edit"), std::string::npos);

  json m = json::parse(slurp(kManifest));
  m["kernels"][0]["note"] = "another note";
  std::ofstream(dir_ / "kernels.json") << m.dump();
  fs::path noted = harness::rendered_inductor_kernel_dir((dir_ / "kernels.json").string());
  EXPECT_NE(noted, before);
  EXPECT_EQ(noted.filename().string().rfind("kernels-", 0), 0u);
}

TEST_F(InductorKernels, BadManifestsAreNamedWithTheirJsonPath) {
  const json ok = {{"overload", "aten::relu"}, {"schema", "aten::relu(Tensor self) -> Tensor"}};
  auto kernels = [](std::vector<json> ks) { return json{{"kernels", json(std::move(ks))}}; };
  EXPECT_NE(error_of(kernels({})).find("/kernels"), std::string::npos);
  json extra = kernels({ok});
  extra["kernel"] = 1;
  EXPECT_NE(error_of(extra).find("unknown field 'kernel'"), std::string::npos);
  std::string e = error_of(kernels({ok, json{{"overload", "aten::exp"}}}));
  EXPECT_NE(e.find("/kernels/1/schema"), std::string::npos) << e;
  e = error_of(kernels({ok, ok}));
  EXPECT_NE(e.find("/kernels/1/overload"), std::string::npos) << e;
  EXPECT_NE(e.find("listed twice"), std::string::npos) << e;
  e = error_of(kernels({json{{"overload", "relu"}, {"schema", "relu(Tensor self) -> Tensor"}}}));
  EXPECT_NE(e.find("/kernels/0/overload"), std::string::npos) << e;
  e = error_of(kernels(
      {ok, json{{"overload", "aten::no_such_op"}, {"schema", "aten::no_such_op() -> ()"}}}));
  EXPECT_NE(e.find("m.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/kernels/1"), std::string::npos) << e;
  EXPECT_NE(e.find("aten::no_such_op does not render"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(dir_ / "cache" / "inductor-kernels") &&
               !fs::is_empty(dir_ / "cache" / "inductor-kernels"))
      << "a manifest that does not render leaves nothing in the cache";
}

TEST_F(InductorKernels, AWorkloadsRenderedSetIsSearchedAfterItsExtraLibraries) {
  fs::create_directories(dir_ / "lib");
  std::ofstream(dir_ / "t.json")
      << R"({"model": "m", "calls": [{"op": "aten::relu", "args": [{"shape": [4], "dtype": "float32"}]}]})";
  json doc = {{"name", "t"},
              {"workloads", json::array({{{"kind", "trace"},
                                          {"path", "t.json"},
                                          {"extra_libraries", json::array({"lib"})},
                                          {"inductor_kernels", kManifest}}})}};
  auto s = harness::parse_scenario(doc, (dir_ / "s.json").string(), dir_.string());
  const auto &libs = s.workloads.at(0).extra_libraries;
  ASSERT_EQ(libs.size(), 2u);
  EXPECT_EQ(fs::path(libs[0]), dir_ / "lib");
  EXPECT_EQ(fs::path(libs[1]).parent_path(), dir_ / "cache" / "inductor-kernels");
  EXPECT_EQ(py_files(libs[1]).size(), kTraceOverloads.size());

  doc["workloads"][0]["inductor_kernels"] = "none.json";
  try {
    harness::parse_scenario(doc, (dir_ / "s.json").string(), dir_.string());
    FAIL() << "a missing manifest parsed";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("/workloads/0/inductor_kernels"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
  }
}

}  // namespace
