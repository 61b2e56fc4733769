//===- chip_kernels_test.cpp - test kernels on the chip vs the IR interpreter -===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// y[m, n] = 2 * x[m, n] over a 2-D grid of 16x16 tiles, with the given
// element strides of x and y (both tensors hold m*n elements).
DiffCase strided_copy(DType d, int64_t m, int64_t n, int64_t sxm, int64_t sxn, int64_t sym,
                      int64_t syn) {
  DiffCase c;
  c.file = "strided_copy_2d.py";
  std::string t = tl_type(d);
  c.signature = "x_ptr=*" + t + ",y_ptr=*" + t +
                ",M=i32,N=i32,stride_xm=i32,stride_xn=i32,stride_ym=i32,stride_yn=i32,scale=fp32";
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16"};
  c.args = {KArg::tensor(random_tensor(d, {m * n}, 21)),
            KArg::tensor(HostTensor(d, {m * n})),
            KArg::integer(m),
            KArg::integer(n),
            KArg::integer(sxm),
            KArg::integer(sxn),
            KArg::integer(sym),
            KArg::integer(syn),
            KArg::floating(2.0)};
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  return c;
}

TEST(ChipDma, ContiguousTilesWithPartialEdgesAreExact) {
  // 37x21: full 16x16 tiles take the DMA path, edge tiles the masked copy.
  auto r = expect_close(strided_copy(DType::Float32, 37, 21, 21, 1, 21, 1), 0, 0);
  EXPECT_GT(counter_sum(r, "dma.bytes_read"), 0u) << "full tiles move by DMA";
}

TEST(ChipDma, TransposedInputUsesElementRowsAndIsExact) {
  // x read column-major (unit stride along m), y written row-major.
  expect_close(strided_copy(DType::Float32, 32, 48, 1, 32, 48, 1), 0, 0);
}

TEST(ChipDma, TransposedOutputAndBf16AreExact) {
  expect_close(strided_copy(DType::BFloat16, 33, 32, 32, 1, 1, 33), 0, 0);
}

TEST(ChipDma, Fp16TilesWithPartialEdgesAreExact) {
  expect_close(strided_copy(DType::Float16, 20, 17, 17, 1, 17, 1), 0, 0);
}

DiffCase matmul_case(DType d, int64_t m, int64_t n, int64_t k) {
  DiffCase c;
  c.file = "matmul.py";
  c.signature = matmul_signature(d, DType::Float32);
  c.constexprs = {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=2"};
  c.args = matmul_args(d, DType::Float32, m, n, k, 31);
  c.grid.x = ((m + 31) / 32) * ((n + 31) / 32);
  return c;
}

// The DPE accumulates in fp32 with one rounding per multiply-add (fmaf) in k
// order; the interpreter rounds a double sum to fp32, so rare last-bit
// differences are allowed.
TEST(ChipDpe, Bf16MatmulOnTheDpeMatchesTheInterpreter) {
  auto r = expect_close(matmul_case(DType::BFloat16, 64, 48, 80), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipDpe, Fp16MatmulOnTheDpeMatchesTheInterpreter) {
  auto r = expect_close(matmul_case(DType::Float16, 40, 40, 40), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipDpe, Fp32MatmulOnTheDpeMatchesTheInterpreter) {
  auto r = expect_close(matmul_case(DType::Float32, 33, 70, 35), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipDpe, Int8DotWithInt32AccumulatorIsExact) {
  const int64_t m = 30, n = 20, k = 25;
  DiffCase c;
  c.file = "dot_int8.py";
  c.signature = "a_ptr=*i8,b_ptr=*i8,c_ptr=*i32,M=i32,N=i32,K=i32";
  c.constexprs = {"BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=32"};
  c.args = {KArg::tensor(random_tensor(DType::Int8, {m, k}, 41)),
            KArg::tensor(random_tensor(DType::Int8, {k, n}, 42)),
            KArg::tensor(random_tensor(DType::Int32, {m, n}, 43)),
            KArg::integer(m),
            KArg::integer(n),
            KArg::integer(k)};
  c.grid.x = 1;
  auto r = expect_close(c, 0, 0);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
}

TEST(ChipKernels, FusedSoftmaxRowsNotAMultipleOfTheBlockMatchWithinSfuPrecision) {
  const int64_t rows = 7, cols = 100;
  DiffCase c;
  c.file = "fused_softmax.py";
  c.signature =
      "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_"
      "cols=i32";
  c.constexprs = {"BLOCK_SIZE=128"};
  c.args = {KArg::tensor(HostTensor(DType::Float32, {rows, cols})),
            KArg::tensor(random_tensor(DType::Float32, {rows, cols}, 3)),
            KArg::integer(cols),
            KArg::integer(cols),
            KArg::integer(rows),
            KArg::integer(cols)};
  c.grid.x = 3;  // each program loops over rows with stride num_programs
  expect_close(c, 1e-5, 1e-7);
}

TEST(ChipKernels, LayerNormWithLoopCarriedBlocksMatches) {
  const int64_t rows = 4, n = 300;
  DiffCase c;
  c.file = "layer_norm.py";
  c.signature = "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,N=i32,eps=fp32";
  c.constexprs = {"BLOCK_SIZE=128"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows, n}, 4)),
            KArg::tensor(HostTensor(DType::Float32, {rows, n})),
            KArg::tensor(random_tensor(DType::Float32, {n}, 5)),
            KArg::tensor(random_tensor(DType::Float32, {n}, 6)),
            KArg::tensor(HostTensor(DType::Float32, {rows})),
            KArg::tensor(HostTensor(DType::Float32, {rows})),
            KArg::integer(n),
            KArg::integer(n),
            KArg::floating(1e-5)};
  c.grid.x = rows;
  expect_close(c, 1e-5, 1e-6);
}

TEST(ChipKernels, LayerNormSumsInTheInterpretersTreeOrderAreExact) {
  // Reductions combine in the interpreter's tree order (vectorized level by
  // level), so fp32 sums, and everything after them, match bit for bit.
  const int64_t rows = 3, n = 256;
  DiffCase c;
  c.file = "layer_norm.py";
  c.signature = "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,N=i32,eps=fp32";
  c.constexprs = {"BLOCK_SIZE=64"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows, n}, 14)),
            KArg::tensor(HostTensor(DType::Float32, {rows, n})),
            KArg::tensor(random_tensor(DType::Float32, {n}, 15)),
            KArg::tensor(random_tensor(DType::Float32, {n}, 16)),
            KArg::tensor(HostTensor(DType::Float32, {rows})),
            KArg::tensor(HostTensor(DType::Float32, {rows})),
            KArg::integer(n),
            KArg::integer(n),
            KArg::floating(1e-5)};
  c.grid.x = rows;
  expect_close(c, 0, 0);
}

