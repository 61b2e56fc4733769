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

// The OpInfos whose calls reach the Jacobi, matrix-exponential and LDL rows (float32, at most
// 4 samples per OpInfo), exported once into the build tree.
const std::string &jacobi_corpus() {
  static const std::string path = test::exported_corpus(
      "linalg_jacobi",
      {"--ops",
       "linalg.eigh,linalg.eigvalsh,linalg.svd,linalg.svdvals,linalg.pinv,linalg.polar,"
       "linalg.matrix_sqrth,linalg.lstsq,matrix_exp,linalg.ldl_factor_ex,linalg.ldl_solve",
       "--dtypes", "float32", "--max-samples", "4"});
  return path;
}

void expect_jacobi_pass(const std::string &overload) {
  test::inductor::expect_all_pass("linalg", jacobi_corpus(), overload, kFloat);
}

}  // namespace

TEST(InductorLinalg, CdistCrossAndTracePassEveryRecordedCall) {
  expect_all_pass("aten::_cdist_forward", kFloat);
  expect_all_pass("aten::linalg_cross", kFloatInt);
  expect_all_pass("aten::trace", kFloatInt);
}

TEST(InductorLinalg, TrilIndicesPassesEveryRecordedCall) {
  expect_all_pass("aten::tril_indices", {DType::Int64});
}

// Eigenvectors and singular vectors pass up to sign (harness accept_vector_signs).
TEST(InductorLinalg, JacobiEighAndSvdPassEveryRecordedCall) {
  expect_jacobi_pass("aten::_linalg_eigh");
  expect_jacobi_pass("aten::_linalg_svd");
}

TEST(InductorLinalg, PinvPolarSqrthAndLstsqPassEveryRecordedCall) {
  expect_jacobi_pass("aten::linalg_pinv.atol_rtol_tensor");
  expect_jacobi_pass("aten::linalg_polar");
  expect_jacobi_pass("aten::linalg_matrix_sqrth");
  expect_jacobi_pass("aten::linalg_lstsq");
}

TEST(InductorLinalg, MatrixExpAndLdlPassEveryRecordedCall) {
  expect_jacobi_pass("aten::linalg_matrix_exp");
  expect_jacobi_pass("aten::linalg_ldl_factor_ex");
  expect_jacobi_pass("aten::linalg_ldl_solve");
}

TEST(InductorLinalg, EveryTableRowRendersParsesAndLints) {
  test::inductor::expect_family_renders_and_lints("linalg");
}
