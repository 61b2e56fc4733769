//===- inductor_norm_test.cpp - norm templates rendered and validated on recorded calls ===//
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
  test::inductor::expect_all_pass("norm", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

TEST(InductorNorm, SoftmaxPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::_softmax", kFloats);
}

TEST(InductorNorm, NativeLayerNormFloat32PassesEveryRecordedCall) {
  // bfloat16 differs: ATen rounds each step of its vectorized bfloat16 path (see the report)
  expect_all_pass(test::small_corpus(), "aten::native_layer_norm", {DType::Float32});
}

TEST(InductorNorm, EveryTableRowRendersParsesAndLints) { expect_family_renders_and_lints("norm"); }

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorNorm, SafeSoftmaxSoftmaxBackwardAndBatchNormInternalsPassEveryRecordedCall) {
  test::inductor::expect_all_pass("norm", test::inductor::rows_corpus(), "aten::_safe_softmax",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("norm", test::inductor::rows_corpus(),
                                  "aten::_softmax_backward_data",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("norm", test::inductor::rows_corpus(),
                                  "aten::_native_batch_norm_legit",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("norm", test::inductor::rows_corpus(),
                                  "aten::_native_batch_norm_legit.no_stats",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("norm", test::inductor::rows_corpus(),
                                  "aten::_batch_norm_with_update",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}
