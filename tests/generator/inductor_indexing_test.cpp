//===- inductor_indexing_test.cpp - indexing templates rendered and validated on recorded calls
//===//
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
  test::inductor::expect_all_pass("indexing", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

TEST(InductorIndexing, GatherPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::gather", kAllSmall);
}

TEST(InductorIndexing, IndexSelectPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::index_select", kAllSmall);
}

TEST(InductorIndexing, EveryTableRowRendersParsesAndLints) {
  expect_family_renders_and_lints("indexing");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorIndexing, IndexFillWithATensorValuePassesEveryRecordedCall) {
  test::inductor::expect_all_pass("indexing", test::inductor::rows_corpus(),
                                  "aten::index_fill.int_Tensor",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}

TEST(InductorIndexing, UnsafeMaskedIndexClampsIndicesAndMasksOnEveryRecordedCall) {
  test::inductor::expect_all_pass("indexing", test::inductor::rows_corpus(),
                                  "aten::_unsafe_masked_index",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("indexing", test::inductor::rows_corpus(),
                                  "aten::_unsafe_masked_index_put_accumulate",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}

TEST(InductorIndexing, NonzeroStaticPadsWithFillValueOnEveryRecordedCall) {
  test::inductor::expect_all_pass("indexing", test::inductor::rows_corpus(), "aten::nonzero_static",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}
