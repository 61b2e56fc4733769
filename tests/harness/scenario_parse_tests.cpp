// scenario_parse_tests.cpp - scenario validation and sweep expansion (lists, ranges, zip, errors).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels";

json base_doc() {
  return json::parse(R"({"name": "t", "arch": "tiny",
    "workloads": [{"kind": "asm", "path": "spin.S", "args": [10]}]})");
}

Scenario parse(const json &doc) { return parse_scenario(doc, "t.json", kKernels); }

// The error message of parsing `doc` ("" if it parses).
std::string error_of(const json &doc) {
  try {
    parse(doc);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioParse, ListAxisTimesWorkloadsGivesProductInOrder) {
  json d = base_doc();
  d["sweep"] = json::parse(R"([{"field": "pe.dma.engines", "values": [1, 2, 4]}])");
  d["workloads"].push_back(json::parse(R"({"name": "w2", "kind": "asm", "path": "spin.S"})"));
  auto pts = expand_sweep(parse(d));
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(pts[0].axis_values[0].second, 1);
  EXPECT_EQ(pts[0].workload, 0u);
  EXPECT_EQ(pts[1].workload, 1u);
  EXPECT_EQ(pts[5].axis_values[0].second, 4);
  EXPECT_EQ(pts[5].index, 5u);
}

TEST(ScenarioParse, StepAndFactorRangesIncludeStop) {
  json d = base_doc();
  d["sweep"] =
      json::parse(R"([{"field": "pe_grid.rows", "values": {"start": 1, "stop": 4, "step": 1}},
                               {"field": "dram.channels", "values": {"start": 2, "stop": 16, "factor": 2}}])");
  Scenario s = parse(d);
  ASSERT_EQ(s.axes.size(), 2u);
  ASSERT_EQ(s.axes[0].values.size(), 4u);
  EXPECT_EQ(s.axes[0].values[3][0], 4);
  ASSERT_EQ(s.axes[1].values.size(), 4u);
  EXPECT_EQ(s.axes[1].values[0][0], 2);
  EXPECT_EQ(s.axes[1].values[3][0], 16);
  EXPECT_EQ(expand_sweep(s).size(), 16u);
}

TEST(ScenarioParse, ZippedAxesStepTogether) {
  json d = base_doc();
  d["sweep"] = json::parse(R"([{"zip": {"pe_grid.rows": [2, 4, 8], "pe_grid.cols": [2, 4, 8]}}])");
  auto pts = expand_sweep(parse(d));
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[2].axis_values.size(), 2u);
  for (const auto &[k, v] : pts[2].axis_values) EXPECT_EQ(v, 8) << k;
}

TEST(ScenarioParse, PointDocumentCarriesOverridesAxesAndTiming) {
  json d = base_doc();
  d["overrides"] = {{"dram.channels", 4}};
  d["timing"] = "functional";
  d["sweep"] = json::parse(R"([{"field": "pe_grid.cols", "values": [3]}])");
  Scenario s = parse(d);
  json doc = point_arch_document(s, expand_sweep(s)[0]);
  EXPECT_EQ(doc["dram"]["channels"], 4);
  EXPECT_EQ(doc["pe_grid"]["cols"], 3);
  EXPECT_EQ(doc["simulation"]["timing_mode"], "functional");
}

TEST(ScenarioParse, UnknownSweepFieldIsNamed) {
  json d = base_doc();
  d["sweep"] = json::parse(R"([{"field": "dram.channelz", "values": [1]}])");
  std::string e = error_of(d);
  EXPECT_NE(e.find("dram.channelz"), std::string::npos) << e;
  EXPECT_NE(e.find("/sweep/0/field"), std::string::npos) << e;
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
}

TEST(ScenarioParse, EmptySweepAxisIsNamed) {
  json d = base_doc();
  d["sweep"] = json::parse(R"([{"field": "dram.channels", "values": []}])");
  std::string e = error_of(d);
  EXPECT_NE(e.find("empty sweep"), std::string::npos) << e;
  EXPECT_NE(e.find("/sweep/0/values"), std::string::npos) << e;
  d["sweep"] =
      json::parse(R"([{"field": "dram.channels", "values": {"start": 8, "stop": 4, "step": 1}}])");
  EXPECT_NE(error_of(d).find("empty sweep"), std::string::npos);
}

TEST(ScenarioParse, NoWorkloadsIsAnEmptySweep) {
  json d = base_doc();
  d["workloads"] = json::array();
  EXPECT_NE(error_of(d).find("/workloads"), std::string::npos);
}

TEST(ScenarioParse, UnknownTopLevelAndNestedFieldsRejectedWithPath) {
  json d = base_doc();
  d["sweeps"] = json::array();
  std::string e = error_of(d);
  EXPECT_NE(e.find("/sweeps"), std::string::npos) << e;
  d = base_doc();
  d["workloads"][0]["gird"] = "per_pe";
  e = error_of(d);
  EXPECT_NE(e.find("/workloads/0/gird"), std::string::npos) << e;
}

TEST(ScenarioParse, ZipOfUnequalLengthsRejected) {
  json d = base_doc();
  d["sweep"] = json::parse(R"([{"zip": {"pe_grid.rows": [2, 4], "pe_grid.cols": [2]}}])");
  std::string e = error_of(d);
  EXPECT_NE(e.find("same number of values"), std::string::npos) << e;
}

TEST(ScenarioParse, MissingProgramAndBadArchAreErrors) {
  json d = base_doc();
  d["workloads"][0]["path"] = "nope.S";
  EXPECT_NE(error_of(d).find("/workloads/0/path"), std::string::npos);
  d = base_doc();
  d["arch"] = "no-such-preset";
  EXPECT_NE(error_of(d).find("/arch"), std::string::npos);
}

TEST(ScenarioParse, ShippedScenariosParse) {
  for (const char *f : {"pe_grid_sweep.json", "runner_smoke.json", "quickstart.json",
                        "sram_sweep.json", "memory_stress.json", "sfu_precision.json",
                        "nanogpt.json", "dlrm.json", "isa_ext_vfexpscale.json"}) {
    Scenario s = parse_scenario_file(std::string(OPFORGE_SOURCE_DIR) + "/scenarios/" + f);
    EXPECT_FALSE(expand_sweep(s).empty()) << f;
  }
  Scenario s =
      parse_scenario_file(std::string(OPFORGE_SOURCE_DIR) + "/scenarios/pe_grid_sweep.json");
  EXPECT_EQ(expand_sweep(s).size(), 4u * s.workloads.size());
}

}  // namespace
