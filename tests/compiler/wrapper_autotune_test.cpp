//===- wrapper_autotune_test.cpp - @triton.autotune / @triton.heuristics in wrappers ===//
//
// Kernels run for real on the IR interpreter. TimedExecutor adds what the chip gives
// (cycles per launch, a tuning target) from a cost that depends on the launch's
// BLOCK_SIZE and num_warps, so that which config wins is known; the chip's own
// cycles are tested in chip_autotune_test.cpp.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

const std::string kFile = std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/autotune/tuned_sum.py";

class TimedExecutor : public InterpExecutor {
 public:
  explicit TimedExecutor(std::function<uint64_t(const LaunchRequest &)> cost)
      : InterpExecutor(Knobs{}), cost_(std::move(cost)) {}
  LaunchResult launch(const LaunchRequest &r) override {
    LaunchResult out = InterpExecutor::launch(r);
    out.cycles = cost_(r);
    launches.push_back(r);
    return out;
  }
  std::string tuning_target() const override { return "test-target"; }
  std::vector<LaunchRequest> launches;

 private:
  std::function<uint64_t(const LaunchRequest &)> cost_;
};

int64_t arg(const LaunchRequest &r, const std::string &name) {
  for (auto &a : r.args)
    if (a.name == name) return a.int_value;
  throw std::runtime_error("no argument " + name);
}

// Larger blocks are cheaper, except that BLOCK_SIZE 256 costs the most: the winner is 64.
uint64_t block_cost(const LaunchRequest &r) {
  int64_t b = arg(r, "BLOCK_SIZE");
  return b == 256 ? 9000 : static_cast<uint64_t>(100000 / b + r.num_warps);
}

TensorHandle upload(Executor &ex, const HostTensor &t) {
  TensorHandle h;
  h.buffer = ex.allocate(t.numel() * t.element_size());
  h.dtype = t.dtype();
  h.sizes = t.sizes();
  h.strides = HostTensor::contiguous_strides(t.sizes());
  ex.copy_in(h, t);
  return h;
}

HostTensor ramp(int64_t n) {
  HostTensor t(DType::Float32, {n});
  for (int64_t i = 0; i < n; ++i) t.set_double(i, static_cast<double>(i % 7));
  return t;
}

double ramp_sum(int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += static_cast<double>(i % 7);
  return s;
}

std::string temp_dir(const std::string &name) {
  auto d = std::filesystem::temp_directory_path() /
           ("opforge_autotune_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  return d.string();
}

ast::Module inline_module(const std::string &src) {
  return parse_module(std::make_shared<SourceFile>("w.py",
                                                   "import torch\nimport triton\n"
                                                   "import triton.language as tl\n" +
                                                       src),
                      ParseOptions{.check_imports = false});
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const CompileError &e) {
    return e.rendered();
  }
  return "no error";
}

}  // namespace

