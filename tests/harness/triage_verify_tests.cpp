// triage_verify_tests.cpp - `opforge triage --verify` on the shipped scenarios.
//
// Small points of scenarios/quickstart.json and scenarios/memory_stress.json
// (the shipped workloads; memory_stress at its first, most channel-starved
// sweep step): every suggestion is rerun, the baseline rerun reproduces the
// stored cycles, the ranking follows the measured speedup, the top verified
// suggestion is never slower than the baseline, and a recommended change run
// through an ordinary sweep gives the cycles --verify measured.
#include <algorithm>
#include <fstream>

#include "opforge/harness/results.h"
#include "runner_fixture.h"

using namespace opforge;
using nlohmann::json;

namespace {

class TriageVerify : public runner_test::RunnerDir {
 protected:
  json shipped(const std::string &name) {
    std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/scenarios/" + name + ".json");
    return json::parse(in);
  }
  // Runs `doc` as a sweep into DIR/<name>.h5; returns the file.
  std::filesystem::path sweep(json doc, const std::string &name) {
    doc["output"] = (dir_ / (name + ".h5")).string();
    auto file = write_json(name + ".json", doc);
    EXPECT_EQ(opforge("sweep " + file.string() + " --jobs 8 --quiet"), 0) << out_ << err_;
    return dir_ / (name + ".h5");
  }

  // Verifies every ok point; sets the best measured speedup and, for it,
  // the point, the change and its cycles.
  // (void: gtest's ASSERT_* return from it.)
  void verify_all(const std::filesystem::path &results, size_t points, double &best,
                  size_t &best_point, harness::ConfigChange &best_change, uint64_t &best_cycles) {
    best = 0;
    for (size_t i = 0; i < points; ++i) {
      harness::PointResult r = harness::read_result_point(results, i);
      if (r.status != "ok") continue;
      harness::TriageAnalysis t = harness::triage_point(r);
      for (const auto &c : t.changes) {
        EXPECT_FALSE(c.settings.empty());
        EXPECT_GT(c.share, 0.0) << c.text();
      }
      if (t.changes.empty()) continue;
      harness::VerifyResult v = harness::verify_changes(results, i, t.changes, 8);
      SCOPED_TRACE("point " + std::to_string(i) + " " + r.workload);
      ASSERT_EQ(v.baseline.status, "ok") << v.baseline.reason;
      EXPECT_EQ(v.baseline.cycles, r.cycles) << "the rerun reproduces the stored point";
      ASSERT_EQ(v.ranked.size(), t.changes.size());
      for (size_t k = 1; k < v.ranked.size(); ++k)
        EXPECT_GE(v.ranked[k - 1].speedup, v.ranked[k].speedup);
      const harness::VerifiedChange &top = v.ranked.front();
      EXPECT_EQ(top.status, "ok") << top.change.text() << ": " << top.reason;
      // The top verified suggestion is never slower than the baseline.
      EXPECT_LE(top.cycles, v.baseline.cycles) << top.change.text();
      EXPECT_GE(top.speedup, 1.0) << top.change.text();
      if (top.speedup > best) {
        best = top.speedup;
        best_point = i;
        best_change = top.change;
        best_cycles = top.cycles;
      }
    }
  }

