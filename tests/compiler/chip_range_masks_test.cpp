//===- chip_range_masks_test.cpp - both versions of range-masked loops vs the interpreter ===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// Rows of n columns in blocks of `block`; S gets each row's centered sum of
// squares, Y each row's block (-1 in masked-off columns) and its scatter.
DiffCase centered_rows(int64_t rows, int64_t n, int64_t block, uint32_t seed) {
  DiffCase c;
  c.file = "range_masks.py";
  c.kernel = "centered_rows";
  c.signature = "X=*fp32,Y=*fp32,S=*fp32,n=i32";
  c.constexprs = {"BLOCK=" + std::to_string(block)};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows * n}, seed)),
            KArg::tensor(HostTensor(DType::Float32, {rows * 2 * block})),
            KArg::tensor(HostTensor(DType::Float32, {rows})), KArg::integer(n)};
  c.grid.x = rows;
  return c;
}

TEST(ChipRangeMasks, WhereReductionAndScatterAreExactWithEveryColumnActive) {
  expect_close(centered_rows(3, 128, 128, 51), 0, 0);
}

TEST(ChipRangeMasks, WhereReductionAndScatterAreExactWithMaskedOffColumns) {
  // 100 of 128 columns (not a multiple of a strip): the general version.
  expect_close(centered_rows(3, 100, 128, 52), 0, 0);
  // No active column at all.
  expect_close(centered_rows(2, 0, 64, 53), 0, 0);
}

DiffCase tile_where(int64_t m, int64_t n, uint32_t seed) {
  DiffCase c;
  c.file = "range_masks.py";
  c.kernel = "tile_where";
  c.signature = "X=*fp32,Y=*fp32,M=i32,N=i32";
  c.constexprs = {"BLOCK_M=8", "BLOCK_N=32"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {std::max<int64_t>(m * n, 1)}, seed)),
            KArg::tensor(HostTensor(DType::Float32, {std::max<int64_t>(m, 1)})), KArg::integer(m),
            KArg::integer(n)};
  c.grid.x = (m + 7) / 8;
  return c;
}

TEST(ChipRangeMasks, TwoDimensionalTilesAreExactFullAndPartial) {
  // 16 x 32: every tile full; 13 x 20: the second row tile and every column
  // tile partial.
  expect_close(tile_where(16, 32, 54), 0, 0);
  expect_close(tile_where(13, 20, 55), 0, 0);
}

TEST(ChipRangeMasks, DataDependentMaskIsExact) {
  DiffCase c;
  c.file = "range_masks.py";
  c.kernel = "positive_rows";
  c.signature = "X=*fp32,S=*fp32,n=i32";
  c.constexprs = {"BLOCK=64"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {2 * 64}, 56)),
            KArg::tensor(HostTensor(DType::Float32, {2})), KArg::integer(64)};
  c.grid.x = 2;
  expect_close(c, 0, 0);
}

DiffCase suffix_rows(int64_t rows, int64_t lo, int64_t n, uint32_t seed) {
  DiffCase c;
  c.file = "range_masks.py";
  c.kernel = "suffix_rows";
  c.signature = "X=*fp32,Y=*fp32,S=*fp32,lo=i32,n=i32";
  c.constexprs = {"BLOCK=64"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows * 64}, seed)),
            KArg::tensor(HostTensor(DType::Float32, {rows * 64})),
            KArg::tensor(HostTensor(DType::Float32, {rows * 2})), KArg::integer(lo),
            KArg::integer(n)};
  c.grid.x = rows;
  return c;
}

TEST(ChipRangeMasks, SuffixAndDecreasingIndexMasksAreExact) {
  // cols >= lo holds on a suffix, 63 - cols < n on a suffix too: all, none
  // and part of the columns, and a store mask cols <= n with a leading run.
  expect_close(suffix_rows(2, 0, 64, 61), 0, 0);
  expect_close(suffix_rows(2, 5, 40, 62), 0, 0);
  expect_close(suffix_rows(2, 64, 0, 63), 0, 0);
  expect_close(suffix_rows(2, -3, 70, 64), 0, 0);
}

DiffCase layer_norm_rows(int64_t rows, int64_t n, int64_t block, uint32_t programs, uint32_t seed) {
  DiffCase c;
  c.file = "layer_norm.py";
  c.kernel = "_layer_norm_fwd_rows";
  c.signature =
      "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32";
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  const int64_t r1 = std::max<int64_t>(rows, 1);
  c.args = {KArg::tensor(random_tensor(DType::Float32, {r1, n}, seed)),
            KArg::tensor(HostTensor(DType::Float32, {r1, n})),
            KArg::tensor(random_tensor(DType::Float32, {n}, seed + 1)),
            KArg::tensor(random_tensor(DType::Float32, {n}, seed + 2)),
            KArg::tensor(HostTensor(DType::Float32, {r1})),
            KArg::tensor(HostTensor(DType::Float32, {r1})),
            KArg::integer(n),
            KArg::integer(rows),
            KArg::integer(n),
            KArg::floating(1e-5)};
  c.grid.x = programs;
  return c;
}

TEST(ChipRangeMasks, PersistentLayerNormIsExactInBothVersions) {
  // Full rows (the folded tl.where), 200 of 256 columns (the first 72
  // pairs of level 0 folded, the rest general), and no rows at all (the
  // loop never runs: outputs untouched).
  expect_close(layer_norm_rows(5, 256, 256, 2, 57), 0, 0);
  expect_close(layer_norm_rows(5, 200, 256, 2, 58), 0, 0);
  // 100 columns: fewer than the half the tree's level 0 adds (no leading run).
  expect_close(layer_norm_rows(3, 100, 256, 2, 60), 0, 0);
  expect_close(layer_norm_rows(0, 256, 256, 2, 59), 0, 0);
}

}  // namespace
}  // namespace opforge::compiler::testing
