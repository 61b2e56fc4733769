//===- chip_matmul_pipeline_test.cpp - software-pipelined K loops: chip vs interpreter ===//
//
// Matmuls whose A/B tile DMAs are prefetched one K step ahead (the prologue
// loads step 0, step k loads k+1 into the other buffer while the DPE works):
// partial edge tiles, K not a multiple of BLOCK_K, a single K step, no K
// step at all, a transposed operand, block pointers, bf16/fp16/fp32 and
// int8 with int32 accumulation, on the tiny preset (16x16x16 DPE commands).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// matmul.py (the Triton tutorial's kernel, GROUP_SIZE_M swizzle) with
// BLOCK 32x32x16: two DPE commands per K step on the tiny preset. B is
// column-major when `b_transposed` (element-row DMA).
DiffCase tutorial_matmul(DType d, int64_t m, int64_t n, int64_t k, bool b_transposed = false) {
  DiffCase c;
  c.file = "matmul.py";
  c.signature = matmul_signature(d, DType::Float32);
  c.constexprs = {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=16", "BLOCK_SIZE_K=16", "GROUP_SIZE_M=2"};
  c.args = matmul_args(d, DType::Float32, m, n, k, 51, b_transposed);
  c.grid.x = ((m + 31) / 32) * ((n + 15) / 16);
  return c;
}

// The DPE accumulates in fp32 with one rounding per multiply-add (fmaf) in k
// order; the interpreter rounds a double sum to fp32: last-bit differences.
TEST(ChipMatmulPipeline, Bf16WithPartialTilesAndARaggedLastKStepMatches) {
  // K = 75: four full K steps of 16 and a partial one (masked copy, `other` 0).
  auto r = expect_close(tutorial_matmul(DType::BFloat16, 70, 40, 75), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
  EXPECT_GT(counter_sum(r, "dma.bytes_read"), 0u) << "full tiles move by DMA";
}

TEST(ChipMatmulPipeline, Fp16WithAColumnMajorBMatches) {
  expect_close(tutorial_matmul(DType::Float16, 48, 33, 64, true), 1e-5, 1e-5);
}

TEST(ChipMatmulPipeline, Fp32IeeeDotMatches) {
  expect_close(tutorial_matmul(DType::Float32, 40, 32, 50), 1e-5, 1e-5);
}

TEST(ChipMatmulPipeline, ASingleKStepHasNothingToPrefetch) {
  expect_close(tutorial_matmul(DType::BFloat16, 32, 32, 9), 1e-5, 1e-5);
}

TEST(ChipMatmulPipeline, NoKStepLeavesTheZeroAccumulator) {
  // K = 0: the loop never runs, so its prologue must not move anything.
  DiffCase c = tutorial_matmul(DType::BFloat16, 20, 20, 0);
  auto r = expect_close(c, 0, 0);
  EXPECT_EQ(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipMatmulPipeline, BlockPointerMatmulWithBoundaryChecksMatches) {
  const int64_t m = 36, n = 20, k = 52;
  DiffCase c;
  c.file = "block_ptr_matmul.py";
  c.signature = matmul_signature(DType::BFloat16, DType::Float32);
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16", "BLOCK_K=16"};
  c.args = matmul_args(DType::BFloat16, DType::Float32, m, n, k, 53);
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  auto r = expect_close(c, 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipMatmulPipeline, Int8WithInt32AccumulatorOverSeveralKStepsIsExact) {
  const int64_t m = 40, n = 36, k = 100;
  DiffCase c;
  c.file = "matmul_int8.py";
  c.signature = matmul_signature(DType::Int8, DType::Int32);
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16", "BLOCK_K=32"};
  c.args = matmul_args(DType::Int8, DType::Int32, m, n, k, 55);
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  auto r = expect_close(c, 0, 0);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

}  // namespace
}  // namespace opforge::compiler::testing
