//===- chip_local_mem_test.cpp - block buffers past local memory: spilled or refused ===//
//
// docs/compiler/codegen.md, "Local memory planning": a kernel whose stack
// (frame and block buffers) exceeds the PE's local memory runs with its
// non-DPE buffers in DRAM scratch (and a warning); one whose DPE buffers alone
// exceed it is a compile error naming kernel, constexprs, bytes needed and
// available; faults name the Triton source line.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "diff_harness.h"
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/support/error.h"

namespace opforge::compiler::testing {
namespace {

TensorHandle upload(Executor &ex, const HostTensor &t) {
  TensorHandle h;
  h.buffer = ex.allocate(t.numel() * t.element_size());
  h.dtype = t.dtype();
  h.sizes = t.sizes();
  h.strides = HostTensor::contiguous_strides(t.sizes());
  ex.copy_in(h, t);
  return h;
}

WrapperValue int_value(int64_t v) { return WrapperValue::integer(v); }

// mm_tiles(a, b, bm, bn, bk) of local_mem_plans.py on `ex`.
HostTensor run_mm(Executor &ex, const ast::Module &m, const HostTensor &a, const HostTensor &b,
                  int64_t bm, int64_t bn, int64_t bk) {
  WrapperInterpreter wi(m, ex);
  auto r = wi.run("mm_tiles",
                  {WrapperValue::of(upload(ex, a)), WrapperValue::of(upload(ex, b)), int_value(bm),
                   int_value(bn), int_value(bk)},
                  {});
  return ex.copy_out(r.value.tensor);
}

double max_abs_diff(const HostTensor &x, const HostTensor &y) {
  double d = 0;
  for (int64_t i = 0; i < x.numel(); ++i)
    d = std::max(d, std::fabs(x.get_double(i) - y.get_double(i)));
  return d;
}

// The tiny preset has 64 KiB of local memory: 64x128x32 fp16 tiles need
// about 75 KB of stack (DPE operands double-buffered, the accumulator, the
// store's buffer). Before local memory was planned this faulted (the stack
// ran below the local memory alias).
TEST(ChipLocalMem, AMatmulPastLocalMemorySpillsToDramAndMatchesTheInterpreter) {
  ast::Module m = parse_file(kernel_path("local_mem_plans.py"));
  HostTensor a = random_tensor(DType::Float16, {100, 96}, 31),
             b = random_tensor(DType::Float16, {96, 200}, 32);
  ChipExecutor chip(device());
  InterpExecutor interp(Knobs{});
  ::testing::internal::CaptureStderr();
  HostTensor got = run_mm(chip, m, a, b, 64, 128, 32);
  const std::string err = ::testing::internal::GetCapturedStderr();
  HostTensor want = run_mm(interp, m, a, b, 64, 128, 32);
  ASSERT_EQ(got.sizes(), want.sizes());
  // The DPE accumulates in fp32 in k order; the result is rounded to fp16.
  EXPECT_LE(max_abs_diff(got, want), 0.0625) << got.to_string(8) << "\nvs\n" << want.to_string(8);
  EXPECT_NE(err.find("warning: kernel wrap_matmul_kernel (BLOCK_SIZE_K=32, BLOCK_SIZE_M=64, "
                     "BLOCK_SIZE_N=128): block buffers need "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("65536 available (pe.local_mem.size_bytes)"), std::string::npos) << err;
  EXPECT_NE(err.find("spilled to DRAM scratch"), std::string::npos) << err;
  ASSERT_EQ(chip.launches().size(), 1u);
  EXPECT_TRUE(chip.launches()[0].ok());
}

// A 128x128 fp32 dot: each DPE operand alone is 64 KiB, the tiny preset's
// whole local memory, and DPE buffers cannot move to DRAM.
TEST(ChipLocalMem, ADotWhoseDpeBuffersAloneExceedLocalMemoryIsACompileErrorNamingTheFields) {
  ast::Module m = parse_file(kernel_path("local_mem_plans.py"));
  HostTensor a = random_tensor(DType::Float32, {128, 128}, 33),
             b = random_tensor(DType::Float32, {128, 128}, 34);
  ChipExecutor chip(device());
  WrapperInterpreter wi(m, chip);
  try {
    wi.run("huge_dot", {WrapperValue::of(upload(chip, a)), WrapperValue::of(upload(chip, b))}, {});
    FAIL() << "expected a compile error";
  } catch (const Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel huge_dot_kernel (BLOCK=128): needs "), std::string::npos) << msg;
    EXPECT_NE(msg.find("bytes of local memory (stack frame and block buffers), 65536 available "
                       "(pe.local_mem.size_bytes)"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("DPE operand and accumulator buffers, which cannot spill"),
              std::string::npos)
        << msg;
  }
  EXPECT_EQ(chip.launches().size(), 0u);
}

// The library's softmax on a GPT-2 vocabulary row (50257 wide: one block of
// 65536 fp32 elements, 256 KiB per buffer) on mtia-2i's 384 KiB local memory.
// Before local memory was planned it faulted (store/AMO access fault below the
// local memory alias). A process makes one model::Device: this runs in a
// child process (a death test re-running only this test) and reports on stderr.
void softmax_on_mtia2i() {
  model::Device dev(model::load_params("mtia-2i"));
  ast::Module m =
      parse_file(std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten/_softmax.py");
  const int64_t rows = 4, cols = 50257;
  HostTensor x = random_tensor(DType::Float32, {rows, cols}, 35);
  ChipExecutor chip(dev);
  WrapperInterpreter wi(m, chip);
  auto r =
      wi.run("_softmax",
             {WrapperValue::of(upload(chip, x)), int_value(-1), WrapperValue::boolean(false)}, {});
  HostTensor y = chip.copy_out(r.value.tensor);
  double worst = y.numel() == rows * cols ? 0 : INFINITY;
  for (int64_t i = 0; i < rows && std::isfinite(worst); ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < cols; ++j) mx = std::max(mx, x.get_double(i * cols + j));
    for (int64_t j = 0; j < cols; ++j) sum += std::exp(x.get_double(i * cols + j) - mx);
    for (int64_t j = 0; j < cols; ++j) {
      double want = std::exp(x.get_double(i * cols + j) - mx) / sum;
      worst = std::max(worst, std::fabs(y.get_double(i * cols + j) - want) / want);
    }
  }
  std::cerr << "softmax worst relative error " << worst << "\n";
  std::exit(worst < 1e-5 ? 0 : 1);
}

TEST(ChipLocalMem, LibrarySoftmaxOfGpt2VocabularyRowsOnMtia2iMatchesAFloat64Reference) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(softmax_on_mtia2i(), ::testing::ExitedWithCode(0),
              "warning: kernel softmax_rows_kernel \\(BLOCK_SIZE=65536\\): block buffers need "
              "[0-9]+ bytes of local memory, 393216 available(.|\n)*softmax worst relative error");
}

// A store past its tensor faults on the chip; the error names the Triton
// line of the store (the binary's line table), beside the PC.
TEST(ChipLocalMem, AnOutOfBoundsStoreNamesItsTritonSourceLine) {
  ast::Module m = parse_file(kernel_path("local_mem_plans.py"));
  HostTensor x = random_tensor(DType::Float32, {100}, 36);
  ChipExecutor chip(device());
  WrapperInterpreter wi(m, chip);
  try {
    wi.run("row_overrun", {WrapperValue::of(upload(chip, x))}, {});
    FAIL() << "expected a fault";
  } catch (const Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("local_mem_plans.py:67"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pc=0x"), std::string::npos) << msg;
    EXPECT_NE(msg.find("out-of-bounds store"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace opforge::compiler::testing
