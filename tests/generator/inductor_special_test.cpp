//===- inductor_special_test.cpp - special templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &overload, const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("special", test::inductor::coverage_corpus(), overload, dtypes);
}

const std::vector<DType> kFloat = {DType::Float32};
const std::vector<DType> kFloatInt = {DType::Float32, DType::Int64};

}  // namespace

TEST(InductorSpecial, BesselFunctionsMatchAtenOnEveryRecordedCall) {
  expect_all_pass("aten::special_bessel_j0", kFloatInt);
  expect_all_pass("aten::special_i0e", kFloatInt);
  expect_all_pass("aten::special_modified_bessel_k1", kFloatInt);
}

TEST(InductorSpecial, OrthogonalPolynomialsMatchAtenOnEveryRecordedCall) {
  expect_all_pass("aten::special_chebyshev_polynomial_t", kFloatInt);
  expect_all_pass("aten::special_hermite_polynomial_h", kFloatInt);
}

TEST(InductorSpecial, LogSigmoidForwardPassesEveryRecordedCall) {
  expect_all_pass("aten::log_sigmoid_forward", kFloat);
}

TEST(InductorSpecial, EveryTableRowRendersParsesAndLints) {
  test::inductor::expect_family_renders_and_lints("special");
}

// Rows added for issue 25 item 5: every recorded call of the new overloads passes.
TEST(InductorSpecial, ErfcxAndLogNdtrPassEveryRecordedCall) {
  test::inductor::expect_all_pass("special", test::inductor::rows_corpus(), "aten::special_erfcx",
                                  {DType::Float32, DType::Int64});
  test::inductor::expect_all_pass("special", test::inductor::rows_corpus(),
                                  "aten::special_log_ndtr", {DType::Float32, DType::Int64});
}

TEST(InductorSpecial, IncompleteGammaPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("special", test::inductor::rows_corpus(), "aten::igamma",
                                  {DType::Float32, DType::BFloat16});
  test::inductor::expect_all_pass("special", test::inductor::rows_corpus(), "aten::igammac",
                                  {DType::Float32, DType::BFloat16});
}

// Ai(x) in ATen's three ranges (oscillating, series, decaying; corpus special.airy_ai, float32 and
// int64, every sample).
TEST(InductorSpecial, AiryAiPassesEveryRecordedCall) {
  static const std::string path =
      test::exported_corpus("airy_ai", {"--ops", "special.airy_ai", "--dtypes", "float32,int64"});
  test::inductor::expect_all_pass("special", path, "aten::special_airy_ai",
                                  {DType::Float32, DType::Int64});
}
