//===- inductor_matmul_test.cpp - matmul templates rendered and validated on recorded calls ===//
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
  test::inductor::expect_all_pass("matmul", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

TEST(InductorMatmul, MmPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::mm",
                  {DType::Float32, DType::BFloat16, DType::Int64});
}

TEST(InductorMatmul, DotPassesEveryRecordedCall) {
  expect_all_pass(test::small_corpus(), "aten::dot",
                  {DType::Float32, DType::BFloat16, DType::Int64});
}

TEST(InductorMatmul, SmallBatchedBmmRoundsLikeATen) {
  // bfloat16 batches under 400 multiply-adds take ATen's small kernel: torch 2.x accumulates in
  // float32 and rounds once (torch 1.13 accumulated in bfloat16)
  expect_all_pass(test::small_corpus(), "aten::bmm", {DType::BFloat16, DType::Int64});
}

TEST(InductorMatmul, EveryTableRowRendersParsesAndLints) {
  expect_family_renders_and_lints("matmul");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorMatmul, MmOutWritesIntoOutOnEveryRecordedCall) {
  test::inductor::expect_all_pass("matmul", test::inductor::rows_corpus(), "aten::mm.out",
                                  {DType::Float32, DType::BFloat16});
}

TEST(InductorMatmul, FlashAttentionForCpuPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("matmul", test::inductor::rows_corpus(),
                                  "aten::_scaled_dot_product_flash_attention_for_cpu",
                                  {DType::Float32, DType::BFloat16});
}
