//===- chip_scalar_masks_test.cpp - block masks combined with a scalar bool ===//
//
// `cols < n & flag` with a scalar flag (from a loaded value or the program
// id) guarding tl.load, tl.store and tl.where: the chip must honour the flag
// as the IR interpreter does, for programs where it is false as well.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

DiffCase scalar_and_masks(int64_t rows, int64_t n, int64_t block, uint32_t seed) {
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "scalar_and_masks";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,S=*fp32,n=i32";
  c.constexprs = {"BLOCK=" + std::to_string(block)};
  // IDX[r] == r for rows 0 and 3 only.
  HostTensor idx(DType::Int32, {rows});
  for (int64_t r = 0; r < rows; ++r) idx.set_int(r, r % 3 == 0 ? r : r + 1);
  HostTensor y(DType::Float32, {rows * 8 * block});
  for (int64_t i = 0; i < y.numel(); ++i) y.set_double(i, 7.0);
  c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {rows * block}, seed)),
            KArg::tensor(y), KArg::tensor(HostTensor(DType::Float32, {rows * 4})),
            KArg::integer(n)};
  c.grid.x = rows;
  return c;
}

TEST(ChipScalarMasks, LoadStoreWhereHonourTheScalarWithPartialColumns) {
  expect_close(scalar_and_masks(4, 20, 32, 71), 0, 0);
}

TEST(ChipScalarMasks, LoadStoreWhereHonourTheScalarWithEveryColumnActive) {
  // n == BLOCK: the range masks are all true, only the scalar decides.
  expect_close(scalar_and_masks(4, 64, 64, 72), 0, 0);
}

TEST(ChipScalarMasks, LoopedGatherSumsOnlyTheMatchingRows) {
  // Rows 0..3 of OUT; IDX names rows 1, 3, 1, 0, 3: row 2 stays 0.
  for (int64_t dim : {16, 13}) {
    DiffCase c;
    c.file = "scalar_masks.py";
    c.kernel = "gather_rows";
    c.signature = "IDX=*i32,G=*fp32,OUT=*fp32,n_idx=i32,dim=i32";
    c.constexprs = {"BLOCK_D=16"};
    HostTensor idx(DType::Int32, {5});
    const int64_t names[] = {1, 3, 1, 0, 3};
    for (int64_t j = 0; j < 5; ++j) idx.set_int(j, names[j]);
    c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {5 * dim}, 73)),
              KArg::tensor(HostTensor(DType::Float32, {4 * dim})), KArg::integer(5),
              KArg::integer(dim)};
    c.grid.x = 4;
    expect_close(c, 1e-6, 1e-6);
  }
}

DiffCase tile_scalar_masks(int64_t m, int64_t n, uint32_t seed) {
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "tile_scalar_masks";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,S=*fp32,M=i32,N=i32";
  c.constexprs = {"BLOCK_M=8", "BLOCK_N=16"};
  const int64_t programs = 4, tile = 8 * 16;
  HostTensor idx(DType::Int32, {programs});
  for (int64_t p = 0; p < programs; ++p) idx.set_int(p, p % 2 ? p : -1);
  HostTensor y(DType::Float32, {programs * 3 * tile});
  for (int64_t i = 0; i < y.numel(); ++i) y.set_double(i, 7.0);
  c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {programs * tile}, seed)),
            KArg::tensor(y),   KArg::tensor(HostTensor(DType::Float32, {programs * 8})),
            KArg::integer(m),  KArg::integer(n)};
  c.grid.x = programs;
  return c;
}

TEST(ChipScalarMasks, TileMasksHonourTheScalar) {
  // Full tiles, then partial rows and columns.
  expect_close(tile_scalar_masks(8, 16, 74), 0, 0);
  expect_close(tile_scalar_masks(5, 11, 75), 0, 0);
}

TEST(ChipScalarMasks, WrappedOffsetsHonourTheScalar) {
  // 3 blocks of 16 over M = 40 elements: the last block wraps after 8.
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "wrapped_rows";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,M=i32,n=i32";
  c.constexprs = {"BLOCK=16"};
  HostTensor idx(DType::Int32, {3});
  for (int64_t p = 0; p < 3; ++p) idx.set_int(p, p == 1 ? p : 5);
  for (int64_t n : {16, 12}) {
    c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {40}, 76)),
              KArg::tensor(HostTensor(DType::Float32, {3 * 16})), KArg::integer(40),
              KArg::integer(n)};
    c.grid.x = 3;
    expect_close(c, 0, 0);
  }
}

}  // namespace
}  // namespace opforge::compiler::testing
