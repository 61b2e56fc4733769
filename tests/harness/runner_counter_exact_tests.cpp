// runner_counter_exact_tests.cpp - every counter delta of a memory-stress sweep is exact:
// no wraps, per-PE sums match chip totals, no unit busier than its capacity, and
// sampled counter traces for ATen and trace workloads (issue 22 item 2).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "opforge/harness/results.h"
#include "runner_fixture.h"

namespace opforge::runner_test {
namespace {

using nlohmann::json;

class CounterExact : public RunnerDir {};

uint64_t sum_matching(const std::vector<std::pair<std::string, uint64_t>> &c,
                      const std::string &pre, const std::string &suffix) {
  uint64_t s = 0;
  for (const auto &[n, v] : c)
    if (n.rfind(pre, 0) == 0 && n.size() >= suffix.size() &&
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      s += v;
  return s;
}

bool ends_with(const std::string &n, const std::string &suffix) {
  return n.size() >= suffix.size() &&
         n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST_F(CounterExact, AMemoryStressSweepHasExactCountersBusyWithinCapacityAndTraces) {
  json s = json::parse(R"({
    "name": "counter_exact", "arch": "mtia-2i", "timing": "lt",
    "sweep": [ { "zip": { "pe.dma.engines": [1, 2], "dram.channels": [4, 16],
                          "dram.bandwidth_gbps": [51.2, 204.8] } } ],
    "workloads": [
      { "name": "stream_add", "kind": "aten", "op": "aten::add.Tensor",
        "shapes": [[256, 1024], [256, 1024]], "dtypes": ["float32"], "verify": false },
      { "name": "row_sum", "kind": "aten", "op": "aten::sum.dim_IntList",
        "shapes": [[128, 512]], "dtypes": ["float32"], "args": [[1]], "verify": false },
      { "name": "gather_rows", "kind": "aten", "op": "aten::index_select", "verify": false,
        "args": [ { "shape": [1024, 64], "dtype": "float32" }, 0,
                  { "shape": [512], "dtype": "int64", "low": 0, "high": 1024 } ] }
    ],
    "sample_interval_cycles": 2000,
    "sample_counters": ["pe[*].core.instret", "pe[*].lmem.conflict_cycles", "dram.ch[*].busy_cycles"],
    "timeout_s": 300
  })");
  // A chained trace: exp of a model input feeds an add.
  write_json("trace.json", json::parse(R"({"model": "exp_add", "calls": [
    {"op": "aten::exp", "args": [{"shape": [64, 256], "dtype": "float32", "input": 0}],
     "kwargs": {}, "outputs": [{"shape": [64, 256], "dtype": "float32"}]},
    {"op": "aten::add.Tensor", "args": [{"shape": [64, 256], "dtype": "float32", "from": [0, 0]},
                                        {"shape": [64, 256], "dtype": "float32", "input": 1}],
     "kwargs": {}, "outputs": [{"shape": [64, 256], "dtype": "float32"}]}]})"));
  s["workloads"].push_back({{"name", "exp_add_trace"},
                            {"kind", "trace"},
                            {"path", (dir_ / "trace.json").string()},
                            {"verify", false}});
  s["output"] = (dir_ / "out.h5").string();
  ASSERT_EQ(opforge("sweep " + write_json("s.json", s).string() + " --jobs 2"), 0) << err_ << out_;
  const size_t points = 2 * s["workloads"].size();
  for (size_t i = 0; i < points; ++i) {
    harness::PointResult r = harness::read_result_point(dir_ / "out.h5", i);
    const std::string what = "point " + std::to_string(i) + " (" + r.workload + ")";
    ASSERT_EQ(r.status, "ok") << what << ": " << r.reason;
    ASSERT_FALSE(r.counters.empty()) << what;
    const double cycles = double(r.cycles);
    ASSERT_GT(cycles, 0) << what;
    const double engines = r.config["pe"]["dma"]["engines"].get<double>();
    // Launches: rounding of fractional busy times may add a cycle per launch.
    const double launches = double(sum_matching(r.counters, "cp.launches", ""));
    for (const auto &[n, v] : r.counters) {
      EXPECT_LT(v, uint64_t{1} << 62) << what << ": " << n << " wrapped";
      // Busy time of one unit instance never exceeds the point's cycles (the
      // DMA engines of a PE: cycles x engines).
      double cap = 0;
      if (ends_with(n, ".dma.busy_cycles"))
        cap = cycles * engines;
      else if (ends_with(n, ".busy_cycles") || ends_with(n, ".core.cycles"))
        cap = cycles;
      if (cap > 0) {
        EXPECT_LE(double(v), cap + launches) << what << ": " << n;
      }
    }
    // Per-PE sums equal the chip totals.
    EXPECT_EQ(sum_matching(r.counters, "pe[", ".core.instret"), r.instructions) << what;
    EXPECT_EQ(sum_matching(r.counters, "pe[", ".core.programs"),
              sum_matching(r.counters, "cp.instances", ""))
        << what;
    uint64_t op_launches = 0;
    for (const auto &op : r.ops) op_launches += op.launches;
    EXPECT_EQ(op_launches, uint64_t(launches)) << what;
    // Sampling works for ATen and trace workloads: monotone times and counters.
    ASSERT_FALSE(r.trace_names.empty()) << what << ": no counter trace";
    EXPECT_EQ(r.trace_names.front(), "pe[0][0].core.instret") << what;
    ASSERT_GE(r.trace_cycles.size(), 2u) << what;
    ASSERT_EQ(r.trace_rows.size(), r.trace_cycles.size()) << what;
    for (size_t k = 1; k < r.trace_cycles.size(); ++k) {
      EXPECT_LE(r.trace_cycles[k - 1], r.trace_cycles[k]) << what << " sample " << k;
      ASSERT_EQ(r.trace_rows[k].size(), r.trace_names.size()) << what;
      for (size_t j = 0; j < r.trace_names.size(); ++j)
        EXPECT_LE(r.trace_rows[k - 1][j], r.trace_rows[k][j])
            << what << ": " << r.trace_names[j] << " decreased at sample " << k;
    }
  }
}

}  // namespace
}  // namespace opforge::runner_test
