//===- inductor_pointwise_test.cpp - pointwise rows rendered and validated on recorded calls ===//
//
// In-place and out= variants and the scalar forms of the pointwise family (issue 25 item 5):
// each overload rendered from the lowering table passes every recorded call.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {

const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};
const std::vector<DType> kFloatsInt = {DType::Float32, DType::BFloat16, DType::Int64};

void expect_all_pass(const std::string &corpus_path, const std::string &overload,
                     const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("pointwise", corpus_path, overload, dtypes);
}

}  // namespace

TEST(InductorPointwise, InPlaceVariantsWriteSelfOnEveryRecordedCall) {
  const auto &corpus = test::inductor::rows_corpus();
  expect_all_pass(corpus, "aten::add_.Scalar", kFloats);
  expect_all_pass(corpus, "aten::exp_", kFloats);
  expect_all_pass(corpus, "aten::log_", kFloats);
  expect_all_pass(corpus, "aten::div_.Tensor", kFloats);
  expect_all_pass(corpus, "aten::clamp_min_.Tensor", kFloats);
  expect_all_pass(test::inductor::rows_deep_corpus(), "aten::neg_", {DType::Float32});
}

TEST(InductorPointwise, OutVariantWritesIntoOutOnEveryRecordedCall) {
  expect_all_pass(test::inductor::rows_deep_corpus(), "aten::mul.out", {DType::Float32});
}

TEST(InductorPointwise, ScalarFormsPassEveryRecordedCall) {
  const auto &corpus = test::inductor::rows_corpus();
  expect_all_pass(corpus, "aten::fill.Scalar", kFloatsInt);
  expect_all_pass(corpus, "aten::copysign.Scalar", kFloats);
  expect_all_pass(corpus, "aten::remainder.Scalar", kFloatsInt);
}

TEST(InductorPointwise, LdexpAndPreluPassEveryRecordedCall) {
  const auto &corpus = test::inductor::rows_corpus();
  expect_all_pass(corpus, "aten::ldexp.Tensor", kFloatsInt);
  expect_all_pass(corpus, "aten::_prelu_kernel", kFloats);
}

TEST(InductorPointwise, GeluTanhRoundsOnceInBfloat16AsTorch2Does) {
  // torch 2.x's CPU gelu computes bfloat16/float16 in float32 and rounds once; the row used to
  // round every step to the dtype (ATen 1.13's kernel) and missed 8 of 24 recorded calls.
  const std::string corpus = test::exported_corpus(
      "gelu", {"--ops", "nn.functional.gelu", "--dtypes", "float32,bfloat16,float16"});
  test::inductor::expect_all_pass("pointwise", corpus, "aten::gelu",
                                  {DType::Float32, DType::BFloat16, DType::Float16});
}
