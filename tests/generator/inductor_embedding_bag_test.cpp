//===- inductor_embedding_bag_test.cpp - embedding_bag template on recorded calls -===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "inductor_family_util.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {

const char *kEmbeddingBagSchema =
    "aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool "
    "scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
    "bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)";

// The shared small corpus has no embedding_bag: export nn.functional.embedding_bag once with the
// real exporter (sum/mean/max, padding_idx, per_sample_weights, include_last_offset samples).
const std::string &embedding_bag_corpus() {
  static const std::string path = test::exported_corpus(
      "embedding_bag", {"--ops", "nn.functional.embedding_bag", "--dtypes", "float32,float16"});
  return path;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST(InductorEmbeddingBag, ForwardOnlyPassesEveryRecordedCallWithAllFourOutputs) {
  test::inductor::expect_all_pass("indexing", embedding_bag_corpus(),
                                  "aten::_embedding_bag_forward_only",
                                  {DType::Float32, DType::Float16});
}

TEST(InductorEmbeddingBag, EmbeddingBagRendersTheSameForwardUnderItsOwnWrapper) {
  auto table = generator::LoweringTable::load(generator::LoweringTable::default_dir());
  auto corpus = harness::Corpus::open(embedding_bag_corpus());
  auto forward_only = table.render("aten::_embedding_bag_forward_only",
                                   corpus.overload("aten::_embedding_bag_forward_only").schema);
  ASSERT_EQ(forward_only.error, "");
  auto bag = table.render("aten::_embedding_bag", kEmbeddingBagSchema);
  ASSERT_EQ(bag.error, "");
  EXPECT_EQ(bag.family, "indexing");
  // Only the schema line and the wrapper's name differ; the wrapper must not shadow the helper.
  EXPECT_EQ(bag.source,
            replace_all(forward_only.source, "_embedding_bag_forward_only(", "_embedding_bag("));
  EXPECT_NE(bag.source.find("def _embedding_bag(weight, indices, offsets,"), std::string::npos);
  EXPECT_NE(bag.source.find("def _embedding_bag_forward(weight"), std::string::npos);

  const std::string dir = test::temp_dir();
  std::ofstream(fs::path(dir) / harness::library_file_name_for("aten::_embedding_bag"))
      << bag.source;
  auto library = harness::KernelLibrary::load(dir);
  ASSERT_EQ(library.files().size(), 1u);
  EXPECT_EQ(library.files()[0].error, "");
  EXPECT_EQ(library.files()[0].wrapper_for("aten::_embedding_bag"), "_embedding_bag");
}

// The dlrm trace's kernel is rendered from the scenario kernel set (scenarios/traces/kernels.json,
// tests/harness/scenario_inductor_kernels_tests.cpp) with the schema used above, so the scenario
// runs what the corpus verified.
TEST(InductorEmbeddingBag, TheTraceKernelSetRendersItWithThisSchema) {
  std::ifstream in(OPFORGE_SOURCE_DIR "/scenarios/traces/kernels.json");
  ASSERT_TRUE(in) << "scenarios/traces/kernels.json missing";
  auto manifest = nlohmann::json::parse(in);
  int found = 0;
  for (const auto &k : manifest.at("kernels"))
    if (k.at("overload") == "aten::_embedding_bag") {
      EXPECT_EQ(k.at("schema").get<std::string>(), kEmbeddingBagSchema);
      ++found;
    }
  EXPECT_EQ(found, 1);
}
