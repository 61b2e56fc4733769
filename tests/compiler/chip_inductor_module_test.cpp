//===- chip_inductor_module_test.cpp - TorchInductor modules' call() on the chip ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "diff_harness.h"
#include "inductor_module_texts.h"
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/inductor_module.h"

namespace opforge::compiler::testing {
namespace {

using namespace opforge::test::inductor;

TensorHandle upload(Executor &ex, const HostTensor &t) {
  TensorHandle h;
  h.buffer = ex.allocate(t.numel() * t.element_size());
  h.dtype = t.dtype();
  h.sizes = t.sizes();
  h.strides = HostTensor::contiguous_strides(t.sizes());
  ex.copy_in(h, t);
  return h;
}

// Row sums of arg0_1 [8, 6] in place (a persistent reduction whose argument is mutated).
std::string row_sum_module() {
  return std::string(kPreamble) + "\n" + row_sum_kernel() + runner(R"(        arg0_1, = args
        args.clear()
        # Topologically Sorted Source Nodes: [sum_1], Original ATen: [aten.sum]
        triton_per_fused_sum_1.run(arg0_1, 8, 6, stream=get_raw_stream(0))
        return (arg0_1, )
)") + "\ndef get_args():\n    return []\n" +
         kTail;
}

}  // namespace

TEST(ChipInductorModule, PointwiseModuleOnTheChipEqualsTheHostAndKeepsTheFastestConfig) {
  InductorModule m(pointwise_module(), "m.py");
  ChipExecutor chip(device());
  HostTensor x = random_tensor(DType::Float32, {48}, 5), y = random_tensor(DType::Float32, {48}, 6);
  std::vector<WrapperValue> args = {WrapperValue::of(upload(chip, x)),
                                    WrapperValue::of(upload(chip, y))};
  InductorRunResult r = m.call(chip, args, {});
  HostTensor out = chip.copy_out(r.value.items[0].tensor);
  for (int64_t i = 0; i < 48; ++i)
    EXPECT_FLOAT_EQ(out.get_double(i), std::max(0.0, x.get_double(i) + y.get_double(i))) << i;
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_GT(r.steps[0].cycles, 0u);
  ASSERT_EQ(r.autotune.size(), 1u);
  const AutotuneRecord &a = r.autotune[0];
  if (a.trials.size() > 1) {
    EXPECT_EQ(a.source, "tuned");
    uint64_t best = UINT64_MAX;
    for (auto &t : a.trials)
      if (t.cycles) best = std::min(best, *t.cycles);
    ASSERT_GE(a.winner, 0);
    EXPECT_EQ(*a.trials[static_cast<size_t>(a.winner)].cycles, best);
    EXPECT_GT(r.autotune_trial_cycles, 0u);
  }
  EXPECT_EQ(r.steps[0].config, a.winner_config);
  // The second call runs the winner only.
  InductorRunResult again = m.call(chip, args, {});
  EXPECT_TRUE(again.autotune.empty());
  EXPECT_EQ(again.autotune_trial_cycles, 0u);
  EXPECT_EQ(again.steps[0].config, a.winner_config);
}

TEST(ChipInductorModule, TrialsOfAKernelThatWritesItsInputRestoreItBetweenConfigs) {
  InductorModule m(row_sum_module(), "m.py");
  ChipExecutor chip(device());
  HostTensor x = random_tensor(DType::Float32, {8, 6}, 7);
  TensorHandle h = upload(chip, x);
  InductorRunResult r = m.call(chip, {WrapperValue::of(h)}, {});
  ASSERT_EQ(r.autotune.size(), 1u);
  EXPECT_GE(r.autotune[0].trials.size(), 2u);
  HostTensor out = chip.copy_out(h);
  for (int64_t i = 0; i < 8; ++i) {
    double s = 0;
    for (int64_t j = 0; j < 6; ++j) s += x.get_double(i * 6 + j);
    EXPECT_NEAR(out.get_double(i * 6), s, 1e-5 * (1 + std::fabs(s))) << i;
  }
}

}  // namespace opforge::compiler::testing
