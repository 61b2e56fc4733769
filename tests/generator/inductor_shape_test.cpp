//===- inductor_shape_test.cpp - shape templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &corpus_path, const std::string &overload,
                     const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("shape", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

TEST(InductorShape, CatPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::cat", kAllSmall);
}

TEST(InductorShape, CloneAndToCopyPassEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::clone", kAllSmall);
  expect_all_pass(test::small_corpus(), "aten::_to_copy", kAllSmall);
}

TEST(InductorShape, EveryTableRowRendersParsesAndLints) {
  expect_family_renders_and_lints("shape");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorShape, CopyVariantsUnsafeSplitAndChannelShufflePassEveryRecordedCall) {
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(), "aten::diagonal_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(), "aten::unfold_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(),
                                  "aten::unsafe_split.Tensor",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(),
                                  "aten::split_with_sizes_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(), "aten::unbind_copy.int",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(), "aten::channel_shuffle",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}

TEST(InductorShape, ChunkCatPadsChunksAndConcatenatesOnEveryRecordedCall) {
  test::inductor::expect_all_pass("shape", test::inductor::rows_corpus(), "aten::_chunk_cat",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}