// Configs from a module-level function's list comprehension; every config is launched,
// reset_to_zero zeroes the atomic_add accumulator before each trial and after tuning, so
// the result is the sum once; the config with the fewest cycles runs the call.
TEST(WrapperAutotune, ConfigsFromAFunctionAreTimedAndResetToZeroKeepsTheResult) {
  ast::Module m = parse_file(kFile);
  TimedExecutor ex(block_cost);
  WrapperInterpreter w(m, ex);
  const int64_t n = 1000;
  auto r = w.run("tuned_sum", {WrapperValue::of(upload(ex, ramp(n)))});
  EXPECT_DOUBLE_EQ(ex.copy_out(r.value.tensor).get_double(0), ramp_sum(n));
  ASSERT_EQ(r.autotune.size(), 1u);
  const AutotuneRecord &a = r.autotune[0];
  EXPECT_EQ(a.kernel, "sum_kernel");
  EXPECT_EQ(a.key, "(1000, 'torch.float32', 'torch.float32')");
  EXPECT_EQ(a.source, "tuned");
  ASSERT_EQ(a.trials.size(), 3u);
  EXPECT_EQ(*a.trials[0].cycles, 100000u / 16 + 4);
  EXPECT_EQ(*a.trials[2].cycles, 9000u);
  EXPECT_EQ(a.winner, 1);
  EXPECT_EQ(a.winner_config,
            "BLOCK_SIZE: 64, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None");
  EXPECT_EQ(r.autotune_trial_launches, 3);
  ASSERT_EQ(r.launches.size(), 1u);  // the call's own launch; trials are not in it
  EXPECT_EQ(arg(r.launches[0], "BLOCK_SIZE"), 64);
  EXPECT_EQ(r.launches[0].grid.x, 16);  // cdiv(1000, 64)
  // The same key again: the memory cache, no trials.
  ex.launches.clear();
  auto again = w.run("tuned_sum", {WrapperValue::of(upload(ex, ramp(n)))});
  EXPECT_DOUBLE_EQ(ex.copy_out(again.value.tensor).get_double(0), ramp_sum(n));
  ASSERT_EQ(again.autotune.size(), 1u);
  EXPECT_EQ(again.autotune[0].source, "memory cache");
  EXPECT_EQ(ex.launches.size(), 1u);
  // Another key value tunes again.
  auto other = w.run("tuned_sum", {WrapperValue::of(upload(ex, ramp(77)))});
  EXPECT_EQ(other.autotune.at(0).source, "tuned");
  EXPECT_DOUBLE_EQ(ex.copy_out(other.value.tensor).get_double(0), ramp_sum(77));
}

// restore_value: an in-place kernel's argument is put back after every trial, so the
// call adds 1 once, not once per trial.
TEST(WrapperAutotune, RestoreValueUndoesEachTrial) {
  ast::Module m = parse_file(kFile);
  TimedExecutor ex(
      [](const LaunchRequest &r) { return static_cast<uint64_t>(arg(r, "BLOCK_SIZE")); });
  WrapperInterpreter w(m, ex);
  TensorHandle x = upload(ex, ramp(300));
  auto r = w.run("add_one_", {WrapperValue::of(x)});
  HostTensor got = ex.copy_out(x);
  for (int64_t i = 0; i < 300; ++i) ASSERT_DOUBLE_EQ(got.get_double(i), (i % 7) + 1.0) << i;
  EXPECT_EQ(r.autotune.at(0).winner, 0);  // BLOCK_SIZE 32 is cheapest here
  EXPECT_EQ(ex.launches.size(), 4u);      // three trials and the call
}

// Without reset_to_zero the trials' atomic adds stay in the output (as in Triton): the
// trials really ran on the buffer.
TEST(WrapperAutotune, WithoutResetToZeroTheTrialsAccumulate) {
  ast::Module m = inline_module(
      "@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': b}) for b in [16, 64]], "
      "key=['n'])\n"
      "@triton.jit\n"
      "def k(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
      "    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n"
      "    tl.atomic_add(out_ptr, tl.sum(x, axis=0))\n\n"
      "def w(x):\n"
      "    out = torch.zeros((1,), dtype=torch.float32, device=x.device)\n"
      "    k[lambda meta: (triton.cdiv(x.numel(), meta['BLOCK_SIZE']),)](x, out, x.numel())\n"
      "    return out\n");
  TimedExecutor ex(block_cost);
  WrapperInterpreter w(m, ex);
  auto r = w.run("w", {WrapperValue::of(upload(ex, ramp(100)))});
  EXPECT_DOUBLE_EQ(ex.copy_out(r.value.tensor).get_double(0), 3 * ramp_sum(100));
}

