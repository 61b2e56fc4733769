//===- isa_agreement.cpp - RTL blocks agree with the ISA numerics -===//
//
// Built only when opforge_isa exists: the RTL references (sfu_ref.h,
// dpe_reference) and the verilated blocks against the definitions the ISS
// uses, so `rtl` and `lockstep` runs can agree with `tlm`.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "dpe_test_util.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/sfu_math.h"
#include "opforge/rtl/dpe_lockstep.h"
#include "opforge/rtl/sfu_lane_rtl.h"
#include "opforge/rtl/sfu_ref.h"

namespace opforge::rtl::testing {
namespace {

using isa::DpeDType;

TEST(IsaAgreement, SfuModelEqualsIsaSfuMathForExpAndRecipAtEveryPrecision) {
  int64_t differ = 0, total = 0;
  for (unsigned prec : {0u, 1u, 7u, 10u, 16u, 22u}) {
    for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 16381) {
      const uint32_t x = static_cast<uint32_t>(bits);
      const float xf = std::bit_cast<float>(x);
      const uint32_t exp_isa =
          std::bit_cast<uint32_t>(isa::sfu::evaluate(isa::SfuFunc::Exp, xf, prec));
      const uint32_t recip_isa =
          std::bit_cast<uint32_t>(isa::sfu::evaluate(isa::SfuFunc::Recip, xf, prec));
      if (sfu_ref_bits(kSfuFuncExp, prec, x) != exp_isa && ++differ <= 5)
        ADD_FAILURE() << std::hex << "exp prec " << std::dec << prec << std::hex << " x=0x" << x;
      if (sfu_ref_bits(kSfuFuncRecip, prec, x) != recip_isa && ++differ <= 5)
        ADD_FAILURE() << std::hex << "recip prec " << std::dec << prec << std::hex << " x=0x" << x;
      total += 2;
    }
  }
  EXPECT_EQ(differ, 0) << "of " << total;
}

TEST(IsaAgreement, SfuLaneEqualsIsaSfuMath) {
  std::mt19937 rng(41);
  std::vector<uint32_t> x(20000);
  for (auto &v : x) v = static_cast<uint32_t>(rng());
  SfuLaneRtl lane;
  for (unsigned prec : {0u, 7u}) {
    for (auto [func, fn] : {std::pair{kSfuFuncExp, isa::SfuFunc::Exp},
                            std::pair{kSfuFuncRecip, isa::SfuFunc::Recip}}) {
      const SfuLaneRunResult res = lane.run(func, prec, x);
      for (size_t i = 0; i < x.size(); ++i) {
        const float want = isa::sfu::evaluate(fn, std::bit_cast<float>(x[i]), prec);
        ASSERT_EQ(res.y_bits[i], std::bit_cast<uint32_t>(want)) << std::hex << "x=0x" << x[i];
      }
    }
  }
}

// The ISS's functional DPE on the same memory image as the RTL block.
TEST(IsaAgreement, DpeRtlEqualsFunctionalAcceleratorOnRandomMatmuls) {
  std::mt19937 rng(43);
  DpeRtl rtl;
  int commands = 0;
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16, DpeDType::INT8}) {
    for (auto [m, n, k] :
         {std::tuple{5u, 7u, 9u}, std::tuple{16u, 3u, 40u}, std::tuple{1u, 17u, 5u}}) {
      for (bool acc : {false, true}) {
        DpeCase tc(t, m, n, k, acc);
        // Random finite operands (NaN payloads are the one allowed difference).
        for (size_t i = 0; i + 1 < tc.mem.size(); i += 2) {
          uint16_t v = static_cast<uint16_t>(rng());
          if (t == DpeDType::BF16)
            v = static_cast<uint16_t>((v & 0x807F) | ((115 + rng() % 25) << 7));
          if (t == DpeDType::FP16)
            v = static_cast<uint16_t>((v & 0x83FF) | ((8 + rng() % 15) << 10));
          std::memcpy(&tc.mem[i], &v, 2);
        }
        for (uint32_t i = 0; i < m; ++i)
          for (uint32_t j = 0; j < n; ++j)
            tc.set_c(i, j,
                     t == DpeDType::INT8
                         ? static_cast<uint32_t>(rng())
                         : std::bit_cast<uint32_t>(static_cast<float>(rng() % 201) - 100.0f));
        isa::FlatMemory flat(DpeCase::kBase, tc.mem.size());
        ASSERT_TRUE(flat.store(DpeCase::kBase, tc.mem.data(), tc.mem.size()));
        isa::FunctionalAccelerator accel(flat);
        ASSERT_TRUE(accel.dpe_issue(tc.cmd).ok);
        ASSERT_TRUE(accel.dpe_wait().ok);
        std::vector<uint8_t> iss_mem(tc.mem.size());
        ASSERT_TRUE(flat.load(DpeCase::kBase, iss_mem.data(), iss_mem.size()));
        const DpeRunResult run = rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
        const DpeLockstepResult cmp = compare_dpe_results(
            tc.cmd, rtl.array_shape(), iss_mem, tc.mem, DpeCase::kBase, run.cycles, run.cycles);
        EXPECT_TRUE(cmp.ok()) << cmp.report(tc.cmd);
        ++commands;
      }
    }
  }
  EXPECT_EQ(commands, 18);
}

}  // namespace
}  // namespace opforge::rtl::testing
