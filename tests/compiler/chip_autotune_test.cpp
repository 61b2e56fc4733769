//===- chip_autotune_test.cpp - @triton.autotune timed by the chip model's cycles ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "diff_harness.h"
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"

namespace opforge::compiler::testing {
namespace {

TensorHandle upload_tensor(Executor &ex, const HostTensor &t) {
  TensorHandle h;
  h.buffer = ex.allocate(t.numel() * t.element_size());
  h.dtype = t.dtype();
  h.sizes = t.sizes();
  h.strides = HostTensor::contiguous_strides(t.sizes());
  ex.copy_in(h, t);
  return h;
}

// Every config of tuned_sum.py's sum_kernel is launched on the chip; the winner is the
// config with the fewest simulated cycles of those launches, and the sum (accumulated
// with atomic_add, zeroed between trials by reset_to_zero) is the sum once.
TEST(ChipAutotune, TheChosenConfigIsTheFastestByCycles) {
  ast::Module m =
      parse_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/autotune/tuned_sum.py");
  ChipExecutor chip(device());
  WrapperInterpreter w(m, chip);
  HostTensor x = random_tensor(DType::Float32, {3000}, 5);
  auto r = w.run("tuned_sum", {WrapperValue::of(upload_tensor(chip, x))});
  double want = 0;
  for (int64_t i = 0; i < x.numel(); ++i) want += x.get_double(i);
  EXPECT_NEAR(chip.copy_out(r.value.tensor).get_double(0), want, 1e-3 * (1 + std::fabs(want)));

  ASSERT_EQ(r.autotune.size(), 1u);
  const AutotuneRecord &a = r.autotune[0];
  EXPECT_EQ(a.source, "tuned");
  ASSERT_EQ(a.trials.size(), 3u);
  // The trials are the chip's first three launches, the call's own the fourth.
  ASSERT_EQ(chip.launches().size(), 4u);
  uint64_t fewest = UINT64_MAX;
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(a.trials[i].skipped.empty()) << a.trials[i].skipped;
    ASSERT_TRUE(a.trials[i].cycles.has_value());
    EXPECT_EQ(*a.trials[i].cycles, chip.launches()[i].cycles);
    fewest = std::min(fewest, *a.trials[i].cycles);
  }
  EXPECT_EQ(*a.trials[static_cast<size_t>(a.winner)].cycles, fewest);
  // The block sizes really differ in cost (16 elements a program is far slower).
  EXPECT_GT(*a.trials[0].cycles, fewest);
  EXPECT_EQ(r.autotune_trial_launches, 3);
  ASSERT_EQ(r.launches.size(), 1u);
  for (const LaunchArg &arg : r.launches[0].args) {
    if (arg.name != "BLOCK_SIZE") continue;
    EXPECT_EQ(a.winner_config.rfind("BLOCK_SIZE: " + std::to_string(arg.int_value) + ",", 0), 0u)
        << a.winner_config;
  }
}

// A config that does not compile for the chip is skipped with its reason; the others
// are timed and the fastest runs the call.
TEST(ChipAutotune, AConfigThatDoesNotCompileIsSkippedWithItsReason) {
  ast::Module m = parse_module(
      std::make_shared<SourceFile>(
          "skip.py",
          "import torch\nimport triton\nimport triton.language as tl\n\n"
          "@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': b}) for b in (48, 16, 128)],"
          " key=['n'])\n"
          "@triton.jit\n"
          "def k(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
          "    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
          "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < "
          "n)\n\n"
          "def w(x):\n"
          "    y = torch.empty_like(x)\n"
          "    k[lambda meta: (triton.cdiv(x.numel(), meta['BLOCK_SIZE']),)](x, y, x.numel())\n"
          "    return y\n"),
      ParseOptions{});
  ChipExecutor chip(device());
  WrapperInterpreter w(m, chip);
  HostTensor x = random_tensor(DType::Float32, {700}, 9);
  auto r = w.run("w", {WrapperValue::of(upload_tensor(chip, x))});
  HostTensor y = chip.copy_out(r.value.tensor);
  for (int64_t i = 0; i < 700; ++i) ASSERT_FLOAT_EQ(y.get_double(i), 3.0f * x.get_double(i)) << i;
  const AutotuneRecord &a = r.autotune.at(0);
  ASSERT_EQ(a.trials.size(), 3u);
  EXPECT_NE(a.trials[0].skipped.find("power of 2"), std::string::npos) << a.trials[0].skipped;
  EXPECT_FALSE(a.trials[0].cycles.has_value());
  ASSERT_TRUE(a.trials[1].cycles && a.trials[2].cycles);
  EXPECT_EQ(a.winner, *a.trials[1].cycles <= *a.trials[2].cycles ? 1 : 2);
  EXPECT_EQ(r.autotune_trial_launches, 2);
  EXPECT_EQ(chip.launches().size(), 3u);
}

}  // namespace
}  // namespace opforge::compiler::testing