  // The change applied as scenario overrides through an ordinary sweep.
  uint64_t rerun_with(json doc, size_t workload, const harness::ConfigChange &c,
                      const json &axis_values) {
    json w = doc["workloads"][workload];
    doc["workloads"] = json::array({w});
    doc.erase("sweep");
    json ov = doc.value("overrides", json::object());
    for (auto it = axis_values.begin(); it != axis_values.end(); ++it) ov[it.key()] = it.value();
    for (const auto &[f, v] : c.settings) ov[f] = v;
    doc["overrides"] = ov;
    auto results = sweep(doc, "rerun");
    return harness::read_result_point(results, 0).cycles;
  }
};

TEST_F(TriageVerify, TopVerifiedSuggestionIsNeverSlowerOnShippedScenarios) {
  // quickstart: a spread of its workloads (streams, reduction, matmul, gather).
  json q = shipped("quickstart");
  json keep = json::array();
  for (const auto &w : q["workloads"])
    for (const char *n : {"add_f32", "exp_f32", "softmax_f32", "mm_f32", "index_select_f32"})
      if (w["name"] == n) keep.push_back(w);
  q["workloads"] = keep;
  auto qres = sweep(q, "quickstart");
  size_t qpoint = 0;
  harness::ConfigChange qchange;
  uint64_t qcycles = 0;
  double qbest = 0;
  verify_all(qres, keep.size(), qbest, qpoint, qchange, qcycles);

  // memory_stress: every workload at 4 DRAM channels (51.2 GB/s), the first sweep step.
  json m = shipped("memory_stress");
  json axis = m["sweep"][0]["zip"];
  m.erase("sweep");
  json ov = m.value("overrides", json::object());
  for (auto it = axis.begin(); it != axis.end(); ++it) ov[it.key()] = it.value()[0];
  m["overrides"] = ov;
  auto mres = sweep(m, "memory_stress");
  size_t mpoint = 0;
  harness::ConfigChange mchange;
  uint64_t mcycles = 0;
  double best = 0;
  verify_all(mres, m["workloads"].size(), best, mpoint, mchange, mcycles);
  // Channel-starved streams: some suggestion measurably helps.
  EXPECT_GT(best, 1.05);
  // What --verify measured is what a sweep with the change gives.
  harness::PointResult r = harness::read_result_point(mres, mpoint);
  EXPECT_EQ(rerun_with(m, mpoint, mchange, r.axis_values), mcycles) << mchange.text();
}

TEST_F(TriageVerify, CliPrintsTheRankedTableAndMarksChangesThatDoNotHelp) {
  // The issue-22 case: gathers from a scratch-mode SRAM stall on non-local loads.
  json doc = {
      {"name", "gather_scratch"},
      {"arch", "mtia-2i"},
      {"timing", "lt"},
      {"overrides", {{"sram.mode", "scratch"}}},
      {"workloads",
       json::array(
           {{{"name", "gather_rows"},
             {"kind", "aten"},
             {"op", "aten::index_select"},
             {"verify", false},
             {"args",
              json::array(
                  {{{"shape", {1024, 64}}, {"dtype", "float32"}},
                   0,
                   {{"shape", {512}}, {"dtype", "int64"}, {"low", 0}, {"high", 1024}}})}}})},
      {"timeout_s", 120}};
  auto results = sweep(doc, "gather");
  ASSERT_EQ(opforge("triage " + results.string()), 0) << err_;
  for (const char *s : {"stalls by cause", "non-local loads", "roofs", "mem_port", "noc_link",
                        "sram_bank", "suggestions", "sram.mode=cache"})
    EXPECT_NE(out_.find(s), std::string::npos) << s << "\n" << out_;
  EXPECT_EQ(out_.find("verified"), std::string::npos) << "no reruns without --verify";
  ASSERT_EQ(opforge("triage " + results.string() + " --point 0 --verify --jobs 4"), 0) << err_;
  EXPECT_NE(out_.find("verified (the point rerun"), std::string::npos) << out_;
  EXPECT_NE(out_.find("recommended: sram.mode=cache"), std::string::npos) << out_;
  EXPECT_NE(out_.find("does not help"), std::string::npos) << out_;
}

TEST_F(TriageVerify, PointOutOfRangeNamesTheRange) {
  json doc = shipped("quickstart");
  json w = doc["workloads"][0];
  doc["workloads"] = json::array({w});
  auto results = sweep(doc, "one");
  EXPECT_EQ(opforge("triage " + results.string() + " --point 3 --verify"), 1);
  EXPECT_NE(err_.find("no point 3"), std::string::npos) << err_;
  EXPECT_THROW(harness::verify_changes(results, 3, {}, 1), Error);
}

}  // namespace
