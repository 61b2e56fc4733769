// trace_replay_tests.cpp - captured traces replayed with data flowing between calls: the chip's
// final output equals libtorch running the same chain.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "opforge/support/python.h"
#include "opforge/harness/oracle.h"
#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/harness/trace_replay.h"
#include "opforge/harness/verifier.h"
#include "opforge/model/params.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/error.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path temp_dir(const std::string &name) {
  fs::path d = fs::temp_directory_path() /
               ("opforge-trace-replay-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Captures the MLP trace with scripts/capture-model-trace.py (the project venv's torch).
fs::path capture_mlp(const fs::path &dir) {
  fs::path out = dir / "mlp.json";
  std::string cmd = "'" + opforge::project_python() +
                    "' '" OPFORGE_SOURCE_DIR "/scripts/capture-model-trace.py' mlp --out '" +
                    out.string() + "' 2>'" + (dir / "capture.log").string() + "'";
  if (std::system(cmd.c_str()) != 0) return {};
  return out;
}

harness::Scenario trace_scenario(const fs::path &trace, const fs::path &dir) {
  json doc = {
      {"name", "chain"},
      {"arch", "tiny"},
      {"timing", "lt"},
      {"workloads", json::array({{{"kind", "trace"},
                                  {"path", trace.string()},
                                  {"inductor_kernels", std::string(OPFORGE_SOURCE_DIR) +
                                                           "/scenarios/traces/kernels.json"}}})}};
  return harness::parse_scenario(doc, (dir / "s.json").string(), dir.string());
}

TEST(TraceReplay, CapturedMlpChainsOutputsAndItsFinalOutputOnTheChipMatchesLibtorch) {
  fs::path dir = temp_dir("mlp");
  fs::path trace = capture_mlp(dir);
  ASSERT_FALSE(trace.empty()) << "capture-model-trace.py mlp failed";
  harness::Scenario s = trace_scenario(trace, dir);
  const harness::Workload &w = s.workloads.at(0);
  ASSERT_EQ(w.calls.size(), 7u);
  // The script recorded where each tensor came from: addmm reads t's output and parameters.
  EXPECT_EQ(w.calls[1].op, "aten::addmm");
  EXPECT_EQ(w.calls[1].args[2]["from"], json::array({0, 0}));
  EXPECT_TRUE(w.calls[1].args[0].contains("input"));
  EXPECT_EQ(w.calls[6].op, "aten::_softmax");

  auto points = harness::expand_sweep(s);
  ASSERT_EQ(points.size(), 1u);
  json arch = harness::point_arch_document(s, points[0]);
  model::ChipParams params = model::params_from(ArchConfig::from_document(arch, "tiny"));
  harness::PointResult r;
  harness::Value got;
  try {
    got = harness::run_workload_last_output(s, w, params, r);
  } catch (const Error &e) {
    if (std::string(e.what()).find("built without") != std::string::npos) GTEST_SKIP() << e.what();
    throw;
  }
  ASSERT_EQ(r.ops.size(), 7u);
  for (const auto &o : r.ops) EXPECT_EQ(o.status, "ok") << o.call << ": " << o.reason;
  EXPECT_EQ(r.status, "ok") << r.reason;
  EXPECT_GT(r.cycles, 0u);
  ASSERT_EQ(got.kind, harness::Value::Kind::Tensor);
  EXPECT_EQ(got.tensor.sizes(), (std::vector<int64_t>{8, 16}));

  // The same chain through ATen's CPU kernels, with the same parameters and inputs.
  const auto &oracle = harness::OraclePlugin::get();
  std::vector<harness::Value> ref = harness::replay_trace_host(
      w.calls, w.seed, [&](const harness::Call &c) { return oracle.call(c).out; });
  ASSERT_EQ(ref.size(), 7u);
  harness::Call expected;
  expected.overload = "aten::_softmax";
  expected.dtype = DType::Float32;
  expected.out = ref.back();
  harness::Verdict v = harness::verify_call(expected, got, {});
  EXPECT_TRUE(v.ok()) << v.report();
  // Rows of a softmax sum to one: the chain really ended in the model's softmax.
  for (int64_t row = 0; row < 8; ++row) {
    double sum = 0;
    for (int64_t c = 0; c < 16; ++c) sum += got.tensor.get_double(row * 16 + c);
    EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << row;
  }
  // The comparison is sensitive to the data: other parameters and inputs give another answer.
  std::vector<harness::Value> unchained = harness::replay_trace_host(
      w.calls, w.seed + 1, [&](const harness::Call &c) { return oracle.call(c).out; });
  expected.out = unchained.back();
  EXPECT_FALSE(harness::verify_call(expected, got, {}).ok());
  fs::remove_all(dir);
}

TEST(TraceReplay, InputsAreGeneratedOncePerNumberAndIndexValuesAreKept) {
  harness::TraceInputs inputs(3);
  json a = {{"shape", {4, 5}}, {"dtype", "float32"}, {"input", 2}};
  const harness::Value &x = inputs.get(a);
  const harness::Value &y = inputs.get(a);
  EXPECT_EQ(&x, &y);
  json b = {{"shape", {4, 5}}, {"dtype", "float32"}, {"input", 7}};
  EXPECT_NE(inputs.get(b).tensor.get_double(0), x.tensor.get_double(0));
  json idx = {{"shape", {3}}, {"dtype", "int64"}, {"input", 9}, {"values", {0, 3, 6}}};
  const harness::Value &o = inputs.get(idx);
  EXPECT_EQ(o.tensor.get_int(0), 0);
  EXPECT_EQ(o.tensor.get_int(1), 3);
  EXPECT_EQ(o.tensor.get_int(2), 6);
}

}  // namespace
