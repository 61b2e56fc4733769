// runner_point_rerun_tests.cpp - `opforge sweep --point N` reruns one point into the same
// results file, and `opforge report` shows each point's config diff and whole failure reasons.
#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class RunnerPointRerun : public runner_test::RunnerDir {
 protected:
  // Two points of a spin kernel on the tiny chip: 1 and 2 DMA engines.
  fs::path scenario(const json &values = json::array({1, 2}),
                    const std::string &field = "pe.dma.engines") {
    json spin = {{"name", "spin"},
                 {"kind", "asm"},
                 {"path", std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels/spin.S"},
                 {"grid", "per_pe"},
                 {"args", {500}}};
    return write_json("s.json", {{"name", "rerun"},
                                 {"arch", "tiny"},
                                 {"sweep", json::array({{{"field", field}, {"values", values}}})},
                                 {"workloads", {spin}}});
  }
  fs::path results() const { return dir_ / "r.h5"; }
  std::string sweep(const std::string &args, const std::string &env = "") {
    rc_ = opforge("sweep " + scenario().string() + " --jobs 1 --quiet --out " + results().string() +
                      " " + args,
                  env);
    return out_ + err_;
  }
  // host_seconds of each row: a float no two runs of a point share.
  std::vector<double> host_seconds() {
    h5::File f = h5::File::open(results());
    return f.read_double_column("/summary", "host_seconds");
  }
  int rc_ = -1;
};

TEST_F(RunnerPointRerun, PointReplacesOnlyItsOwnRowAndShard) {
  // Point 1 crashes the first time: a failed row to replace.
  sweep("", "OPFORGE_SWEEP_INJECT=crash@1");
  ASSERT_EQ(rc_, 1) << out_ << err_;
  h5::File before = h5::File::open(results());
  auto status = before.read_string_column("/summary", "status");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], "ok");
  EXPECT_EQ(status[1], "crashed");
  std::string shard0 = slurp(harness::shard_path(results(), 0));
  auto secs = host_seconds();

  sweep("--point 1");
  EXPECT_EQ(rc_, 0) << out_ << err_;
  EXPECT_NE(out_.find("point 1 (spin): ok"), std::string::npos) << out_;
  h5::File after = h5::File::open(results());
  status = after.read_string_column("/summary", "status");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], "ok");
  EXPECT_EQ(status[1], "ok");
  auto secs2 = host_seconds();
  EXPECT_EQ(secs2[0], secs[0]);  // point 0's row is the one of the first run
  EXPECT_EQ(slurp(harness::shard_path(results(), 0)), shard0);
  harness::PointResult p1 = harness::read_result_point(results(), 1);
  EXPECT_GT(p1.cycles, 0u);
  EXPECT_EQ(p1.axis_values["pe.dma.engines"], 2);
}

TEST_F(RunnerPointRerun, ResumeKeepsAFinishedPointAndRetryFailedRunsAFailedOne) {
  sweep("", "OPFORGE_SWEEP_INJECT=crash@1");
  ASSERT_EQ(rc_, 1) << out_ << err_;
  auto secs = host_seconds();
  sweep("--point 0 --resume");
  EXPECT_EQ(rc_, 0) << out_ << err_;
  EXPECT_NE(out_.find("kept (--resume)"), std::string::npos) << out_;
  EXPECT_EQ(host_seconds(), secs);
  sweep("--point 1 --resume");  // failed, no --retry-failed: kept as it is
  EXPECT_EQ(rc_, 1) << out_ << err_;
  EXPECT_EQ(host_seconds(), secs);
  sweep("--point 1 --resume --retry-failed");
  EXPECT_EQ(rc_, 0) << out_ << err_;
  EXPECT_EQ(host_seconds()[0], secs[0]);
  EXPECT_NE(host_seconds()[1], secs[1]);
}

TEST_F(RunnerPointRerun, PointIntoAFileWithoutResultsRunsThatPointAlone) {
  sweep("--point 1");
  EXPECT_EQ(rc_, 0) << out_ << err_;
  h5::File f = h5::File::open(results());
  auto status = f.read_string_column("/summary", "status");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], "missing");
  EXPECT_EQ(status[1], "ok");
  // The rest of the sweep afterwards, with the usual --resume.
  sweep("--resume");
  EXPECT_EQ(rc_, 0) << out_ << err_;
}

TEST_F(RunnerPointRerun, PointOutOfRangeIsAUsageErrorNamingTheRange) {
  for (const char *bad : {"2", "99"}) {
    sweep(std::string("--point ") + bad);
    EXPECT_EQ(rc_, 2) << out_ << err_;
    EXPECT_NE(err_.find("--point " + std::string(bad) + " is out of range"), std::string::npos)
        << err_;
    EXPECT_NE(err_.find("0..1"), std::string::npos) << err_;
  }
  sweep("--point -1");
  EXPECT_EQ(rc_, 2) << out_ << err_;
  sweep("--point x");
  EXPECT_EQ(rc_, 2) << out_ << err_;
  EXPECT_FALSE(fs::exists(results()));
}

// Collapses runs of white space to one space (the report wraps long lines).
std::string squeeze(const std::string &s) {
  std::string out;
  for (char c : s) {
    bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST_F(RunnerPointRerun, ReportShowsConfigDiffAndWholeFailureReasons) {
  // VLEN 100 is not a power of two: point 1 fails with a long reason.
  fs::path sc = scenario(json::array({256, 100}), "pe.vector.vlen_bits");
  ASSERT_EQ(opforge("sweep " + sc.string() + " --jobs 1 --quiet --out " + results().string()), 1)
      << err_;
  h5::File f = h5::File::open(results());
  std::string reason = f.read_string_column("/summary", "reason")[1];
  ASSERT_GT(reason.size(), 60u) << reason;  // longer than the table used to show
  ASSERT_EQ(opforge("report " + results().string()), 0) << err_;
  EXPECT_NE(squeeze(out_).find(squeeze(reason)), std::string::npos) << "reason cut or missing:\n"
                                                                    << reason << "\n---\n"
                                                                    << out_;
  for (const auto &line : [&] {
         std::vector<std::string> v;
         std::string l;
         for (char c : out_)
           if (c == '\n')
             v.push_back(l), l.clear();
           else
             l += c;
         return v;
       }())
    EXPECT_EQ(line.find("..."), std::string::npos) << line;
  EXPECT_NE(out_.find("config against the scenario's base"), std::string::npos) << out_;
  EXPECT_NE(out_.find("point 0 (spin): pe.vector.vlen_bits=256"), std::string::npos) << out_;
  EXPECT_EQ(out_.find("pe.dma.engines="), std::string::npos) << out_;  // not swept: no diff
}

}  // namespace
