//===- inductor_pool_test.cpp - pool templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &overload, const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("pool", test::inductor::coverage_corpus(), overload, dtypes);
}

const std::vector<DType> kFloat = {DType::Float32};
const std::vector<DType> kFloatInt = {DType::Float32, DType::Int64};

}  // namespace

TEST(InductorPool, AdaptiveAveragePoolPassesEveryRecordedCall) {
  expect_all_pass("aten::_adaptive_avg_pool2d", kFloat);
}

// torch 2.x's interpolate calls the sized overloads (output_size and per-dim scales), not .vec;
// the first six nearest samples are 1-D.
TEST(InductorPool, NearestAndBilinearUpsamplePassEveryRecordedCall) {
  expect_all_pass("aten::upsample_nearest1d", kFloat);
  expect_all_pass("aten::upsample_bilinear2d", kFloat);
}

TEST(InductorPool, Im2colPassesEveryRecordedCall) { expect_all_pass("aten::im2col", kFloat); }

TEST(InductorPool, EveryTableRowRendersParsesAndLints) {
  test::inductor::expect_family_renders_and_lints("pool");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorPool, NearestExactUpsamplingPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("pool", test::inductor::rows_corpus(),
                                  "aten::_upsample_nearest_exact1d",
                                  {DType::Float32, DType::BFloat16});
  test::inductor::expect_all_pass("pool", test::inductor::rows_corpus(),
                                  "aten::_upsample_nearest_exact2d",
                                  {DType::Float32, DType::BFloat16});
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorPool, NearestExact3dPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("pool", test::inductor::rows_deep_corpus(),
                                  "aten::_upsample_nearest_exact3d", {DType::Float32});
}

TEST(InductorPool, AntialiasedBilinearPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("pool", test::inductor::rows_corpus(),
                                  "aten::_upsample_bilinear2d_aa", {DType::Float32});
}

TEST(InductorPool, GridSamplerEveryModePaddingAndAlignmentPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("pool", test::inductor::rows_corpus(), "aten::grid_sampler_2d",
                                  {DType::Float32, DType::BFloat16});
  test::inductor::expect_all_pass("pool", test::inductor::rows_deep_corpus(),
                                  "aten::grid_sampler_3d", {DType::Float32});
}
