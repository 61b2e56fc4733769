//===- chip_inductor_kernels_test.cpp - Inductor's kernel sources on the chip model ===//
//
// The kernels of inductor_kernel_texts.h, as Inductor wrote them, compiled for the
// chip and run on the SystemC model (tiny preset) with the first candidate config
// and grid of inductor_heuristics.h: the same tensors as the IR interpreter's.
// A failing tl.device_assert (an index out of bounds) stops the program.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "diff_harness.h"
#include "inductor_kernel_texts.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler::testing {
namespace {

using namespace inductor_texts;

// A DiffCase for `text` (written to a file of the test's temp dir) with `tensors` and
// `scalars` by parameter name, on candidate config `config_index`.
DiffCase inductor_case(const std::string &text, const std::map<std::string, HostTensor> &tensors,
                       const std::map<std::string, int64_t> &scalars, size_t config_index = 0) {
  auto module = parse_source("k.py", text);
  InductorKernelInfo info = read_inductor_kernel(module);
  std::string path = ::testing::TempDir() + "/" + info.kernel + ".py";
  std::ofstream(path) << text;
  auto configs = inductor_configs(info);
  const InductorConfig &config = configs.at(std::min(config_index, configs.size() - 1));
  DiffCase c;
  c.file = path;
  c.kernel = info.kernel;
  for (auto &[name, type] : info.signature) {
    if (type == "constexpr") continue;
    c.signature += (c.signature.empty() ? "" : ",") + name + "=" + type;
    if (tensors.count(name))
      c.args.push_back(KArg::tensor(tensors.at(name)));
    else
      c.args.push_back(KArg::integer(scalars.at(name)));
  }
  for (auto &[name, v] : config.blocks) c.constexprs.push_back(name + "=" + std::to_string(v));
  auto grid = inductor_grid(info, config, scalars);
  c.grid = {grid[0], grid[1], grid[2]};
  return c;
}

HostTensor random(DType d, std::vector<int64_t> sizes, uint32_t seed) {
  return random_tensor(d, std::move(sizes), seed);
}

TEST(ChipInductorKernels, PointwiseBf16Gelu) {
  expect_close(
      inductor_case(kPointwiseGeluBf16, {{"in_out_ptr0", random(DType::BFloat16, {256}, 1)}},
                    {{"xnumel", 256}}),
      1e-2, 1e-3);
}

TEST(ChipInductorKernels, Pointwise2DTransposeEveryConfig) {
  for (size_t k = 0; k < 3; ++k)
    expect_close(inductor_case(kPointwiseTranspose2D,
                               {{"in_ptr0", random(DType::Float32, {2048}, 2)},
                                {"out_ptr0", HostTensor(DType::Float32, {2048})}},
                               {{"ynumel", 128}, {"xnumel", 16}}, k),
                 0, 0);
}

TEST(ChipInductorKernels, PersistentSoftmax) {
  expect_close(
      inductor_case(kPersistentSoftmax, {{"in_out_ptr0", random(DType::Float32, {2048}, 3)}},
                    {{"xnumel", 128}, {"r0_numel", 16}}),
      1e-5, 1e-6);
}

TEST(ChipInductorKernels, PersistentWelfordCombine) {
  HostTensor w(DType::Float32, {32});
  for (int64_t i = 0; i < 32; ++i) w.set_double(i, 64);
  HostTensor q = random(DType::Float32, {32}, 5);
  for (int64_t i = 0; i < 32; ++i) q.set_double(i, std::fabs(q.get_double(i)) * 64);
  expect_close(inductor_case(kPersistentWelford,
                             {{"in_ptr0", random(DType::Float32, {32}, 4)},
                              {"in_ptr1", q},
                              {"in_ptr2", w},
                              {"out_ptr0", HostTensor(DType::Float32, {16})},
                              {"out_ptr1", HostTensor(DType::Float32, {16})},
                              {"out_ptr2", HostTensor(DType::Float32, {16})}},
                             {{"xnumel", 16}, {"r0_numel", 2}}),
               1e-5, 1e-5);
}

TEST(ChipInductorKernels, LoopedWelfordReduce) {
  expect_close(inductor_case(kLoopedWelford,
                             {{"in_ptr0", random(DType::Float32, {1600}, 6)},
                              {"out_ptr0", HostTensor(DType::Float32, {8})},
                              {"out_ptr1", HostTensor(DType::Float32, {8})},
                              {"out_ptr2", HostTensor(DType::Float32, {8})}},
                             {{"xnumel", 8}, {"r0_numel", 200}}),
               1e-4, 1e-4);
}

TEST(ChipInductorKernels, PersistentArgmaxLogSoftmax) {
  expect_close(inductor_case(kPersistentArgmaxLogSoftmax,
                             {{"in_ptr0", random(DType::Float32, {320}, 7)},
                              {"out_ptr0", HostTensor(DType::Int64, {32})},
                              {"out_ptr1", HostTensor(DType::Float32, {320})}},
                             {{"xnumel", 32}, {"r0_numel", 10}}),
               1e-5, 1e-5);
}

TEST(ChipInductorKernels, PersistentCumsumScan) {
  expect_close(inductor_case(kPersistentCumsumScan,
                             {{"in_ptr0", random(DType::Float32, {2400}, 9)},
                              {"out_ptr0", HostTensor(DType::Float32, {2400})}},
                             {{"xnumel", 8}, {"r0_numel", 300}}),
               1e-5, 1e-5);
}

HostTensor embedding_ids(int64_t bad) {
  HostTensor ids(DType::Int64, {20});
  for (int64_t i = 0; i < 20; ++i) ids.set_int(i, (i * 7) % 50 - (i % 3 == 0 ? 50 : 0));
  if (bad) ids.set_int(5, bad);
  return ids;
}

TEST(ChipInductorKernels, EmbeddingWithDeviceAssert) {
  expect_close(inductor_case(kEmbeddingWithDeviceAssert,
                             {{"in_ptr0", embedding_ids(0)},
                              {"in_ptr1", random(DType::Float32, {800}, 8)},
                              {"out_ptr0", HostTensor(DType::Float32, {320})}},
                             {{"xnumel", 320}}),
               0, 0);
}

TEST(ChipInductorKernels, FailingDeviceAssertStopsTheProgramAtItsLine) {
  DiffCase c = inductor_case(kEmbeddingWithDeviceAssert,
                             {{"in_ptr0", embedding_ids(57)},
                              {"in_ptr1", random(DType::Float32, {800}, 8)},
                              {"out_ptr0", HostTensor(DType::Float32, {320})}},
                             {{"xnumel", 320}});
  try {
    run_interp(c);
    ADD_FAILURE() << "the interpreter ran past the failing assert";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("index out of bounds"), std::string::npos) << e.what();
  }
  ChipRun chip = run_chip(device(), c, /*bounds_checked=*/false);
  ASSERT_FALSE(chip.launch.ok()) << "the chip ran past the failing assert";
  ASSERT_FALSE(chip.launch.traps.empty());
  const std::string &trap = chip.launch.traps.front();
  EXPECT_NE(trap.find("breakpoint"), std::string::npos) << trap;
  // The trap's PC is the tl.device_assert line of the source.
  auto at = trap.find("pc=0x");
  ASSERT_NE(at, std::string::npos) << trap;
  uint64_t pc = std::stoull(trap.substr(at + 5), nullptr, 16);
  const SourceLine *line = compile_binary(c).line_at(pc);
  ASSERT_NE(line, nullptr) << trap;
  std::string text = kEmbeddingWithDeviceAssert;
  int assert_line = static_cast<int>(
      std::count(text.begin(), text.begin() + text.find("tl.device_assert"), '\n') + 1);
  EXPECT_EQ(static_cast<int>(line->line), assert_line) << trap;
}

}  // namespace
}  // namespace opforge::compiler::testing
