//===- chip_vector_add_test.cpp - vector add compiled to RISC-V, run on the chip, vs the interpreter
//===//
#include <gtest/gtest.h>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

DiffCase vector_add(DType d, int64_t n, int64_t block) {
  std::string ty = d == DType::BFloat16 ? "bf16" : d == DType::Float16 ? "fp16" : "fp32";
  DiffCase c;
  c.file = "vector_add.py";
  c.signature =
      "x_ptr=*" + ty + ",y_ptr=*" + ty + ",output_ptr=*" + ty + ",n_elements=i32,alpha=fp32";
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  c.args = {KArg::tensor(random_tensor(d, {n}, 1)), KArg::tensor(random_tensor(d, {n}, 2)),
            KArg::tensor(HostTensor(d, {n})), KArg::integer(n), KArg::floating(2.5)};
  c.grid.x = (n + block - 1) / block;
  return c;
}

void expect_bit_identical(const DiffCase &c) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  ASSERT_EQ(ref.size(), chip.tensors.size());
  for (size_t i = 0; i < ref.size(); ++i)
    EXPECT_TRUE(ref[i].equals(chip.tensors[i]))
        << "tensor " << i << "\nchip: " << chip.tensors[i].to_string(16)
        << "\ninterp: " << ref[i].to_string(16);
  // The output really was written (not left zero).
  EXPECT_NE(chip.tensors[2].get_double(0), 0.0);
}

TEST(ChipVectorAdd, Fp32MatchesInterpreterBitForBitWithPartialLastBlock) {
  expect_bit_identical(vector_add(DType::Float32, 1000, 256));
}

TEST(ChipVectorAdd, Bf16RoundsLikeTheInterpreter) {
  expect_bit_identical(vector_add(DType::BFloat16, 300, 128));
}

TEST(ChipVectorAdd, Fp16ThroughSoftConversionsRoundsLikeTheInterpreter) {
  expect_bit_identical(vector_add(DType::Float16, 777, 256));
}

TEST(ChipVectorAdd, Fp16SubnormalsOverflowAndTiesMatchTheInterpreter) {
  DiffCase c = vector_add(DType::Float16, 12, 16);
  const double xs[12] = {1e-7,   -3e-6, 65000, 60000,  0.1,  -0.0,
                         6.1e-5, 1.0,   2049,  -65504, 3e-8, 5.96e-8};
  const double ys[12] = {1e-7, 2e-6,         20000, -1000, 0.2,   0.0,
                         1e-6, 4.8828125e-4, 0.4,   -1,    -1e-8, 1e-9};
  for (int i = 0; i < 12; ++i) {
    c.args[0].t.set_double(i, xs[i]);
    c.args[1].t.set_double(i, ys[i]);
  }
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok());
  EXPECT_TRUE(ref[2].equals(chip.tensors[2])) << chip.tensors[2].to_string() << "\nvs\n"
                                              << ref[2].to_string();
}

TEST(ChipVectorAdd, ManyProgramsOnFewPes) {
  expect_bit_identical(vector_add(DType::Float32, 4096 + 3, 64));
}

}  // namespace
}  // namespace opforge::compiler::testing
