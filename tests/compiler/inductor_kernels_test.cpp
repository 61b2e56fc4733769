//===- inductor_kernels_test.cpp - Inductor's kernel sources, as written, on the interpreter ===//
//
// Kernel texts in TorchInductor's exact form (the string inside
// `async_compile.triton('name', '''...''')`: its imports, set_driver_to_gpu(), the
// @triton_heuristics decorator, triton_helpers / libdevice / tl_math calls) lint
// clean, compile, and compute what the test computes itself on the IR interpreter
// for every candidate config of inductor_configs(), launched on inductor_grid().
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <map>
#include <memory>
#include <random>

#include "inductor_kernel_texts.h"
#include "inductor_run_configs.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/parser.h"

using namespace opforge;
using namespace opforge::compiler;
using namespace opforge::compiler::inductor_texts;
using namespace opforge::compiler::test;

namespace {

HostTensor random(DType d, std::vector<int64_t> sizes, uint32_t seed, double scale = 1.0) {
  HostTensor t(d, std::move(sizes));
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist(0.0, scale);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, dist(rng));
  return t;
}

double bf16(double v) {
  HostTensor t(DType::BFloat16, {1});
  t.set_double(0, v);
  return t.get_double(0);
}

TEST(InductorKernels, LintCleanAsInductorWroteThem) {
  for (auto &[name, text] : all_kernel_texts()) {
    auto findings = lint_source(name + ".py", text);
    for (auto &f : findings) ADD_FAILURE() << name << ": " << format_finding(f);
  }
}

TEST(InductorKernels, HandWrittenKernelsStillMayNotImportInductorOrSetTheDriver) {
  std::string text =
      "import triton\nimport triton.language as tl\n"
      "from torch._inductor.runtime import triton_helpers\n"
      "triton_helpers.set_driver_to_gpu()\n\n"
      "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n\n"
      "def add_Tensor(x):\n    return x\n";
  auto findings = lint_source("hand.py", text);
  std::set<std::string> rules;
  for (auto &f : findings) rules.insert(f.rule);
  EXPECT_TRUE(rules.count("OPF001")) << "the torch._inductor import";
  EXPECT_TRUE(rules.count("OPF109")) << "set_driver_to_gpu() at module level";
  EXPECT_THROW(parse_source("hand.py", text), CompileError);
}

TEST(InductorKernels, InductorKernelsMayNotImportOtherModules) {
  std::string text = kPointwiseGeluBf16;
  text.insert(0, "import os\n");
  auto findings = lint_source("k.py", text);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].rule, "OPF001");
  EXPECT_EQ(findings[0].loc.line, 1);
}

TEST(InductorKernels, PointwiseBf16GeluWithLibdeviceTanh) {
  HostTensor x = random(DType::BFloat16, {256}, 1);
  for (auto &run : run_configs(kPointwiseGeluBf16, {{"in_out_ptr0", x}}, {{"xnumel", 256}})) {
    const HostTensor &y = run.out["in_out_ptr0"];
    for (int64_t i = 0; i < 256; ++i) {
      double v = x.get_double(i);
      double want =
          bf16(0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))));
      ASSERT_NEAR(y.get_double(i), want, std::fabs(want) * 1e-2 + 1e-6)
          << i << " " << run.config.str();
    }
  }
}

TEST(InductorKernels, Pointwise2DTransposeOnGrid2D) {
  // out[y, x] (16 x 128 view of the 128 x 16 input, transposed) for y < 128, x < 16.
  HostTensor in = random(DType::Float32, {16 * 128}, 2), out(DType::Float32, {16 * 128});
  auto runs = run_configs(kPointwiseTranspose2D, {{"in_ptr0", in}, {"out_ptr0", out}},
                          {{"ynumel", 128}, {"xnumel", 16}});
  ASSERT_GE(runs.size(), 2u);
  for (auto &run : runs) {
    const HostTensor &o = run.out["out_ptr0"];
    for (int64_t y = 0; y < 128; ++y)
      for (int64_t x = 0; x < 16; ++x)
        ASSERT_EQ(o.get_double(x + 16 * y), in.get_double(y + 128 * x))
            << y << "," << x << " " << run.config.str();
  }
}

