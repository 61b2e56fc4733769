// runner_trace_kernels_tests.cpp - the shipped model-trace scenarios run from a clean state: no
// rendered kernel anywhere, the trace kernels rendered from the inductor lowering table when
// the scenario is read, every call with a kernel and verified.
#include <regex>

#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {

class TraceKernels : public runner_test::RunnerDir {
 protected:
  // `opforge sweep` of a shipped scenario with an empty kernel cache; returns `report --ops`.
  std::string sweep_from_clean_state(const std::string &scenario) {
    const fs::path cache = dir_ / "cache";
    EXPECT_FALSE(fs::exists(cache));
    const std::string env = "OPFORGE_CACHE_DIR='" + cache.string() + "'";
    const fs::path results = dir_ / (fs::path(scenario).filename().string() + ".h5");
    const std::string file = scenario.find('/') == std::string::npos
                                 ? std::string(OPFORGE_SOURCE_DIR) + "/scenarios/" + scenario
                                 : scenario;
    EXPECT_EQ(opforge("sweep " + file + ".json --jobs 1 --quiet --out " + results.string(), env), 0)
        << err_ << out_;
    // The kernels were rendered into the cache: one set of the 19 trace kernels.
    std::vector<fs::path> sets;
    if (fs::exists(cache / "inductor-kernels"))
      for (const auto &e : fs::directory_iterator(cache / "inductor-kernels"))
        sets.push_back(e.path());
    EXPECT_EQ(sets.size(), 1u);
    if (sets.size() == 1) {
      EXPECT_EQ(sets[0].filename().string().rfind("kernels-", 0), 0u) << sets[0];
      size_t n = 0;
      for (const auto &e : fs::directory_iterator(sets[0])) n += e.path().extension() == ".py";
      EXPECT_EQ(n, 19u);
    }
    EXPECT_EQ(opforge("report " + results.string() + " --ops"), 0) << err_;
    fs::remove_all(cache);
    return out_;
  }
};

TEST_F(TraceKernels, DlrmRunsFromACleanStateWithEveryCallVerified) {
  std::string report = sweep_from_clean_state("dlrm");
  EXPECT_NE(report.find("32 calls, 32 ok, 0 without kernel, 0 failed"), std::string::npos)
      << report;
  EXPECT_NE(report.find("aten::_embedding_bag"), std::string::npos) << report;
}

// The nanoGPT study's workload at a small size (the shipped study at GPT-2-small width takes
// minutes to simulate; TraceParams checks its sizes): captured on demand, kernels rendered from
// a clean state, every call verified.
TEST_F(TraceKernels, NanogptRunsFromACleanStateWithEveryCallVerified) {
  const std::string src = std::string(OPFORGE_SOURCE_DIR) + "/scenarios/";
  nlohmann::json w = {
      {"name", "nanogpt_fwd"},
      {"kind", "trace"},
      {"path", src + "traces/nanogpt.json"},
      {"params",
       {{"batch", 1}, {"seq", 8}, {"width", 32}, {"heads", 2}, {"layers", 1}, {"vocab", 64}}},
      {"verify", true},
      {"inductor_kernels", src + "traces/kernels.json"}};
  write_json("nanogpt_small.json", {{"name", "nanogpt_small"},
                                    {"arch", "mtia-2i"},
                                    {"timing", "lt"},
                                    {"timeout_s", 600},
                                    {"workloads", {w}}});
  std::string report = sweep_from_clean_state((dir_ / "nanogpt_small").string());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(report, m,
                                std::regex(R"((\d+) calls, (\d+) ok, 0 without kernel, 0 failed)")))
      << report;
  EXPECT_EQ(m[1], m[2]) << report;
  EXPECT_GT(std::stoi(m[1]), 40) << report;
  EXPECT_NE(report.find("aten::native_layer_norm"), std::string::npos) << report;
}

}  // namespace
