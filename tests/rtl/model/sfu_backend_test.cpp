//===- sfu_backend_test.cpp - pe.sfu.impl=rtl|lockstep: the verilated SFU lane in the chip model -===//
//
// Each test case builds one Device (SystemC elaborates once per process;
// ctest runs every case in its own process). The kernel is tests/model's
// sfu_exp.S: out[i] = exp(in[i]) with vfexp.v over the whole vector.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "dpe_model_test_util.h"
#include "opforge/rtl/dpe_backends.h"
#include "opforge/rtl/sfu_backends.h"
#include "opforge/rtl/sfu_ref.h"
#include "opforge/support/error.h"

namespace opforge::rtl::testing {
namespace {

constexpr uint64_t kElements = 1024;

// Inputs over exp's whole range: overflow, underflow to subnormals and zero,
// both signs, and the special values.
std::vector<uint32_t> exp_inputs() {
  std::vector<uint32_t> x(kElements);
  for (uint64_t i = 0; i < kElements; ++i)
    x[i] = std::bit_cast<uint32_t>(-110.0f + 200.0f * float(i) / float(kElements) +
                                   float(i % 7) * 0.013f);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), 1e-40f, -1e-40f,
                            88.72f, -103.9f, std::numeric_limits<float>::quiet_NaN()};
  for (size_t i = 0; i < std::size(specials); ++i) x[i * 97] = std::bit_cast<uint32_t>(specials[i]);
  return x;
}

struct SfuRun {
  model::LaunchResult launch;
  std::vector<uint32_t> y;
};

SfuRun run_exp(model::Device &dev, const std::vector<uint32_t> &x) {
  const uint64_t din = dev.alloc(x.size() * 4), dout = dev.alloc(x.size() * 4),
                 dprec = dev.alloc(8);
  dev.copy_in(din, x.data(), x.size() * 4);
  model::KernelLaunch k;
  k.image = model::read_elf_file(model::testing::kernel("sfu_exp"));
  const uint64_t args[4] = {din, dout, x.size(), dprec};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  SfuRun r;
  r.launch = dev.launch(k);
  r.y.resize(x.size());
  dev.copy_out(dout, r.y.data(), r.y.size() * 4);
  return r;
}

class SfuLockstepKernel : public ::testing::TestWithParam<unsigned> {};

// Every element of every vfexp.v equals the ISS's exp (no divergence stops
// the run) and the lane's bit-exact model; the SFU's busy time is the lane
// stream's, ceil(vl / lanes) + 1 per instruction.
TEST_P(SfuLockstepKernel, ExpKernelHasNoDivergenceAndBooksTheLaneCycles) {
  const unsigned prec = GetParam();
  register_model_backends();
  model::Device dev(model::load_params(
      "tiny", {"pe.sfu.impl=lockstep", "pe.sfu.precision_bits=" + std::to_string(prec)}));
  const std::vector<uint32_t> x = exp_inputs();
  SfuRun r = run_exp(dev, x);
  ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  for (uint64_t i = 0; i < kElements; ++i) {
    const uint32_t want = sfu_ref_bits(kSfuFuncExp, prec, x[i]);
    if (std::isnan(std::bit_cast<float>(want))) {
      EXPECT_TRUE(std::isnan(std::bit_cast<float>(r.y[i]))) << i;
    } else {
      ASSERT_EQ(r.y[i], want) << "element " << i << " x=" << std::bit_cast<float>(x[i]);
    }
  }
  const uint64_t ops = dev.counter("pe[0][0].sfu.ops");
  ASSERT_GT(ops, 0u);
  EXPECT_EQ(dev.counter("pe[0][0].sfu.elements"), kElements);
  ASSERT_EQ(kElements % ops, 0u);  // every instruction ran a full vector
  const uint64_t vl = kElements / ops, lanes = dev.params().sfu.elements_per_cycle;
  EXPECT_EQ(dev.counter("pe[0][0].sfu.busy_cycles"), ops * ((vl + lanes - 1) / lanes + 1));
}

INSTANTIATE_TEST_SUITE_P(Precisions, SfuLockstepKernel, ::testing::Values(0u, 7u, 16u));

TEST(SfuLockstep, InjectedFaultStopsTheRunWithAPreciseReport) {
  RtlBackendOptions o;
  o.sfu_inject_fault = true;
  register_model_backends(o);
  model::Device dev(model::load_params("tiny", {"pe.sfu.impl=lockstep"}));
  std::vector<uint32_t> x = exp_inputs();
  x[0] = std::bit_cast<uint32_t>(1.0f);
  SfuRun r = run_exp(dev, x);
  ASSERT_FALSE(r.launch.ok());
  const std::string &msg = r.launch.traps.front();
  EXPECT_NE(msg.find("SFU lockstep divergence at pe[0][0] sfu instruction #0 at pc 0x"),
            std::string::npos)
      << msg;
  // e = 0x402df854 in fp32; the broken lane flips its last bit.
  EXPECT_NE(msg.find("exp prec 0 element 0: input 0x3f800000 (1) expected 0x402df854"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("got 0x402df855"), std::string::npos) << msg;
  EXPECT_NE(msg.find("elements differ (expected: tlm, got: rtl)"), std::string::npos) << msg;
  register_model_backends();  // healthy again for later users of this process
}

// With pe.sfu.impl=rtl the lane's results are the ones written: a broken
// lane's results reach memory (and the healthy ISS results do not).
TEST(SfuRtl, ResultsAreTheLanes) {
  RtlBackendOptions o;
  o.sfu_inject_fault = true;
  register_model_backends(o);
  model::Device dev(model::load_params("tiny", {"pe.sfu.impl=rtl"}));
  const std::vector<uint32_t> x = exp_inputs();
  SfuRun r = run_exp(dev, x);
  ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  int flipped = 0;
  for (uint64_t i = 0; i < kElements; ++i) {
    const uint32_t healthy = sfu_ref_bits(kSfuFuncExp, 0, x[i]);
    const bool finite_nonzero = (healthy & 0x7F800000u) != 0x7F800000u && (healthy << 1) != 0;
    if (finite_nonzero) {
      ASSERT_EQ(r.y[i], healthy ^ 1u) << i;
      ++flipped;
    }
  }
  EXPECT_GT(flipped, 500);
  register_model_backends();
}

TEST(SfuBackend, UnknownImplIsAnErrorNamingTheFieldAndTlmHasNoBackend) {
  register_model_backends();
  const model::ChipParams p = model::load_params("tiny");
  try {
    (void)model::make_sfu_backend("gate-level", p, 0, 0);
    FAIL() << "an unregistered SFU implementation was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "pe.sfu.impl");
    EXPECT_NE(std::string(e.what()).find("gate-level"), std::string::npos) << e.what();
  }
  EXPECT_EQ(model::make_sfu_backend("tlm", p, 0, 0), nullptr);
  EXPECT_NE(model::make_sfu_backend("rtl", p, 0, 0), nullptr);
}

}  // namespace
}  // namespace opforge::rtl::testing
