//===- chip_executor_test.cpp - wrappers run on the chip through ChipExecutor ===//
#include <gtest/gtest.h>

#include "diff_harness.h"
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/support/error.h"

namespace opforge::compiler::testing {
namespace {

// Runs add_Tensor(x, y, alpha=2) of vector_add.py on `ex`; returns the output.
HostTensor run_add(Executor &ex, const ast::Module &m, const HostTensor &x, const HostTensor &y) {
  auto handle = [&](const HostTensor &t) {
    TensorHandle h;
    h.buffer = ex.allocate(t.numel() * t.element_size());
    h.dtype = t.dtype();
    h.sizes = t.sizes();
    h.strides = HostTensor::contiguous_strides(t.sizes());
    ex.copy_in(h, t);
    return h;
  };
  WrapperInterpreter wi(m, ex);
  auto r = wi.run("add_Tensor", {WrapperValue::of(handle(x)), WrapperValue::of(handle(y))},
                  {{"alpha", WrapperValue::integer(2)}});
  return ex.copy_out(r.value.tensor);
}

TEST(ChipExecutor, AddTensorWrapperOnTheChipEqualsTheInterpreterExecutor) {
  ast::Module m = parse_file(kernel_path("vector_add.py"));
  HostTensor x = random_tensor(DType::Float32, {33, 70}, 11),
             y = random_tensor(DType::Float32, {33, 70}, 12);
  ChipExecutor chip(device());
  InterpExecutor interp(Knobs{});
  HostTensor got = run_add(chip, m, x, y), want = run_add(interp, m, x, y);
  EXPECT_TRUE(got.equals(want)) << got.to_string(8) << "\nvs\n" << want.to_string(8);
  ASSERT_EQ(chip.launches().size(), 1u);
  EXPECT_GT(chip.launches()[0].cycles, 0u);
  // Same specialisation again: the binary comes from the cache.
  run_add(chip, m, x, y);
  EXPECT_EQ(chip.binaries_compiled(), 1u);
  EXPECT_EQ(chip.cache_hits(), 1u);
}

TEST(ChipExecutor, NonContiguousViewsRoundTrip) {
  ChipExecutor chip(device());
  HostTensor t = random_tensor(DType::Float32, {4, 6}, 13);
  TensorHandle h;
  h.buffer = chip.allocate(24 * 4);
  h.dtype = DType::Float32;
  h.sizes = {4, 6};
  h.strides = {6, 1};
  chip.copy_in(h, t);
  TensorHandle tr = h;  // the transpose view
  tr.sizes = {6, 4};
  tr.strides = {1, 6};
  HostTensor back = chip.copy_out(tr);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(back.get_double(i * 4 + j), t.get_double(j * 6 + i));
}

TEST(ChipExecutor, AGuestFaultNamesKernelProgramPcAndInstruction) {
  ast::Module m = parse_file(kernel_path("layer_norm.py"));
  ChipExecutor chip(device());
  auto tensor = [&](const char *name, int64_t n) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Tensor;
    a.tensor.buffer = chip.allocate(n * 4);
    a.tensor.sizes = {n};
    a.tensor.strides = {1};
    return a;
  };
  auto integer = [](const char *name, int64_t v) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Int;
    a.int_value = v;
    return a;
  };
  LaunchRequest r;
  r.kernel = "_layer_norm_fwd_fused";
  r.module = &m;
  for (auto *f : m.jit_functions())
    if (f->name == r.kernel) r.function = f;
  ASSERT_NE(r.function, nullptr);
  LaunchArg eps;
  eps.name = "eps";
  eps.kind = LaunchArg::Kind::Float;
  eps.float_value = 1e-5;
  LaunchArg block = integer("BLOCK_SIZE", 64);
  block.is_constexpr = true;
  // Row 1 starts 2 GiB past X: beyond the tiny chip's 1 GiB of DRAM.
  r.args = {tensor("X", 64),
            tensor("Y", 64),
            tensor("W", 64),
            tensor("B", 64),
            tensor("Mean", 2),
            tensor("Rstd", 2),
            integer("stride", int64_t(1) << 29),
            integer("N", 64),
            eps,
            block};
  r.grid.x = 2;
  try {
    chip.launch(r);
    FAIL() << "expected a trap";
  } catch (const Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("kernel _layer_norm_fwd_fused program (1, 0, 0)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pc=0x8"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(vle32.v"), std::string::npos)
        << "disassembled masked vector load: " << msg;
  }
}

}  // namespace
}  // namespace opforge::compiler::testing
