//===- inductor_reduction_test.cpp - reduction templates rendered and validated on recorded calls
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
  test::inductor::expect_all_pass("reduction", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

TEST(InductorReduction, SumDimIntListPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::sum.dim_IntList", kAllSmall);
}

TEST(InductorReduction, MeanDimAndFullMeanPassEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::mean.dim", kFloats);
  expect_all_pass(test::small_corpus(), "aten::mean", kFloats);
}

TEST(InductorReduction, AmaxArgmaxAndMaxDimAgreeWithATenIncludingNaN) {
  expect_all_pass(test::small_corpus(), "aten::amax", kAllSmall);
  expect_all_pass(test::small_corpus(), "aten::argmax", kAllSmall);
  expect_all_pass(test::small_corpus(), "aten::max.dim", kAllSmall);
}

TEST(InductorReduction, EveryTableRowRendersParsesAndLints) {
  expect_family_renders_and_lints("reduction");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorReduction, AmaxOutAndAllAnyDimsPassEveryRecordedCall) {
  test::inductor::expect_all_pass("reduction", test::inductor::rows_corpus(), "aten::amax.out",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("reduction", test::inductor::rows_corpus(), "aten::all.dims",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("reduction", test::inductor::rows_corpus(), "aten::any.dims",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}

// mode: the first longest run of equal values after sorting (ATen's scan), the index any element
// of it (corpus mode, float32, int64 and bool, every sample).
TEST(InductorReduction, ModePassesEveryRecordedCall) {
  static const std::string path =
      test::exported_corpus("mode", {"--ops", "mode", "--dtypes", "float32,int64,bool"});
  expect_all_pass(path, "aten::mode", {DType::Float32, DType::Int64, DType::Bool});
}