TEST(InductorKernels, PersistentSoftmaxWithMax2AndLibdeviceExp) {
  HostTensor io = random(DType::Float32, {128 * 16}, 3, 2.0);
  for (auto &run :
       run_configs(kPersistentSoftmax, {{"in_out_ptr0", io}}, {{"xnumel", 128}, {"r0_numel", 16}}))
    for (int64_t x = 0; x < 128; ++x) {
      const HostTensor &o = run.out["in_out_ptr0"];
      // Causal mask: column r is -inf where r - (x % 16) >= 1.
      std::vector<double> v(16);
      double top = -HUGE_VAL, sum = 0;
      for (int64_t r = 0; r < 16; ++r) {
        v[r] = r - x % 16 >= 1 ? -HUGE_VAL : io.get_double(r + 16 * x) * 0.25;
        top = std::max(top, v[r]);
      }
      for (int64_t r = 0; r < 16; ++r) sum += std::exp(v[r] - top);
      for (int64_t r = 0; r < 16; ++r)
        ASSERT_NEAR(o.get_double(r + 16 * x), std::exp(v[r] - top) / sum, 1e-6) << x << "," << r;
    }
}

TEST(InductorKernels, PersistentBatchNormStatsWithWelford) {
  // 16 channels of 128 values, given as two partial (mean, m2, weight) of 64 values each
  // (x0 + 16 * r0), combined by triton_helpers.welford: mean, m2 and rsqrt(var + eps).
  HostTensor in = random(DType::Float32, {16 * 128}, 4, 3.0);
  HostTensor pm(DType::Float32, {32}), pq(DType::Float32, {32}), pw(DType::Float32, {32});
  for (int64_t c = 0; c < 16; ++c)
    for (int64_t r = 0; r < 2; ++r) {
      double m = 0, q = 0;
      for (int64_t i = 0; i < 64; ++i) m += in.get_double(c * 128 + r * 64 + i) / 64;
      for (int64_t i = 0; i < 64; ++i) q += std::pow(in.get_double(c * 128 + r * 64 + i) - m, 2);
      pm.set_double(c + 16 * r, m);
      pq.set_double(c + 16 * r, q);
      pw.set_double(c + 16 * r, 64);
    }
  HostTensor mean(DType::Float32, {16}), m2(DType::Float32, {16}), rstd(DType::Float32, {16});
  for (auto &run : run_configs(kPersistentWelford,
                               {{"in_ptr0", pm},
                                {"in_ptr1", pq},
                                {"in_ptr2", pw},
                                {"out_ptr0", mean},
                                {"out_ptr1", m2},
                                {"out_ptr2", rstd}},
                               {{"xnumel", 16}, {"r0_numel", 2}}))
    for (int64_t c = 0; c < 16; ++c) {
      double m = 0, q = 0;
      for (int64_t i = 0; i < 128; ++i) m += in.get_double(c * 128 + i) / 128;
      for (int64_t i = 0; i < 128; ++i) q += std::pow(in.get_double(c * 128 + i) - m, 2);
      EXPECT_NEAR(run.out["out_ptr0"].get_double(c), m, 1e-5) << c;
      EXPECT_NEAR(run.out["out_ptr1"].get_double(c), q, 1e-4 * q) << c;
      EXPECT_NEAR(run.out["out_ptr2"].get_double(c), 1 / std::sqrt(q / 128 + 1e-5), 1e-4) << c;
    }
}

TEST(InductorKernels, LoopedReductionWithWelfordReduceAndASumAcrossConfigs) {
  // 8 rows of 200 (not a multiple of any R0_BLOCK): mean, m2 and sum per row.
  HostTensor in = random(DType::Float32, {8 * 200}, 5, 2.0);
  HostTensor mean(DType::Float32, {8}), m2(DType::Float32, {8}), sum(DType::Float32, {8});
  InductorKernelInfo info = read_inductor_kernel(parse_source("k.py", kLoopedWelford));
  auto configs = inductor_configs(info);
  std::set<int64_t> r_blocks;
  for (auto &c : configs) r_blocks.insert(*c.get("R0_BLOCK"));
  EXPECT_GE(r_blocks.size(), 2u) << "configs differ in R0_BLOCK";
  auto runs = run_configs(
      kLoopedWelford, {{"in_ptr0", in}, {"out_ptr0", mean}, {"out_ptr1", m2}, {"out_ptr2", sum}},
      {{"xnumel", 8}, {"r0_numel", 200}});
  ASSERT_EQ(runs.size(), configs.size());
  for (auto &run : runs)
    for (int64_t x = 0; x < 8; ++x) {
      double m = 0, s = 0, q = 0;
      for (int64_t r = 0; r < 200; ++r) s += in.get_double(r + 200 * x);
      m = s / 200;
      for (int64_t r = 0; r < 200; ++r) q += std::pow(in.get_double(r + 200 * x) - m, 2);
      EXPECT_NEAR(run.out.at("out_ptr0").get_double(x), m, 1e-5) << x;
      EXPECT_NEAR(run.out.at("out_ptr1").get_double(x), q, 1e-4 * q) << x;
      EXPECT_NEAR(run.out.at("out_ptr2").get_double(x), s, 1e-4) << x;
    }
}

