// scenario_aten_tests.cpp - parsing of aten, corpus and trace workloads and their call specs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string error_of(const json &doc, const std::string &base = ".") {
  try {
    parse_scenario(doc, "t.json", base);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

json with(const json &workload) {
  return {{"name", "t"}, {"arch", "tiny"}, {"workloads", json::array({workload})}};
}

TEST(ScenarioAten, ShapesAndDtypesBecomeLeadingTensorArgumentsThenArgs) {
  Scenario s =
      parse_scenario(with(json::parse(R"({"kind": "aten", "op": "_softmax", "shapes": [[4, 8]],
                           "dtypes": ["bfloat16"], "args": [-1, false], "seed": 3})")),
                     "t.json", ".");
  ASSERT_EQ(s.workloads.size(), 1u);
  const Workload &w = s.workloads[0];
  EXPECT_EQ(w.kind, Workload::Kind::Aten);
  EXPECT_EQ(w.name, "_softmax");
  EXPECT_EQ(w.seed, 3u);
  ASSERT_EQ(w.calls.size(), 1u);
  EXPECT_EQ(w.calls[0].op, "aten::_softmax");  // the aten:: prefix is added
  EXPECT_EQ(w.calls[0].args, json::parse(R"([{"shape": [4, 8], "dtype": "bfloat16"}, -1, false])"));
  EXPECT_TRUE(w.verify);
  EXPECT_EQ(expand_sweep(s).size(), 1u);
}

TEST(ScenarioAten, BadCallSpecsAreNamedWithTheirPath) {
  std::string e = error_of(with(json::parse(
      R"({"kind": "aten", "op": "exp", "args": [{"shape": [4, -1], "dtype": "float32"}]})")));
  EXPECT_NE(e.find("/workloads/0/args/0/shape/1"), std::string::npos) << e;
  e = error_of(with(
      json::parse(R"({"kind": "aten", "op": "exp", "shapes": [[4]], "dtypes": ["float33"]})")));
  EXPECT_NE(e.find("unknown dtype 'float33'"), std::string::npos) << e;
  e = error_of(with(json::parse(
      R"({"kind": "aten", "op": "exp", "shapes": [[4], [4]], "dtypes": ["float32", "bool", "int64"]})")));
  EXPECT_NE(e.find("/workloads/0/dtypes"), std::string::npos) << e;
  e = error_of(with(json::parse(R"({"kind": "aten", "op": "exp", "args": [{"shap": [4]}]})")));
  EXPECT_NE(e.find("/workloads/0/args/0"), std::string::npos) << e;
  e = error_of(with(json::parse(R"({"kind": "aten", "op": "exp", "shape": [[4]]})")));
  EXPECT_NE(e.find("unknown field 'shape'"), std::string::npos) << e;
  e = error_of(with(json::parse(R"({"kind": "aten", "shapes": [[4]]})")));
  EXPECT_NE(e.find("/workloads/0/op"), std::string::npos) << e;
  e = error_of(with(json::parse(R"({"kind": "pytorch", "op": "exp"})")));
  EXPECT_NE(e.find("expected elf, asm, aten, corpus, trace or model"), std::string::npos) << e;
}

TEST(ScenarioAten, CorpusWorkloadNeedsOverloads) {
  std::string e = error_of(with(json::parse(R"({"kind": "corpus", "ops": []})")));
  EXPECT_NE(e.find("/workloads/0/ops"), std::string::npos) << e;
  Scenario s = parse_scenario(with(json::parse(R"({"kind": "corpus", "path": "c.h5",
      "ops": ["exp", "aten::add.Tensor"], "dtypes": ["float32"], "max_calls": 2})")),
                              "t.json", "/tmp");
  const Workload &w = s.workloads[0];
  EXPECT_EQ(w.kind, Workload::Kind::Corpus);
  EXPECT_EQ(w.path, "/tmp/c.h5");
  EXPECT_EQ(w.overloads, (std::vector<std::string>{"aten::exp", "aten::add.Tensor"}));
  EXPECT_EQ(w.max_calls, 2u);
}

TEST(ScenarioAten, TraceFilesAreReadAndTheirErrorsNameTheTraceFileAndCall) {
  fs::path dir = fs::temp_directory_path() / ("opforge-scn-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "good.json") << R"({"model": "m", "calls": [
    {"op": "aten::mm", "args": [{"shape": [2, 3], "dtype": "float32"}, {"shape": [3, 4], "dtype": "float32"}]},
    {"op": "aten::sum.dim_IntList", "args": [{"shape": [2, 4], "dtype": "float32"}, [1]], "kwargs": {"keepdim": true}}]})";
  std::ofstream(dir / "bad.json") << R"({"model": "m", "calls": [{"op": "aten::mm"},
    {"op": "aten::mm", "args": [{"shape": [2], "dtype": "complex64"}]}]})";
  Scenario s =
      parse_scenario(with({{"kind", "trace"}, {"path", "good.json"}}), "t.json", dir.string());
  ASSERT_EQ(s.workloads[0].calls.size(), 2u);
  EXPECT_EQ(s.workloads[0].name, "good");
  EXPECT_EQ(s.workloads[0].calls[1].kwargs["keepdim"], true);
  std::string e = error_of(with({{"kind", "trace"}, {"path", "bad.json"}}), dir.string());
  EXPECT_NE(e.find("bad.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/calls/1/args/0/dtype"), std::string::npos) << e;
  e = error_of(with({{"kind", "trace"}, {"path", "none.json"}}), dir.string());
  EXPECT_NE(e.find("trace file not found"), std::string::npos) << e;
  fs::remove_all(dir);
}

TEST(ScenarioAten, ShippedModelTracesHoldTheirCallsInOrder) {
  Scenario g = parse_scenario_file(std::string(OPFORGE_SOURCE_DIR) + "/scenarios/nanogpt.json");
  ASSERT_EQ(g.workloads.size(), 1u);
  EXPECT_GT(g.workloads[0].calls.size(), 50u);
  EXPECT_EQ(g.workloads[0].calls[0].op, "aten::embedding");
  Scenario d = parse_scenario_file(std::string(OPFORGE_SOURCE_DIR) + "/scenarios/dlrm.json");
  EXPECT_GT(d.workloads[0].calls.size(), 10u);
}

}  // namespace
