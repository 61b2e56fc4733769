//===- inductor_search_test.cpp - search templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &overload, const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("search", test::inductor::coverage_corpus(), overload, dtypes);
}

const std::vector<DType> kFloat = {DType::Float32};
const std::vector<DType> kFloatInt = {DType::Float32, DType::Int64};

}  // namespace

TEST(InductorSearch, SearchsortedAndBucketizePassEveryRecordedCall) {
  expect_all_pass("aten::searchsorted.Tensor", kFloatInt);
  expect_all_pass("aten::bucketize.Tensor", kFloatInt);
}

TEST(InductorSearch, IsinAndHistcPassEveryRecordedCall) {
  expect_all_pass("aten::isin.Tensor_Tensor", kFloatInt);
  expect_all_pass("aten::histc", kFloat);
}

TEST(InductorSearch, EveryTableRowRendersParsesAndLints) {
  test::inductor::expect_family_renders_and_lints("search");
}

// Rows added to the indexing, creation and reduction families next to the search family.
TEST(InductorSearch, MaskedScatterLogspaceAndRenormPassEveryRecordedCall) {
  const std::string &corpus = test::inductor::coverage_corpus();
  test::inductor::expect_all_pass("indexing", corpus, "aten::masked_scatter", kFloatInt);
  test::inductor::expect_all_pass("creation", corpus, "aten::logspace", kFloatInt);
  test::inductor::expect_all_pass("reduction", corpus, "aten::renorm", kFloat);
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorSearch, SearchsortedScalarPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("search", test::inductor::rows_deep_corpus(),
                                  "aten::searchsorted.Scalar", {DType::Float32});
}
