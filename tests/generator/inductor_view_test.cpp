//===- inductor_view_test.cpp - view templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &overload, const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("view", test::inductor::coverage_corpus(), overload, dtypes);
}

const std::vector<DType> kFloat = {DType::Float32};
const std::vector<DType> kFloatInt = {DType::Float32, DType::Int64};

}  // namespace

TEST(InductorView, TransposePermuteAndExpandReturnViewsThatPassEveryRecordedCall) {
  expect_all_pass("aten::t", kFloatInt);
  expect_all_pass("aten::permute", kFloatInt);
  expect_all_pass("aten::expand", kFloatInt);
  expect_all_pass("aten::unsqueeze", kFloatInt);
}

TEST(InductorView, AsStridedCopiesTheStridedViewOfEveryRecordedCall) {
  expect_all_pass("aten::as_strided", kFloatInt);
}

TEST(InductorView, EveryTableRowRendersParsesAndLints) {
  test::inductor::expect_family_renders_and_lints("view");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorView, CopyVariantsAndSqueezeDimsPassEveryRecordedCall) {
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::squeeze.dims",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::alias_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::as_strided_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::expand_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::permute_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::squeeze_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::squeeze_copy.dim",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::t_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::transpose_copy.int",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::unsqueeze_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
  test::inductor::expect_all_pass("view", test::inductor::rows_corpus(), "aten::view_copy",
                                  {DType::Float32, DType::BFloat16, DType::Int64});
}
