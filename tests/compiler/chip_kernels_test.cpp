//===- chip_kernels_test.cpp - test kernels on the chip vs the IR interpreter -===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// Every tensor of the chip run within rtol/atol of the interpreter's (exact when both are 0).
void expect_close(const DiffCase &c, double rtol, double atol) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  ASSERT_EQ(ref.size(), chip.tensors.size());
  for (size_t t = 0; t < ref.size(); ++t) {
    ASSERT_EQ(ref[t].numel(), chip.tensors[t].numel());
    int bad = 0;
    for (int64_t i = 0; i < ref[t].numel() && bad < 5; ++i) {
      double r = ref[t].get_double(i), g = chip.tensors[t].get_double(i);
      bool ok = (std::isnan(r) && std::isnan(g)) || std::fabs(r - g) <= atol + rtol * std::fabs(r);
      if (!ok) {
        ++bad;
        ADD_FAILURE() << "tensor " << t << " element " << i << ": chip " << g << " interpreter "
                      << r;
      }
    }
  }
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
