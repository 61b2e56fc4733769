// scenario_trace_params_tests.cpp - trace workloads at a requested size ("params"): the
// calls have the requested shapes (captured on demand by scripts/capture-model-trace.py,
// no simulation), the shipped nanoGPT study is at GPT-2-small width, bad sizes are errors.
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

const std::string kSource = OPFORGE_SOURCE_DIR;

class TraceParams : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("opforge-trace-params-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Captures go to a cache of this test's own.
    const char *old = std::getenv("OPFORGE_CACHE_DIR");
    old_cache_ = old ? old : "";
    had_cache_ = old != nullptr;
    ::setenv("OPFORGE_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    if (had_cache_)
      ::setenv("OPFORGE_CACHE_DIR", old_cache_.c_str(), 1);
    else
      ::unsetenv("OPFORGE_CACHE_DIR");
    fs::remove_all(dir_);
  }
  // The calls of the shipped nanogpt trace's model at `params`.
  std::vector<harness::AtenCall> nanogpt_at(const json &params) {
    json doc = {{"name", "p"},
                {"workloads", json::array({{{"kind", "trace"},
                                            {"path", kSource + "/scenarios/traces/nanogpt.json"},
                                            {"params", params}}})}};
    harness::Scenario s = harness::parse_scenario(doc, (dir_ / "s.json").string(), dir_.string());
    return s.workloads.at(0).calls;
  }
  std::string error_of(const json &params) {
    try {
      nanogpt_at(params);
      return "";
    } catch (const Error &e) {
      return e.what();
    }
  }
  fs::path dir_;
  std::string old_cache_;
  bool had_cache_ = false;
};

std::vector<int64_t> shape(const json &spec) {
  return spec.at("shape").get<std::vector<int64_t>>();
}

// The first call of `op`, or fails the test.
const harness::AtenCall &first(const std::vector<harness::AtenCall> &calls, const std::string &op) {
  for (const auto &c : calls)
    if (c.op == op) return c;
  ADD_FAILURE() << "no " << op << " call";
  static harness::AtenCall none;
  return none;
}

size_t count(const std::vector<harness::AtenCall> &calls, const std::string &op) {
  size_t n = 0;
  for (const auto &c : calls) n += c.op == op;
  return n;
}

}  // namespace

TEST_F(TraceParams, ATraceAtTwoSizesHasCallsOfTheRequestedShapes) {
  struct Size {
    int64_t batch, seq, width, heads, layers, vocab;
  };
  for (Size z : {Size{1, 8, 48, 4, 1, 64}, Size{3, 16, 96, 8, 2, 128}}) {
    SCOPED_TRACE("batch " + std::to_string(z.batch) + " width " + std::to_string(z.width));
    auto calls = nanogpt_at({{"batch", z.batch},
                             {"seq", z.seq},
                             {"width", z.width},
                             {"heads", z.heads},
                             {"layers", z.layers},
                             {"vocab", z.vocab}});
    const int64_t tokens = z.batch * z.seq, head_dim = z.width / z.heads;
    // Token embedding: [batch, seq] indices into a [vocab, width] table.
    const auto &emb = first(calls, "aten::embedding");
    EXPECT_EQ(shape(emb.args[0]), (std::vector<int64_t>{z.vocab, z.width}));
    EXPECT_EQ(shape(emb.args[1]), (std::vector<int64_t>{z.batch, z.seq}));
    EXPECT_EQ(shape(emb.outputs[0]), (std::vector<int64_t>{z.batch, z.seq, z.width}));
    // The first linear layer is the fused q, k, v projection.
    const auto &qkv = first(calls, "aten::addmm");
    EXPECT_EQ(shape(qkv.args[1]), (std::vector<int64_t>{tokens, z.width}));
    EXPECT_EQ(shape(qkv.args[2]), (std::vector<int64_t>{z.width, 3 * z.width}));
    EXPECT_EQ(shape(qkv.outputs[0]), (std::vector<int64_t>{tokens, 3 * z.width}));
    // Attention scores per head: [batch * heads, seq, head_dim] x [.., head_dim, seq].
    const auto &att = first(calls, "aten::bmm");
    EXPECT_EQ(shape(att.args[0]), (std::vector<int64_t>{z.batch * z.heads, z.seq, head_dim}));
    EXPECT_EQ(shape(att.outputs[0]), (std::vector<int64_t>{z.batch * z.heads, z.seq, z.seq}));
    // Four linear layers with bias per block (qkv, proj, fc, out), two bmm per block.
    EXPECT_EQ(count(calls, "aten::addmm"), size_t(4 * z.layers));
    EXPECT_EQ(count(calls, "aten::bmm"), size_t(2 * z.layers));
    // The head: [tokens, width] x [width, vocab], no bias.
    const auto &head = calls.back();
    EXPECT_EQ(shape(head.outputs[0]), (std::vector<int64_t>{z.batch, z.seq, z.vocab}));
  }
}

TEST_F(TraceParams, TheShippedTraceAtItsOwnParamsIsUsedWithoutACapture) {
  json params = {{"batch", 1},  {"seq", 64},   {"width", 768},
                 {"heads", 12}, {"layers", 2}, {"vocab", 256}};
  auto calls = nanogpt_at(params);
  EXPECT_FALSE(fs::exists(dir_ / "cache" / "traces")) << "the shipped trace was captured again";
  EXPECT_EQ(shape(first(calls, "aten::addmm").args[2]), (std::vector<int64_t>{768, 2304}));
}

TEST_F(TraceParams, TheNanogptStudyIsAtGpt2SmallWidth) {
  harness::Scenario s = harness::parse_scenario_file(kSource + "/scenarios/nanogpt.json");
  json doc;
  std::ifstream(kSource + "/scenarios/nanogpt.json") >> doc;
  const json &params = doc.at("workloads").at(0).at("params");
  EXPECT_EQ(params.at("width"), 768);  // GPT-2 small: n_embd 768, n_head 12
  EXPECT_EQ(params.at("heads"), 12);
  const auto &calls = s.workloads.at(0).calls;
  const auto &qkv = first(calls, "aten::addmm");
  EXPECT_EQ(shape(qkv.args[2]), (std::vector<int64_t>{768, 3 * 768}));
  // The MLP's hidden layer is 4 x 768 wide.
  bool saw_fc = false;
  for (const auto &c : calls)
    if (c.op == "aten::addmm" && shape(c.args[2]) == std::vector<int64_t>{768, 3072}) saw_fc = true;
  EXPECT_TRUE(saw_fc) << "no 768 x 3072 MLP layer";
  const auto &att = first(calls, "aten::bmm");
  EXPECT_EQ(shape(att.args[0]).at(2), 64);  // head dim 768 / 12
}

TEST_F(TraceParams, BadSizesAreErrorsNamingTheField) {
  EXPECT_NE(error_of({{"width", 0}}).find("/workloads/0/params/width"), std::string::npos)
      << error_of({{"width", 0}});
  EXPECT_NE(error_of({{"width", "wide"}}).find("expected a positive integer"), std::string::npos);
  EXPECT_NE(error_of(json::array()).find("/workloads/0/params"), std::string::npos);
  // A size the model does not take: the capture script's message.
  std::string e = error_of({{"depth", 3}});
  EXPECT_NE(e.find("/workloads/0/params"), std::string::npos) << e;
  EXPECT_NE(e.find("takes no parameter 'depth'"), std::string::npos) << e;
  // Heads that do not divide the width.
  e = error_of({{"width", 100}, {"heads", 12}});
  EXPECT_NE(e.find("heads (12) must divide width (100)"), std::string::npos) << e;
}