TEST(ChipDpe, Bf16MatmulWithCarriedPointersAndPartialTilesMatches) {
  // Several K steps through carried (element-0) pointers and double-buffered
  // operand DMA; the last K step and the edge tiles are partial (masked copy).
  auto r = expect_close(matmul_case(DType::BFloat16, 70, 50, 150), 1e-5, 1e-5);
  EXPECT_GT(counter_sum(r, "dpe.commands"), 0u);
  EXPECT_GT(counter_sum(r, "dma.bytes_read"), 0u) << "full tiles move by DMA";
}

TEST(ChipKernels, ArgmaxTwoOperandReductionIsExact) {
  const int64_t rows = 5, cols = 77;
  DiffCase c;
  c.file = "argmax.py";
  c.signature = "x_ptr=*fp32,out_ptr=*i64,n_cols=i32,row_stride=i32";
  c.constexprs = {"BLOCK_SIZE=128"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows, cols}, 7)),
            KArg::tensor(HostTensor(DType::Int64, {rows})), KArg::integer(cols),
            KArg::integer(cols)};
  c.grid.x = rows;
  expect_close(c, 0, 0);
}

TEST(ChipKernels, MatmulWithPartialTilesMatches) {
  const int64_t m = 40, n = 24, k = 40;
  DiffCase c;
  c.file = "matmul.py";
  c.signature =
      "a_ptr=*fp32,b_ptr=*fp32,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
      "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32";
  c.constexprs = {"BLOCK_SIZE_M=16", "BLOCK_SIZE_N=16", "BLOCK_SIZE_K=16", "GROUP_SIZE_M=2"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {m, k}, 8)),
            KArg::tensor(random_tensor(DType::Float32, {k, n}, 9)),
            KArg::tensor(HostTensor(DType::Float32, {m, n})),
            KArg::integer(m),
            KArg::integer(n),
            KArg::integer(k),
            KArg::integer(k),
            KArg::integer(1),
            KArg::integer(n),
            KArg::integer(1),
            KArg::integer(n),
            KArg::integer(1)};
  c.grid.x = ((m + 15) / 16) * ((n + 15) / 16);
  expect_close(c, 1e-5, 1e-5);
}

}  // namespace
}  // namespace opforge::compiler::testing