// @triton.heuristics below @triton.autotune sees each config's meta-parameters and
// options; prune_configs_by's early_config_prune reads Config attributes and its
// perf_model keeps the top_k.
TEST(WrapperAutotune, HeuristicsAndPruneConfigsBy) {
  ast::Module m = inline_module(
      "def prune(configs, named_args, **kwargs):\n"
      "    return [c for c in configs if c.kwargs['BLOCK_SIZE'] <= named_args['n']]\n\n"
      "def model(**kw):\n"
      "    return kw['BLOCK_SIZE'] * kw['num_warps']\n\n"
      "CONFIGS = [triton.Config({'BLOCK_SIZE': b}, num_warps=w) for b in (16, 64, 256, 1024)"
      " for w in (1, 4)]\n\n"
      "@triton.autotune(configs=CONFIGS, key=['n'],\n"
      "                 prune_configs_by={'early_config_prune': prune, 'perf_model': model,"
      " 'top_k': 3}, warmup=5, rep=20, use_cuda_graph=False, do_bench=None)\n"
      "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK_SIZE'] == 0,\n"
      "                    'WARPS': lambda args: args['num_warps']})\n"
      "@triton.jit\n"
      "def k(p, n, BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr, WARPS: tl.constexpr):\n"
      "    pass\n\n"
      "def w(x):\n"
      "    k[(1,)](x, x.numel())\n"
      "    return x\n");
  // Cheapest: BLOCK_SIZE 64 with 1 warp.
  TimedExecutor ex([](const LaunchRequest &r) {
    return static_cast<uint64_t>(1000 - arg(r, "BLOCK_SIZE") + 10 * r.num_warps);
  });
  WrapperInterpreter w(m, ex);
  auto r = w.run("w", {WrapperValue::of(upload(ex, ramp(200)))});
  const AutotuneRecord &a = r.autotune.at(0);
  // early prune drops 256 and 1024; the model (BLOCK*warps: 16, 64, 64, 256) keeps 3.
  ASSERT_EQ(a.trials.size(), 3u);
  EXPECT_EQ(a.trials[0].config,
            "BLOCK_SIZE: 16, num_warps: 1, num_ctas: 1, num_stages: 3, maxnreg: None");
  EXPECT_EQ(a.trials[1].config,
            "BLOCK_SIZE: 16, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None");
  EXPECT_EQ(a.trials[2].config,
            "BLOCK_SIZE: 64, num_warps: 1, num_ctas: 1, num_stages: 3, maxnreg: None");
  EXPECT_EQ(a.pruned.size(), 5u);
  EXPECT_EQ(a.winner, 2);
  const LaunchRequest &l = r.launches.at(0);
  EXPECT_EQ(arg(l, "BLOCK_SIZE"), 64);
  EXPECT_EQ(l.num_warps, 1);
  EXPECT_EQ(arg(l, "EVEN"), 0);  // 200 % 64
  EXPECT_EQ(arg(l, "WARPS"), 1);
  // Every trial got its own heuristics.
  ASSERT_EQ(ex.launches.size(), 4u);
  EXPECT_EQ(arg(ex.launches[0], "EVEN"), 0);  // 200 % 16 = 8
  EXPECT_EQ(arg(ex.launches[1], "WARPS"), 4);
}

// The best config per key is kept on disk: a new interpreter (a new process) reads it
// and launches no trials.
TEST(WrapperAutotune, SecondRunReadsTheDiskCache) {
  const std::string dir = temp_dir("disk");
  ast::Module m = parse_file(kFile);
  WrapperOptions o;
  o.autotune_cache_dir = dir;
  auto once = [&](TimedExecutor &ex) {
    WrapperInterpreter w(m, ex, o);
    auto r = w.run("tuned_sum", {WrapperValue::of(upload(ex, ramp(500)))});
    EXPECT_DOUBLE_EQ(ex.copy_out(r.value.tensor).get_double(0), ramp_sum(500));
    return r;
  };
  TimedExecutor first(block_cost), second(block_cost);
  auto r1 = once(first);
  ASSERT_EQ(r1.autotune.size(), 1u);
  EXPECT_EQ(r1.autotune[0].source, "tuned");
  ASSERT_FALSE(r1.autotune[0].cache_file.empty());
  EXPECT_TRUE(std::filesystem::exists(r1.autotune[0].cache_file));
  EXPECT_EQ(first.launches.size(), 4u);
  auto r2 = once(second);
  ASSERT_EQ(r2.autotune.size(), 1u);
  EXPECT_EQ(r2.autotune[0].source, "disk cache");
  EXPECT_EQ(r2.autotune[0].cache_file, r1.autotune[0].cache_file);
  EXPECT_EQ(r2.autotune[0].winner, 1);
  EXPECT_EQ(*r2.autotune[0].trials[0].cycles, *r1.autotune[0].trials[0].cycles);
  EXPECT_EQ(second.launches.size(), 1u);
  EXPECT_EQ(arg(second.launches[0], "BLOCK_SIZE"), 64);
  std::filesystem::remove_all(dir);
}

