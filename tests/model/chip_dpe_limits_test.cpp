//===- chip_dpe_limits_test.cpp - DPE commands beyond pe.dpe.tile_max_* trap ===//
#include <gtest/gtest.h>

#include <sstream>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using isa::DpeDType;

// A bf16 m x n x k command with packed operands at the bottom of local memory.
isa::DpeCommand command(const ChipParams &p, uint32_t m, uint32_t n, uint32_t k) {
  const uint64_t la = p.map.local_alias_base;
  const uint64_t a = la, b = a + uint64_t(m) * k * 2, c = b + uint64_t(k) * n * 2;
  return isa::DpeCommand{a, b, c, m, n, k, k, n, n, DpeDType::BF16, false};
}

TEST(ChipDpeLimits, TileAtTheLimitRuns) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  const auto &d = p.dpe;
  LaunchResult r = dev.launch(testing::CmdList()
                                  .dpe(command(p, d.tile_max_m, d.tile_max_n, d.tile_max_k))
                                  .dpe_wait()
                                  .launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  EXPECT_EQ(dev.counter("pe[0][0].dpe.commands"), 1u);
  EXPECT_EQ(dev.counter("pe[0][0].dpe.bad_descriptors"), 0u);
}

struct Over {
  const char *dim;
  uint32_t m, n, k;
};

class ChipDpeOverLimit : public ::testing::TestWithParam<Over> {};

TEST_P(ChipDpeOverLimit, TrapNamesPePcDimensionAndLimit) {
  ChipParams p = testing::preset("tiny");
  ASSERT_EQ(p.dpe.tile_max_m, 16u);  // the figures below are tiny's limits
  ASSERT_EQ(p.dpe.tile_max_n, 16u);
  ASSERT_EQ(p.dpe.tile_max_k, 16u);
  Device dev(p);
  const Over o = GetParam();
  LaunchResult r =
      dev.launch(testing::CmdList().dpe(command(p, o.m, o.n, o.k)).dpe_wait().launch());
  ASSERT_EQ(r.traps.size(), 1u);
  const std::string &t = r.traps[0];
  const uint32_t value = std::string(o.dim) == "m" ? o.m : std::string(o.dim) == "n" ? o.n : o.k;
  const std::string why = std::string("tile ") + o.dim + " = " + std::to_string(value) +
                          " exceeds pe.dpe.tile_max_" + o.dim + " = 16";
  EXPECT_NE(t.find(why), std::string::npos) << t;
  EXPECT_NE(t.find("pe[0][0]"), std::string::npos) << t;
  std::ostringstream pc;
  pc << "pc=0x" << std::hex << r.instances[0].pc;
  EXPECT_NE(t.find(pc.str()), std::string::npos) << t;
  EXPECT_NE(r.instances[0].pc, 0u);
  // Nothing ran: the command never reached the DPE.
  EXPECT_EQ(dev.counter("pe[0][0].dpe.commands"), 0u);
  EXPECT_EQ(dev.counter("pe[0][0].dpe.macs"), 0u);
  EXPECT_EQ(dev.counter("pe[0][0].dpe.bad_descriptors"), 1u);
}

INSTANTIATE_TEST_SUITE_P(Tiny, ChipDpeOverLimit,
                         ::testing::Values(Over{"m", 17, 8, 8}, Over{"n", 8, 32, 8},
                                           Over{"k", 16, 16, 64}),
                         [](const ::testing::TestParamInfo<Over> &i) {
                           return std::string(i.param.dim);
                         });

TEST(ChipDpeLimits, LimitsFollowTheConfiguration) {
  // The same 32-deep command is fine once the preset allows it.
  ChipParams p = testing::preset("tiny", {"pe.dpe.tile_max_k=32"});
  Device dev(p);
  LaunchResult r = dev.launch(testing::CmdList().dpe(command(p, 8, 8, 32)).dpe_wait().launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  EXPECT_EQ(dev.counter("pe[0][0].dpe.macs"), 8u * 8u * 32u);
}

}  // namespace
}  // namespace opforge::model
