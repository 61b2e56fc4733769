//===- chip_half_sfu_test.cpp - fp16/bf16 data through the SFU in one strip pass ===//
//
// tl.exp takes fp32 only, so fp16/bf16 kernels compute exp(x.to(fp32)) and
// store .to(fp16): the SFU strip widens the 16-bit DMA buffer itself and, for
// an fp16 result, narrows into the 16-bit buffer the store sends
// (llir_sfu.cpp, sfu_block_half) instead of an element loop widening into an
// fp32 buffer before the strip and another narrowing after it. Results equal
// the IR interpreter's. Kernels: bench/kernels/elementwise_dtype.py.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

const std::string kFile = std::string(OPFORGE_SOURCE_DIR) + "/bench/kernels/elementwise_dtype.py";

DiffCase unary(const char *kernel, DType d, int64_t n, int64_t block) {
  DiffCase c;
  c.file = kFile;
  c.kernel = kernel;
  const std::string t = tl_type(d);
  c.signature = "x_ptr=*" + t + ",out_ptr=*" + t + ",n_elements=i32";
  c.args = {KArg::tensor(random_tensor(d, {n}, 21)), KArg::tensor(HostTensor(d, {n})),
            KArg::integer(n)};
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  c.grid.x = (n + block - 1) / block;
  return c;
}

std::string asm_of(const DiffCase &c) {
  register_codegen_stages();
  return dump_stage(compile_file(kernel_path(c.file), options(c), "asm"), "asm");
}

TEST(ChipHalfSfu, Fp16ExpWidensAndNarrowsInsideTheSfuStrip) {
  const std::string text = asm_of(unary("exp_kernel", DType::Float16, 1024, 1024));
  EXPECT_NE(text.find("vfwcvt.f.f.v\tv8, v16"), std::string::npos) << text;
  EXPECT_NE(text.find("vfncvt.f.f.w\tv16, v8"), std::string::npos) << text;
  // No fp32 copy of the block: neither a widening loop's whole-register
  // stores nor the strip's 32-bit stores.
  EXPECT_EQ(text.find("vs8r.v"), std::string::npos) << text;
  EXPECT_EQ(text.find("vse32.v"), std::string::npos) << text;
}

TEST(ChipHalfSfu, Bf16ExpWidensInsideTheSfuStrip) {
  const std::string text = asm_of(unary("exp_kernel", DType::BFloat16, 1024, 1024));
  EXPECT_NE(text.find("vzext.vf2\tv8, v16"), std::string::npos) << text;
  // The rounding to bf16 works on the two 16-bit halves of each fp32 at
  // SEW=16 (half the beats of an integer rounding on the 32-bit group).
  EXPECT_NE(text.find("vmsltu.vv\tv0, v24, v20"), std::string::npos) << text;
  EXPECT_EQ(text.find("vs8r.v"), std::string::npos) << "no widening loop\n" << text;
}

TEST(ChipHalfSfu, Fp16SigmoidNegatesTheWidenedArgumentInsideTheStrip) {
  // sigmoid(x) = 1 / (1 + exp(0 - x)): the 0 - x is vfrsub.vf in the strip.
  const std::string text = asm_of(unary("sigmoid_kernel", DType::Float16, 1024, 1024));
  EXPECT_NE(text.find("vfwcvt.f.f.v\tv8, v16"), std::string::npos) << text;
  EXPECT_NE(text.find("vfrsub.vf\tv8, v8"), std::string::npos) << text;
  EXPECT_EQ(text.find("vs8r.v"), std::string::npos) << "no widening loop\n" << text;
}

TEST(ChipHalfSfu, Bf16ExpRoundsInsideTheStripKeepingNanInfinitiesAndTies) {
  DiffCase c = unary("exp_kernel", DType::BFloat16, 256, 256);
  HostTensor &x = c.args[0].t;
  const double special[] = {NAN, -INFINITY, INFINITY, 0.0, 1.0, 100.0, -100.0, 0.5};
  for (int i = 0; i < 8; ++i) x.set_double(i, special[i]);
  const std::string text = asm_of(c);
  EXPECT_NE(text.find("vnsrl.wi\tv16, v8, 16"), std::string::npos) << text;
  EXPECT_EQ(text.find("vse32.v"), std::string::npos) << "no fp32 result buffer\n" << text;
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  const HostTensor &out = chip.tensors[1];
  EXPECT_TRUE(std::isnan(out.get_double(0)));
  EXPECT_EQ(out.get_double(1), 0.0);
  EXPECT_EQ(out.get_double(2), INFINITY);
  EXPECT_EQ(out.get_double(3), 1.0);
  EXPECT_EQ(out.get_double(5), INFINITY);  // exp(100) overflows fp32
  for (int64_t i = 1; i < 256; ++i)
    EXPECT_EQ(out.get_double(i), ref[1].get_double(i)) << "element " << i;
}

// sigmoid's tail, 1 / (1 + e) with e the SFU's exp, runs in the same strip
// (vfadd.vf, vfrdiv.vf before the narrowing): no fp32 buffer of exp's
// results and no second vector pass reading it back. Bit for bit the
// interpreter's, NaN, infinities, zeros and saturating arguments included.
TEST(ChipHalfSfu, SigmoidTailRunsInsideTheStripBitForBit) {
  for (DType d : {DType::Float16, DType::BFloat16}) {
    SCOPED_TRACE(tl_type(d));
    DiffCase c = unary("sigmoid_kernel", d, 256, 256);
    HostTensor &x = c.args[0].t;
    const double special[] = {NAN, -INFINITY, INFINITY, 0.0, -0.0, 1.0, 100.0, -100.0, 0.5, -20.0};
    for (int i = 0; i < 10; ++i) x.set_double(i, special[i]);
    const std::string text = asm_of(c);
    EXPECT_NE(text.find("vfrdiv.vf\tv8, v8"), std::string::npos) << text;
    EXPECT_EQ(text.find("vse32.v"), std::string::npos) << "no fp32 result buffer\n" << text;
    EXPECT_EQ(text.find("vl8re32.v"), std::string::npos) << "no second pass\n" << text;
    auto ref = run_interp(c);
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
    const HostTensor &out = chip.tensors[1];
    EXPECT_TRUE(std::isnan(out.get_double(0)));
    EXPECT_EQ(out.get_double(1), 0.0);
    EXPECT_EQ(out.get_double(2), 1.0);
    EXPECT_EQ(out.get_double(3), 0.5);
    for (int64_t i = 1; i < 256; ++i)
      EXPECT_EQ(out.get_double(i), ref[1].get_double(i)) << "element " << i;
  }
}

TEST(ChipHalfSfu, Fp16AndBf16ExpAndSigmoidMatchTheInterpreter) {
  for (DType d : {DType::Float16, DType::BFloat16})
    for (const char *k : {"exp_kernel", "sigmoid_kernel"}) {
      SCOPED_TRACE(std::string(k) + " " + tl_type(d));
      const double tol = d == DType::Float16 ? 2e-3 : 1.6e-2;
      expect_close(unary(k, d, 1000, 256), tol, 1e-5);
    }
}

}  // namespace
}  // namespace opforge::compiler::testing
