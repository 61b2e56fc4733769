//===- chip_sfu_timing_test.cpp - SFU precision changes SFU time ----------===//
//
// One Device per process: each precision runs in a child process (this
// binary, filtered to ChipSfuTimingChild) that writes the SFU busy cycles,
// the core's cycles and the results to a file; the parent compares them.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

constexpr uint64_t kElements = 4096;

TEST(ChipSfuTimingChild, Workload) {
  const char *out_path = std::getenv("MODEL_SFU_OUT");
  const char *bits = std::getenv("MODEL_SFU_BITS");
  if (!out_path || !bits) GTEST_SKIP() << "runs as a child of ChipSfuTiming";
  ChipParams p = testing::preset(
      "tiny", {std::string("pe.sfu.precision_bits=") + bits, "pe.sfu.bits_per_pass=8"});
  Device dev(p);
  std::vector<float> in(kElements), out(kElements);
  for (uint64_t i = 0; i < kElements; ++i) in[i] = -4.0f + 8.0f * float(i) / float(kElements);
  uint64_t din = dev.alloc(kElements * 4), dout = dev.alloc(kElements * 4), dprec = dev.alloc(8);
  dev.copy_in(din, in.data(), kElements * 4);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("sfu_exp"));
  uint64_t args[4] = {din, dout, kElements, dprec};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  LaunchResult r = dev.launch(k);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  dev.copy_out(dout, out.data(), kElements * 4);
  std::ofstream f(out_path);
  f << dev.counter("pe[0][0].sfu.busy_cycles") << " " << dev.counter("pe[0][0].core.cycles") << " "
    << dev.counter("pe[0][0].sfu.elements") << "\n";
  for (float v : out) f << std::hexfloat << v << "\n";
}

struct SfuRunResult {
  uint64_t busy = 0, core = 0, elements = 0;
  std::vector<float> out;
};

SfuRunResult run_child(int bits) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  EXPECT_GT(n, 0);
  const std::string exe(buf, size_t(n > 0 ? n : 0));
  const std::string file = ::testing::TempDir() + "sfu_timing_" + std::to_string(bits) + ".txt";
  const std::string cmd = "MODEL_SFU_OUT=" + file + " MODEL_SFU_BITS=" + std::to_string(bits) +
                          " " + exe + " --gtest_filter=ChipSfuTimingChild.Workload >/dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  SfuRunResult r;
  std::ifstream in(file);
  in >> r.busy >> r.core >> r.elements;
  std::string v;
  while (in >> v) r.out.push_back(std::strtof(v.c_str(), nullptr));
  return r;
}

TEST(ChipSfuTiming, FewerPrecisionBitsCostFewerSfuAndCoreCycles) {
  SfuRunResult exact = run_child(0), p15 = run_child(15), p7 = run_child(7);
  ASSERT_EQ(exact.elements, kElements);
  ASSERT_EQ(exact.out.size(), kElements);
  // tiny: 4 elements/cycle at exact precision; 8-bit passes: exact 3 passes,
  // 15 mantissa bits 2, 7 bits 1.
  EXPECT_EQ(exact.busy, kElements / 4);
  EXPECT_EQ(p15.busy, exact.busy * 2 / 3);
  EXPECT_EQ(p7.busy, exact.busy / 3);
  // The core waits on the SFU: the kernel's time falls by the cycles saved.
  EXPECT_LT(p15.core, exact.core);
  EXPECT_LT(p7.core, p15.core);
  EXPECT_GE(exact.core - p7.core, exact.busy / 2);
  // Precision changes the values as before (ISS numerics), exact stays exact.
  for (uint64_t i = 0; i < kElements; i += 97) {
    const float x = -4.0f + 8.0f * float(i) / float(kElements);
    EXPECT_NEAR(exact.out[i], std::exp(x), 2e-6 * std::exp(x)) << i;
    EXPECT_NEAR(p7.out[i], std::exp(x), std::ldexp(std::exp(x), -7)) << i;
  }
}

}  // namespace
}  // namespace opforge::model
