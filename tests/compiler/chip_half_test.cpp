//===- chip_half_test.cpp - float16 element-wise code is native Zfh/Zvfh and bit-exact ===//
//
// fp16 element-wise strips compute at SEW=16 (vle16, vfadd/vfmul at e16,
// vse16) instead of converting in integer code, and give the interpreter's
// bits: an fp16 + - * / rounded once equals the fp32 operation rounded to
// fp16 (issue 23). Kernels: bench/kernels/elementwise_dtype.py.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

const std::string kFile = std::string(OPFORGE_SOURCE_DIR) + "/bench/kernels/elementwise_dtype.py";

DiffCase elementwise(const char *kernel, int inputs, int64_t n, int64_t block) {
  DiffCase c;
  c.file = kFile;
  c.kernel = kernel;
  const char *names[] = {"x_ptr", "y_ptr", "z_ptr"};
  for (int k = 0; k < inputs; ++k) {
    c.signature += std::string(names[k]) + "=*fp16,";
    HostTensor t = random_tensor(DType::Float16, {n}, 10 + k);
    // Subnormal results, overflow to infinity, ties to even, signed zeros.
    const double special[] = {6.0e-8, -3.0e-5, 65504, 2049, -0.0, 1.0e-3, 300, 0.5};
    for (int i = 0; i < 8; ++i) t.set_double(i * 7 + k, special[(i + k) % 8]);
    c.args.push_back(KArg::tensor(t));
  }
  c.signature += "out_ptr=*fp16,n_elements=i32";
  c.args.push_back(KArg::tensor(HostTensor(DType::Float16, {n})));
  c.args.push_back(KArg::integer(n));
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  c.grid.x = (n + block - 1) / block;
  return c;
}

void expect_bit_identical(const DiffCase &c) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  ASSERT_EQ(ref.size(), chip.tensors.size());
  const size_t out = ref.size() - 1;
  EXPECT_TRUE(ref[out].equals(chip.tensors[out]))
      << "chip: " << chip.tensors[out].to_string(16) << "\ninterp: " << ref[out].to_string(16);
}

TEST(ChipHalf, Fp16AddMulAndMulAddGiveTheInterpretersBits) {
  expect_bit_identical(elementwise("add_kernel", 2, 1000, 256));
  expect_bit_identical(elementwise("mul_kernel", 2, 1000, 256));
  expect_bit_identical(elementwise("mul_add_kernel", 3, 777, 128));
}

TEST(ChipHalf, Fp16StripsComputeNativelyAtSew16) {
  register_codegen_stages();
  DiffCase c = elementwise("mul_add_kernel", 3, 1024, 1024);
  CompileState s = compile_file(kernel_path(c.file), options(c), "asm");
  const std::string text = dump_stage(s, "asm");
  for (const char *want : {"e16,", "vle16.v", "vse16.v", "vfmul.vv", "vfadd.vv", "zfh1p0"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  // The integer fp16 <-> fp32 conversion of the code before Zfh: no 0x7c00 tests.
  EXPECT_EQ(text.find("31744"), std::string::npos) << text;
}

}  // namespace
}  // namespace opforge::compiler::testing