TEST(InductorKernels, PersistentArgmaxAndLogSoftmaxWithMaxWithIndexAndTlMath) {
  // 32 rows of 10 (R0_BLOCK 16 masked): argmax (first index of ties) and |log_softmax|.
  HostTensor in = random(DType::Float32, {32 * 10}, 6);
  in.set_double(3 * 10 + 7, 9.0);  // row 3: ties at 2 and 7, the first one wins
  in.set_double(3 * 10 + 2, 9.0);
  HostTensor idx(DType::Int64, {32}), lsm(DType::Float32, {32 * 10});
  for (auto &run : run_configs(kPersistentArgmaxLogSoftmax,
                               {{"in_ptr0", in}, {"out_ptr0", idx}, {"out_ptr1", lsm}},
                               {{"xnumel", 32}, {"r0_numel", 10}}))
    for (int64_t x = 0; x < 32; ++x) {
      int64_t best = 0;
      double sum = 0;
      for (int64_t r = 1; r < 10; ++r)
        if (in.get_double(r + 10 * x) > in.get_double(best + 10 * x)) best = r;
      double top = in.get_double(best + 10 * x);
      for (int64_t r = 0; r < 10; ++r) sum += std::exp(in.get_double(r + 10 * x) - top);
      ASSERT_EQ(run.out["out_ptr0"].get_double(x), best) << x << " " << run.config.str();
      for (int64_t r = 0; r < 10; ++r)
        ASSERT_NEAR(run.out["out_ptr1"].get_double(r + 10 * x),
                    std::fabs(in.get_double(r + 10 * x) - top - std::log(sum)), 1e-5);
    }
}

TEST(InductorKernels, EmbeddingWithDeviceAssertAndClampHelpers) {
  // 20 indices (negative ones wrap, as Python's) into a 50 x 16 table, clamped to [0, 6].
  HostTensor ids(DType::Int64, {20}), table = random(DType::Float32, {50 * 16}, 7, 4.0);
  for (int64_t i = 0; i < 20; ++i) ids.set_int(i, (i * 7) % 50 - (i % 3 == 0 ? 50 : 0));
  HostTensor out(DType::Float32, {20 * 16});
  for (auto &run :
       run_configs(kEmbeddingWithDeviceAssert,
                   {{"in_ptr0", ids}, {"in_ptr1", table}, {"out_ptr0", out}}, {{"xnumel", 320}}))
    for (int64_t i = 0; i < 320; ++i) {
      int64_t row = ids.get_int(i / 16);
      if (row < 0) row += 50;
      double want = std::clamp(table.get_double(i % 16 + 16 * row), 0.0, 6.0);
      ASSERT_EQ(run.out["out_ptr0"].get_double(i), want) << i;
    }
}

TEST(InductorKernels, PersistentCumsumScanOfAOneTuple) {
  // 8 rows of 300 (R0_BLOCK 512): `tmp3, = tl.associative_scan((tmp2,), 1, combine)`.
  HostTensor in = random(DType::Float32, {8 * 300}, 9), out(DType::Float32, {8 * 300});
  for (auto &run : run_configs(kPersistentCumsumScan, {{"in_ptr0", in}, {"out_ptr0", out}},
                               {{"xnumel", 8}, {"r0_numel", 300}}))
    for (int64_t x = 0; x < 8; ++x) {
      double sum = 0;
      for (int64_t r = 0; r < 300; ++r) {
        sum += in.get_double(r + 300 * x);
        ASSERT_NEAR(run.out["out_ptr0"].get_double(r + 300 * x), sum, 1e-4) << x << "," << r;
      }
    }
}

