//===- inductor_scan_test.cpp - scan templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inductor_family_util.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {
// The family's overload rendered from the lowering table passes every recorded call.
void expect_all_pass(const std::string &corpus_path, const std::string &overload,
                     const std::vector<DType> &dtypes) {
  test::inductor::expect_all_pass("scan", corpus_path, overload, dtypes);
}

using test::inductor::expect_family_renders_and_lints;

const std::vector<DType> kAllSmall = {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool};
const std::vector<DType> kFloats = {DType::Float32, DType::BFloat16};

}  // namespace

// The shared small corpus has no scans: export cumsum/cumprod/cummax once with the real exporter.
const std::string &scan_corpus() {
  static const std::string path = test::exported_corpus(
      "scan",
      {"--ops", "cumsum,cumprod,cummax", "--dtypes", "float32,int64", "--max-samples", "6"});
  return path;
}

TEST(InductorScan, CumsumPassesEveryRecordedCall) {
  expect_all_pass(scan_corpus(), "aten::cumsum", {DType::Float32, DType::Int64});
}

TEST(InductorScan, CumprodAndCummaxPassEveryRecordedCall) {
  expect_all_pass(scan_corpus(), "aten::cumprod", {DType::Float32, DType::Int64});
  expect_all_pass(scan_corpus(), "aten::cummax", {DType::Float32, DType::Int64});
}

TEST(InductorScan, EveryTableRowRendersParsesAndLints) { expect_family_renders_and_lints("scan"); }
