// triage_point_tests.cpp - `opforge triage` on a real DMA-streaming point.
#include "opforge/harness/results.h"
#include "runner_sampled_point.h"

using namespace opforge;

namespace {

class TriagePoint : public runner_test::RunnerDir {};

TEST_F(TriagePoint, NamesBottleneckUtilizationStallsRooflineAndSuggestions) {
  auto results = runner_test::sampled_sweep(*this);
  ASSERT_EQ(opforge("triage " + results.string() + " --point 0"), 0) << err_;
  for (const char *s : {"bottleneck:", "utilization per unit:", "stalls by cause",
                        "roofline:", "suggestions (config changes", "  1. ", "dram", "dma"})
    EXPECT_NE(out_.find(s), std::string::npos) << s << "\n" << out_;
  // The analysis agrees with the counters: a DMA stream moves bytes through DRAM.
  harness::PointResult r = harness::read_result_point(results, 0);
  harness::PointAnalysis a = harness::analyze_point(r);
  EXPECT_GT(a.dram_bytes, 4u * 16384u - 1);  // every PE read its 16 KiB at least once
  EXPECT_GT(a.roofline_fraction, 0.0);
  EXPECT_LE(a.roofline_fraction, 1.0 + 1e-9);
  EXPECT_FALSE(a.suggestions.empty());
  EXPECT_LE(a.suggestions.size(), 3u);
  for (const auto &u : a.units) {
    EXPECT_GE(u.utilization, 0.0) << u.unit;
    EXPECT_LE(u.utilization, 1.0) << u.unit;
  }
  EXPECT_NE(a.bottleneck, "none");
}

TEST_F(TriagePoint, UsageErrors) {
  EXPECT_EQ(opforge("triage"), 2);
  EXPECT_EQ(opforge("triage x.h5 --point -1"), 2);
  EXPECT_EQ(opforge("triage " + (dir_ / "missing.h5").string() + " --point 0"), 1);
  EXPECT_NE(err_.find("missing.h5"), std::string::npos) << err_;
}

}  // namespace
