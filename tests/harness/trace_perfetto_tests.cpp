// trace_perfetto_tests.cpp - `opforge trace` writes valid Chrome trace-event JSON of a real point.
#include <set>

#include "runner_sampled_point.h"

using namespace opforge;
using nlohmann::json;

namespace {

class TracePerfetto : public runner_test::RunnerDir {};

TEST_F(TracePerfetto, PointBecomesTrackPerPeAndUnitWithCounterTracks) {
  auto results = runner_test::sampled_sweep(*this);
  auto out = dir_ / "t.json";
  ASSERT_EQ(opforge("trace " + results.string() + " --point 1 --perfetto " + out.string()), 0)
      << err_;
  json t = json::parse(slurp(out));  // throws on invalid JSON
  ASSERT_TRUE(t["traceEvents"].is_array());
  std::set<std::string> threads;
  size_t programs = 0, units = 0, counters = 0;
  for (const auto &e : t["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid")) << e.dump();
    std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"]);
    if (ph == "X") {
      EXPECT_GE(e["ts"].get<double>(), 0) << e.dump();
      EXPECT_GT(e["dur"].get<double>(), 0) << e.dump();
      if (e["cat"] == "program") ++programs;
      if (e["cat"] == "dma") ++units;
    }
    if (ph == "C") ++counters;
  }
  EXPECT_EQ(programs, 4u);  // one program instance per PE of the 2x2 chip
  EXPECT_TRUE(threads.count("pe[0][0] core")) << threads.size();
  EXPECT_TRUE(threads.count("pe[1][1] core"));
  EXPECT_TRUE(threads.count("pe[0][0] dma"));
  EXPECT_GE(units, 4u);      // DMA busy slices: at least one per PE
  EXPECT_GT(counters, 10u);  // sampled counter tracks
  EXPECT_EQ(t["otherData"]["point"], 1);
  EXPECT_EQ(t["otherData"]["axis_values"]["pe.dma.engines"], 2);
  // Python's json module accepts it too (what trace viewers parse).
  ASSERT_EQ(
      python("import json, sys\nd = json.load(open(sys.argv[1]))\nprint(len(d['traceEvents']))\n",
             out.string()),
      0)
      << py_;
}

TEST_F(TracePerfetto, MissingPointOrFileIsAnErrorNamingIt) {
  auto results = runner_test::sampled_sweep(*this);
  EXPECT_EQ(
      opforge("trace " + results.string() + " --point 9 --perfetto " + (dir_ / "x.json").string()),
      1);
  EXPECT_NE(err_.find("no point 9"), std::string::npos) << err_;
  EXPECT_EQ(opforge("trace " + (dir_ / "nope.h5").string() + " --point 0 --perfetto x.json"), 1);
  EXPECT_NE(err_.find("nope.h5"), std::string::npos) << err_;
  EXPECT_EQ(opforge("trace " + results.string()), 2);
}

}  // namespace