// Without cycles (the IR interpreter) the first config that compiles is kept, without
// trial launches; a config whose kernel does not compile is skipped with its reason.
TEST(WrapperAutotune, WithoutCyclesTheFirstConfigThatCompilesIsChosen) {
  ast::Module m = inline_module(
      "@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 3}), "
      "triton.Config({'BLOCK_SIZE': 32}), triton.Config({'BLOCK_SIZE': 8})], key=[])\n"
      "@triton.jit\n"
      "def k(x_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
      "    offs = tl.arange(0, BLOCK_SIZE)\n"
      "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n\n"
      "def w(x):\n"
      "    k[(1,)](x, x.numel())\n"
      "    return x\n");
  InterpExecutor ex(Knobs{});
  WrapperInterpreter w(m, ex);
  TensorHandle x = upload(ex, ramp(20));
  auto r = w.run("w", {WrapperValue::of(x)});
  const AutotuneRecord &a = r.autotune.at(0);
  EXPECT_EQ(a.source, "first config that compiles (the executor has no cycles)");
  ASSERT_EQ(a.trials.size(), 2u);
  EXPECT_NE(a.trials[0].skipped.find("power of 2"), std::string::npos) << a.trials[0].skipped;
  EXPECT_TRUE(a.trials[1].skipped.empty());
  EXPECT_EQ(a.winner, 1);
  EXPECT_EQ(ex.copy_out(x).get_double(19), 2.0 * (19 % 7));
}

TEST(WrapperAutotune, BadConfigsAreNamedByIndex) {
  auto run = [](const std::string &decorator, const std::string &call = "k[(1,)](x, 4)") {
    ast::Module m = inline_module(decorator +
                                  "\n@triton.jit\ndef k(p, n, BLOCK_SIZE: tl.constexpr):\n"
                                  "    pass\n\ndef w(x):\n    " +
                                  call + "\n    return x\n");
    TimedExecutor ex(block_cost);
    WrapperInterpreter w(m, ex);
    TensorHandle x = upload(ex, ramp(4));
    return error_of([&] { w.run("w", {WrapperValue::of(x)}); });
  };
  std::string e =
      run("@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 16}), "
          "triton.Config({'BLOCK_SIZE': 1 // 0})], key=['n'])");
  EXPECT_NE(e.find("@triton.autotune config #1 of kernel 'k' raised: ZeroDivisionError"),
            std::string::npos)
      << e;
  e =
      run("@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 16}), triton.Config({})], "
          "key=['n'])");
  EXPECT_NE(e.find("@triton.autotune config #1 (num_warps: 4, num_ctas: 1, num_stages: 3, "
                   "maxnreg: None) of kernel 'k': TypeError: kernel 'k' is missing argument "
                   "'BLOCK_SIZE'"),
            std::string::npos)
      << e;
  e = run("def none():\n    return []\n\n@triton.autotune(configs=none(), key=['n'])");
  EXPECT_NE(e.find("the config list is empty"), std::string::npos) << e;
  e = run("@triton.autotune(configs=[{'BLOCK_SIZE': 16}], key=['n'])");
  EXPECT_NE(e.find("config #0 of kernel 'k' is a dict, not a triton.Config"), std::string::npos)
      << e;
  e = run("@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 16})], key=['m'])");
  EXPECT_NE(e.find("ValueError: key contains names that are not kernel arguments: m"),
            std::string::npos)
      << e;
  e = run("@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 16})], key=['n'])",
          "k[(1,)](x, 4, BLOCK_SIZE=8)");
  EXPECT_NE(e.find("Conflicting meta-parameters: BLOCK_SIZE"), std::string::npos) << e;
}

