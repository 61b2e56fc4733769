//===- chip_sfu_test.cpp - SFU precision setting and accounting -----------===//
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

struct SfuRun {
  std::vector<float> in, out;
  uint64_t prec_csr = 0;
  LaunchResult result;
};

SfuRun run_exp(Device &dev, uint64_t n) {
  SfuRun s;
  for (uint64_t i = 0; i < n; ++i) s.in.push_back(-4.0f + 8.0f * float(i) / float(n));
  s.out.assign(n, 0);
  uint64_t din = dev.alloc(n * 4), dout = dev.alloc(n * 4), dprec = dev.alloc(8);
  dev.copy_in(din, s.in.data(), n * 4);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("sfu_exp"));
  uint64_t args[4] = {din, dout, n, dprec};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  s.result = dev.launch(k);
  dev.copy_out(dout, s.out.data(), n * 4);
  dev.copy_out(dprec, &s.prec_csr, 8);
  return s;
}

TEST(ChipSfu, ExactPrecisionMatchesExpAndIsCounted) {
  ChipParams p = testing::preset("tiny", {"pe.sfu.precision_bits=0"});
  Device dev(p);
  const uint64_t n = 100;
  SfuRun s = run_exp(dev, n);
  ASSERT_TRUE(s.result.ok()) << s.result.traps.front();
  EXPECT_EQ(s.prec_csr, 0u);
  for (uint64_t i = 0; i < n; ++i)
    EXPECT_NEAR(s.out[i], std::exp(s.in[i]), 2e-6 * std::exp(s.in[i])) << "element " << i;
  EXPECT_EQ(dev.counter("pe[0][0].sfu.elements"), n);
  uint64_t vlmax = p.core.vlen_bits / 32;
  EXPECT_EQ(dev.counter("pe[0][0].sfu.ops"), (n + vlmax - 1) / vlmax);
  EXPECT_GE(dev.counter("pe[0][0].sfu.busy_cycles"), n / p.sfu.elements_per_cycle);
}

TEST(ChipSfu, ReducedPrecisionIsVisibleToTheGuestAndBoundsTheError) {
  ChipParams p = testing::preset("tiny", {"pe.sfu.precision_bits=8"});
  Device dev(p);
  const uint64_t n = 64;
  SfuRun s = run_exp(dev, n);
  ASSERT_TRUE(s.result.ok()) << s.result.traps.front();
  EXPECT_EQ(s.prec_csr, 8u);
  int differ = 0;
  for (uint64_t i = 0; i < n; ++i) {
    float exact = std::exp(s.in[i]);
    EXPECT_NEAR(s.out[i], exact, std::ldexp(exact, -8)) << "element " << i;
    differ += s.out[i] != exact;
  }
  EXPECT_GT(differ, 0) << "8 mantissa bits should change some results";
}

}  // namespace
}  // namespace opforge::model
