// scenario_trace_chain_tests.cpp - trace files whose tensors name earlier calls' outputs or model
// inputs: accepted when consistent, clear errors naming the JSON path otherwise.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "opforge/harness/scenario.h"
#include "opforge/support/error.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class TraceChain : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("opforge-chain-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Parses a scenario running `calls` as a trace; returns the error text ("" if it parsed).
  std::string parse(const json &calls, harness::Scenario *out = nullptr) {
    std::ofstream(dir_ / "t.json") << json{{"model", "m"}, {"calls", calls}}.dump();
    json doc = {{"name", "c"},
                {"workloads", json::array({{{"kind", "trace"}, {"path", "t.json"}}})}};
    try {
      harness::Scenario s = harness::parse_scenario(doc, (dir_ / "s.json").string(), dir_.string());
      if (out) *out = s;
      return "";
    } catch (const Error &e) {
      return e.what();
    }
  }
  fs::path dir_;
};

const json kF = {{"shape", {4}}, {"dtype", "float32"}};

json with(json spec, const char *key, json v) {
  spec[key] = std::move(v);
  return spec;
}

TEST_F(TraceChain, OutputsAndInputsAreKeptWithTheirCalls) {
  json calls = {
      {{"op", "aten::relu"}, {"args", {with(kF, "input", 0)}}, {"outputs", {kF}}},
      {{"op", "aten::add.Tensor"},
       {"args", {with(kF, "from", {0, 0}), with(kF, "input", 0)}},
       {"outputs", {kF}}}};
  harness::Scenario s;
  ASSERT_EQ(parse(calls, &s), "");
  const auto &c = s.workloads[0].calls;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].args[0]["from"], json::array({0, 0}));
  EXPECT_EQ(c[1].args[1]["input"], 0);
  ASSERT_EQ(c[0].outputs.size(), 1u);
  EXPECT_EQ(c[0].outputs[0]["shape"], json::array({4}));
}

TEST_F(TraceChain, AReferenceToTheSameOrALaterCallIsAnErrorNamingThePath) {
  json calls = {{{"op", "aten::relu"}, {"args", {with(kF, "from", {0, 0})}}}};
  std::string e = parse(calls);
  EXPECT_NE(e.find("/calls/0/args/0/from"), std::string::npos) << e;
  EXPECT_NE(e.find("not an earlier call"), std::string::npos) << e;
}

TEST_F(TraceChain, AnOutputNumberBeyondTheRecordedOutputsIsAnError) {
  json calls = {{{"op", "aten::relu"}, {"args", {kF}}, {"outputs", {kF}}},
                {{"op", "aten::relu"}, {"args", {with(kF, "from", {0, 1})}}}};
  std::string e = parse(calls);
  EXPECT_NE(e.find("/calls/1/args/0/from"), std::string::npos) << e;
  EXPECT_NE(e.find("has 1 outputs"), std::string::npos) << e;
}

TEST_F(TraceChain, MalformedChainFieldsAreErrors) {
  EXPECT_NE(parse({{{"op", "relu"}, {"args", {with(kF, "from", 3)}}}}).find("expected [call, output]"),
            std::string::npos);
  EXPECT_NE(parse({{{"op", "relu"}, {"args", {with(kF, "input", -1)}}}}).find("/args/0/input"),
            std::string::npos);
  std::string e = parse({{{"op", "relu"}, {"args", {with(kF, "values", {1, 2})}}}});
  EXPECT_NE(e.find("expected a list of 4 numbers"), std::string::npos) << e;
  e = parse({{{"op", "relu"}, {"args", {with(with(kF, "input", 0), "from", {0, 0})}}}});
  EXPECT_NE(e.find("not both"), std::string::npos) << e;
}

}  // namespace