// Tutorial 03's backend check picks the config list: the target's backend is "mtia".
TEST(WrapperAutotune, ABackendCheckChoosesTheConfigList) {
  ast::Module m = inline_module(
      "def is_cuda():\n"
      "    return triton.runtime.driver.active.get_current_target().backend == 'cuda'\n\n"
      "def gpu():\n    return [triton.Config({'BLOCK_SIZE': 1024}, num_warps=8)]\n\n"
      "def chip():\n    return [triton.Config({'BLOCK_SIZE': b}) for b in (16, 64)]\n\n"
      "def get_autotune_config():\n"
      "    if is_cuda():\n        return gpu()\n    else:\n        return chip()\n\n"
      "DEVICE = triton.runtime.driver.active.get_active_torch_device()\n\n"
      "@triton.autotune(configs=get_autotune_config(), key=['n'])\n"
      "@triton.jit\n"
      "def k(p, n, BLOCK_SIZE: tl.constexpr):\n    pass\n\n"
      "def w(x):\n"
      "    y = torch.empty_like(x, device=DEVICE)\n"
      "    k[(1,)](y, x.numel())\n    return y\n");
  TimedExecutor ex(block_cost);
  WrapperInterpreter w(m, ex);
  auto r = w.run("w", {WrapperValue::of(upload(ex, ramp(8)))});
  const AutotuneRecord &a = r.autotune.at(0);
  ASSERT_EQ(a.trials.size(), 2u);
  EXPECT_EQ(a.winner_config.rfind("BLOCK_SIZE: 64,", 0), 0u) << a.winner_config;
}

// A config's pre_hook runs (with the arguments and the config's meta-parameters) before
// each trial and before the call's own launch: here it zeroes the accumulator as
// reset_to_zero would. Configs with a pre_hook are not cached on disk (as in Triton).
TEST(WrapperAutotune, ConfigPreHookRunsBeforeEveryLaunch) {
  ast::Module m = inline_module(
      "def zero_out(nargs):\n"
      "    assert nargs['BLOCK_SIZE'] in (16, 64)\n"
      "    nargs['out_ptr'].zero_()\n\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': b}, pre_hook=zero_out)"
      " for b in [16, 64]], key=['n'])\n"
      "@triton.jit\n"
      "def k(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
      "    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n"
      "    tl.atomic_add(out_ptr, tl.sum(x, axis=0))\n\n"
      "def w(x):\n"
      "    out = torch.full((1,), 5.0, dtype=torch.float32, device=x.device)\n"
      "    k[lambda meta: (triton.cdiv(x.numel(), meta['BLOCK_SIZE']),)](x, out, x.numel())\n"
      "    return out\n");
  TimedExecutor ex(block_cost);
  WrapperOptions o;
  o.autotune_cache_dir = temp_dir("prehook");
  WrapperInterpreter w(m, ex, o);
  auto r = w.run("w", {WrapperValue::of(upload(ex, ramp(100)))});
  EXPECT_DOUBLE_EQ(ex.copy_out(r.value.tensor).get_double(0), ramp_sum(100));
  EXPECT_EQ(r.autotune.at(0).source, "tuned");
  EXPECT_TRUE(r.autotune.at(0).cache_file.empty());
  EXPECT_EQ(ex.launches.size(), 3u);
}
