//===- chip_matmul_wrap_test.cpp - tutorial-style `% M` matmul: chip vs interpreter ===//
//
// matmul_wrap.py builds its A rows and B columns as (pid * BLOCK + arange) % M
// (% N), masks only K and stores under a mask. Its loads are DMA tiles when
// no index wraps (the wrap guard, codegen/llir_wrap.cpp); a tail tile whose
// rows or columns wrap back to the first ones copies element by element. M
// and N not multiples of the block exercise both; results must equal the IR
// interpreter's.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// BLOCK 32x16x16 with GROUP_SIZE_M 2 (grouped pid order), fp32 C.
DiffCase wrap_matmul(DType d, int64_t m, int64_t n, int64_t k, int64_t bm = 32, int64_t bn = 16) {
  DiffCase c;
  c.file = "matmul_wrap.py";
  c.signature = matmul_signature(d, DType::Float32);
  c.constexprs = {"BLOCK_SIZE_M=" + std::to_string(bm), "BLOCK_SIZE_N=" + std::to_string(bn),
                  "BLOCK_SIZE_K=16", "GROUP_SIZE_M=2"};
  c.args = matmul_args(d, DType::Float32, m, n, k, 61);
  c.grid.x = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
  return c;
}

TEST(ChipMatmulWrap, Bf16WithWrappedTailTilesMatches) {
  // M = 70 (tiles of 32: the third wraps after 6 rows), N = 40 (16: the
  // third wraps after 8 columns), K = 75 (a ragged last K step).
  auto r = expect_close(wrap_matmul(DType::BFloat16, 70, 40, 75), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
  // 6 of the 9 tiles wrap neither way: their A and B tiles (at least 6 x 5 K
  // steps x (32x16 + 16x16) bf16) move by DMA.
  EXPECT_GE(counter_sum(r, "dma.bytes_read"), 6u * 5 * (32 * 16 + 16 * 16) * 2);
}

TEST(ChipMatmulWrap, Fp16WhenMAndNAreSmallerThanTheBlockMatches) {
  // Every tile wraps (several times: M = 5 < 32): all element copies.
  expect_close(wrap_matmul(DType::Float16, 5, 3, 20), 1e-5, 1e-5);
}

TEST(ChipMatmulWrap, Fp32WhenTheBlocksDivideTheShapeMovesEveryTileByDma) {
  auto r = expect_close(wrap_matmul(DType::Float32, 64, 32, 48), 1e-5, 1e-5);
  // 4 tiles x 3 K steps x (32x16 + 16x16) fp32 elements, all by DMA.
  EXPECT_GE(counter_sum(r, "dma.bytes_read"), 4u * 3 * (32 * 16 + 16 * 16) * 4);
}

}  // namespace
}  // namespace opforge::compiler::testing