TEST(InductorKernels, DecoratorReadAsLiterals) {
  auto m = parse_source("k.py", kPersistentSoftmax);
  InductorKernelInfo info = read_inductor_kernel(m);
  EXPECT_EQ(info.kernel, "triton_per_fused__softmax_masked_fill_mul_ones_triu_view_2");
  EXPECT_EQ(info.kind, InductorKernelKind::PersistentReduction);
  ASSERT_EQ(info.size_hints.size(), 2u);
  EXPECT_EQ(info.size_hints[0], (std::pair<std::string, int64_t>{"x", 128}));
  EXPECT_EQ(info.size_hints[1], (std::pair<std::string, int64_t>{"r0_", 16}));
  EXPECT_EQ(info.reduction_hint, "INNER");
  EXPECT_EQ(info.grid_type, "Grid1D");
  EXPECT_EQ(info.block_params, std::vector<std::string>{"XBLOCK"});
  EXPECT_EQ(info.mutated_arg_names, std::vector<std::string>{"in_out_ptr0"});
  ASSERT_EQ(info.signature.size(), 4u);
  EXPECT_EQ(info.signature[0].second, "*fp32");
  EXPECT_EQ(info.line, 9);

  auto t = read_inductor_kernel(parse_source("t.py", kPointwiseTranspose2D));
  EXPECT_EQ(t.kind, InductorKernelKind::Pointwise);
  EXPECT_EQ(t.tile_hint, "SQUARE");
  EXPECT_EQ(t.grid_type, "Grid2D");
  EXPECT_EQ(t.block_params, (std::vector<std::string>{"YBLOCK", "XBLOCK"}));
}

TEST(InductorKernels, TheKernelIsTheDecoratedFunctionNotAHelperBeforeIt) {
  std::string text = kPersistentSoftmax;
  auto at = text.find("@triton_heuristics");
  text.insert(at,
              "@triton.jit\ndef _triton_helper_fn_add0(arg0_0, arg1_0):\n"
              "    tmp0 = arg0_0 + arg1_0\n    return tmp0\n\n");
  EXPECT_EQ(read_inductor_kernel(parse_source("k.py", text)).kernel,
            "triton_per_fused__softmax_masked_fill_mul_ones_triu_view_2");
}

TEST(InductorKernels, CandidateConfigsStayWithinHintsAndLocalMemory) {
  InductorTarget small;
  small.local_mem_bytes = 32 * 1024;
  for (auto &[name, text] : all_kernel_texts()) {
    auto info = read_inductor_kernel(parse_source(name + ".py", text));
    for (const InductorTarget &target : {InductorTarget{}, small}) {
      auto configs = inductor_configs(info, target);
      ASSERT_FALSE(configs.empty()) << name;
      EXPECT_LE(configs.size(), 6u) << name;
      for (auto &c : configs) {
        int64_t elems = 1;
        ASSERT_EQ(c.blocks.size(), info.block_params.size()) << name;
        for (auto &[block, v] : c.blocks) {
          EXPECT_EQ(v & (v - 1), 0) << name << " " << c.str() << ": a power of two";
          elems *= v;
        }
        bool one_row = c.get("XBLOCK") == 1;  // the least a persistent reduction can hold
        if (info.kind == InductorKernelKind::PersistentReduction)
          elems *= info.size_hints.back().second;
        if (!(info.kind == InductorKernelKind::PersistentReduction && one_row)) {
          EXPECT_LE(elems * 96, static_cast<int64_t>(target.local_mem_bytes) + 96 * 16)
              << name << " " << c.str();
        }
      }
    }
  }
  // Configs of one kernel differ; the pointwise one spreads 2048 elements over the 64 PEs.
  InductorKernelInfo p = read_inductor_kernel(parse_source("p.py", kPointwiseGeluBf16));
  p.size_hints = {{"x", 2048}};
  auto configs = inductor_configs(p);
  EXPECT_EQ(configs[0].str(), "XBLOCK: 32, num_warps: 1, num_stages: 1");
  EXPECT_GE(configs.size(), 3u);
}

TEST(InductorKernels, GridRules) {
  InductorKernelInfo info;
  info.kernel = "k";
  InductorConfig c;
  c.blocks = {{"XBLOCK", 64}, {"YBLOCK", 8}, {"R0_BLOCK", 32}};
  info.grid_type = "Grid1D";
  EXPECT_EQ(inductor_grid(info, c, {{"xnumel", 1000}}), (std::array<int64_t, 3>{16, 1, 1}));
  info.grid_type = "Grid2D";
  EXPECT_EQ(inductor_grid(info, c, {{"xnumel", 64}, {"ynumel", 17}}),
            (std::array<int64_t, 3>{1, 3, 1}));
  info.grid_type = "Grid2DWithYZOverflow";
  EXPECT_EQ(inductor_grid(info, c, {{"xnumel", 64}, {"ynumel", 8 * 70000}}),
            (std::array<int64_t, 3>{1, 35000, 2}));
  info.grid_type = "SplitScanGrid";
  EXPECT_EQ(inductor_grid(info, c, {{"xnumel", 5}, {"r0_numel", 100}}),
            (std::array<int64_t, 3>{4, 5, 1}));
  info.grid_type = "Grid2D";
  try {
    inductor_grid(info, c, {{"xnumel", 64}});
    ADD_FAILURE() << "no ynumel";
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("ynumel"), std::string::npos) << e.what();
  }
  info.grid_type = "FixedGrid";
  EXPECT_THROW(inductor_grid(info, c, {{"xnumel", 64}}), CompileError);
}

