//===- inductor_linalg_test.cpp - linalg templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &overload, const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("linalg", test::inductor::coverage_corpus(), overload, dtypes);
}

const std::vector<DType> kFloat = {DType::Float32};
const std::vector<DType> kFloatInt = {DType::Float32, DType::Int64};

}  // namespace

TEST(InductorLinalg, CdistCrossAndTracePassEveryRecordedCall) {
  expect_all_pass("aten::_cdist_forward", kFloat);
  expect_all_pass("aten::linalg_cross", kFloatInt);
  expect_all_pass("aten::trace", kFloatInt);
}

TEST(InductorLinalg, TrilIndicesPassesEveryRecordedCall) {
  expect_all_pass("aten::tril_indices", {DType::Int64});
}

TEST(InductorLinalg, EveryTableRowRendersParsesAndLints) { test::inductor::expect_family_renders_and_lints("linalg"); }