TEST(InductorKernels, SpecialisationFromSignatureAndConfig) {
  auto info = read_inductor_kernel(parse_source("k.py", kLoopedWelford));
  InductorConfig c;
  c.blocks = {{"XBLOCK", 2}, {"R0_BLOCK", 64}};
  Specialization spec = inductor_specialization(info, c);
  EXPECT_EQ(spec.params.at("in_ptr0").kind, ParamSpec::Kind::Pointer);
  EXPECT_EQ(spec.params.at("xnumel").kind, ParamSpec::Kind::Int);
  EXPECT_EQ(spec.params.at("R0_BLOCK").i, 64);
  auto m = parse_source("k.py", kLoopedWelford);
  EXPECT_NO_THROW(lower_kernel(m, info.kernel, spec));
}

// A construct opforge does not support names itself, the kernel and the source line.
void expect_compile_error(const std::string &text, const std::string &needle, int line) {
  try {
    auto m = parse_source("triton_poi_bad.py", text);
    auto info = read_inductor_kernel(m);
    lower_kernel(m, info.kernel, inductor_specialization(info, inductor_configs(info)[0]));
    ADD_FAILURE() << "no error for " << needle;
  } catch (const CompileError &e) {
    std::string what = e.what();
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_EQ(e.loc().line, line) << what;
    EXPECT_NE(what.find("triton_poi_bad.py"), std::string::npos) << what;
  }
}

TEST(InductorKernels, UnsupportedConstructsAreNamedWithTheirLine) {
  std::string text = kEmbeddingWithDeviceAssert;
  auto at = text.find("tmp9 = triton_helpers.promote_to_tensor(tmp8)");
  std::string bad = text;
  bad.replace(at, 45, "tmp9 = triton_helpers.x_grid_barrier(tmp8)");
  int line = static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  expect_compile_error(bad, "triton_helpers.x_grid_barrier", line);

  bad = text;
  bad.replace(at, 45, "tmp9 = libdevice.no_such_function(tmp8)");
  expect_compile_error(bad, "no_such_function", line);

  bad = text;
  bad.replace(bad.find("@triton_heuristics.pointwise("), 29, "@triton_heuristics.fancy(");
  expect_compile_error(bad, "triton_heuristics.fancy", 9);
  try {
    read_inductor_kernel(parse_source("triton_poi_bad.py", bad));
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("triton_poi_fused_embedding_6"), std::string::npos)
        << e.what();
  }
}

// Every kernel of a module in Inductor's form (its async_compile.triton sources) compiles
// for every candidate config.
TEST(InductorKernels, EveryKernelOfAModuleCompilesForEveryConfig) {
  std::string module_text =
      "from torch._inductor.async_compile import AsyncCompile\n"
      "async_compile = AsyncCompile()\n";
  for (auto &[name, text] : all_kernel_texts())
    module_text += name + " = async_compile.triton('" + name + "', \'\'\'\n" + text +
                   "\'\'\', device_str='opforge')\n";
  size_t kernels = 0, compiled = 0;
  for (size_t at = module_text.find("\'\'\'\n"); at != std::string::npos;) {
    size_t end = module_text.find("\'\'\'", at + 4);
    std::string source = module_text.substr(at + 4, end - at - 4);
    at = module_text.find("\'\'\'\n", end + 3);
    ++kernels;
    auto m = parse_source("module.py", source);
    auto info = read_inductor_kernel(m);
    for (auto &c : inductor_configs(info)) {
      lower_kernel(m, info.kernel, inductor_specialization(info, c));
      ++compiled;
    }
  }
  EXPECT_EQ(kernels, all_kernel_texts().size());
  EXPECT_GT(compiled, kernels);
}

}  // namespace
