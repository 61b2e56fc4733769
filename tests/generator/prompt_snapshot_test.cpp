//===- prompt_snapshot_test.cpp - prompts that carry the overload's meaning (issue 25 item 1) ===//
//
// The first prompt `run_generation` sends for an overload of each class
// (elementwise, reduction, internal overloads with a semantic note), taken
// from the run log: the documentation is the overload's own (the semantic
// note replaces another operator's docstring), the dtypes are those of the
// recorded calls, several recorded call signatures are shown, and the target
// constraints and the wrapper allowlist are the ones the capability table and
// the wrapper interpreter's tables give. A replay provider without recorded
// answers ends each attempt after its first prompt.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus_fixture.h"
#include "opforge/compiler/capability.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/generator/replay_provider.h"
#include "opforge/generator/runlog.h"
#include "opforge/harness/judge.h"
#include "opforge/harness/prompt_facts.h"

using namespace opforge;
using namespace opforge::generator;
namespace fs = std::filesystem;

namespace {

// The system and user messages of the first prompt for `overload`.
std::string first_prompt(const harness::Corpus &corpus, const std::string &overload) {
  auto provider = make_replay_provider(std::vector<nlohmann::json>{});
  auto templates = PromptTemplates::load(PromptTemplates::default_dir());
  fs::path out = test::temp_dir();
  RunLog log;
  harness::GenerateOptions g;
  g.overloads = {overload};
  g.library_dir = (out / "library").string();
  g.jobs = 1;
  g.loop.budget.max_dialogs = 1;
  g.loop.budget.max_calls_per_dialog = 1;
  harness::run_generation(corpus, *provider, templates, log, g);
  for (const auto &r : log.records())
    if (r.value("event", "") == "prompt") {
      std::string text;
      for (const auto &m : r["messages"]) text += m["content"].get<std::string>() + "\n";
      return text;
    }
  ADD_FAILURE() << "no prompt record for " << overload;
  return "";
}

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

// What every prompt holds: the calls' dtypes and signatures, the capability table's
// constraints and the wrapper interpreter's allowlist.
void expect_tables_and_calls(const harness::Corpus &corpus, const std::string &overload,
                             const std::string &prompt) {
  const auto calls = corpus.calls(overload, std::nullopt);
  ASSERT_FALSE(calls.empty());
  const std::string dtypes = harness::call_dtypes(calls);
  EXPECT_TRUE(
      has(prompt, "Element types of the recorded calls (inputs and outputs): " + dtypes + "\n"))
      << dtypes << "\n"
      << prompt;
  EXPECT_TRUE(has(prompt, "- " + calls.front().summary())) << prompt;
  EXPECT_TRUE(has(prompt, compiler::describe(compiler::mtia_capabilities()))) << prompt;
  EXPECT_TRUE(has(prompt, wrapper_allowlist({}))) << prompt;
  for (const auto &fn : compiler::wrapper_torch_functions())
    EXPECT_TRUE(has(prompt, "torch." + fn)) << fn;
  for (const char *m : {".contiguous()", ".expand()", ".view()", ".to()"})
    EXPECT_TRUE(has(prompt, m)) << m << "\n" << prompt;
  EXPECT_TRUE(has(prompt, "torch.result_type")) << prompt;
}

}  // namespace

TEST(PromptSnapshot, ElementwiseShowsItsOwnDocsTheCallsDtypesAndTheTables) {
  auto corpus = harness::Corpus::open(test::small_corpus());
  const std::string prompt = first_prompt(corpus, "aten::abs");
  EXPECT_TRUE(has(prompt, corpus.docstring("aten::abs"))) << prompt;
  EXPECT_TRUE(has(prompt, "absolute")) << prompt;
  expect_tables_and_calls(corpus, "aten::abs", prompt);
}

TEST(PromptSnapshot, ReductionAddsTheDtypeRuleOfIntegerInputs) {
  auto corpus = harness::Corpus::open(test::small_corpus());
  const std::string ov = "aten::sum.dim_IntList";
  const std::string prompt = first_prompt(corpus, ov);
  EXPECT_TRUE(has(prompt, corpus.docstring(ov))) << prompt;
  EXPECT_TRUE(has(prompt,
                  "Note on this overload: with dtype=None, integer and bool inputs give "
                  "an int64 result"))
      << prompt;
  expect_tables_and_calls(corpus, ov, prompt);
  // bool and int64 inputs sum to int64: the calls' dtypes, results included.
  EXPECT_TRUE(has(harness::call_dtypes(corpus.calls(ov, std::nullopt)), "int64"));
}

TEST(PromptSnapshot, InternalSoftmaxShowsItsSemanticNoteInsteadOfAnotherDocstring) {
  auto corpus = harness::Corpus::open(test::small_corpus());
  const std::string ov = "aten::_softmax";
  ASSERT_TRUE(corpus.has_overload(ov));
  const std::string prompt = first_prompt(corpus, ov);
  const std::string recorded = corpus.docstring(ov);
  if (!recorded.empty()) {
    EXPECT_FALSE(has(prompt, recorded)) << prompt;
  }
  EXPECT_TRUE(has(prompt, "_softmax(self, dim, half_to_float) -> Tensor")) << prompt;
  expect_tables_and_calls(corpus, ov, prompt);
}

// Issue 25's cases, on the full corpus (corpus/opinfo.h5, `make corpus`).
TEST(PromptSnapshot, InternalLossesAndLogSoftmaxOnTheFullCorpus) {
  const fs::path path = fs::path(OPFORGE_SOURCE_DIR) / "corpus" / "opinfo.h5";
  if (!fs::exists(path)) GTEST_SKIP() << "no full corpus at " << path;
  auto corpus = harness::Corpus::open(path.string());
  {
    const std::string prompt = first_prompt(corpus, "aten::log_sigmoid_forward");
    EXPECT_FALSE(has(prompt, "multilabel_soft_margin_loss")) << prompt;
    EXPECT_TRUE(has(prompt, "buffer[i] = exp(-|self[i]|)")) << prompt;
    expect_tables_and_calls(corpus, "aten::log_sigmoid_forward", prompt);
  }
  {
    const std::string prompt = first_prompt(corpus, "aten::nll_loss_forward");
    EXPECT_FALSE(has(prompt, "CrossEntropyLoss")) << prompt;
    EXPECT_TRUE(has(prompt, "total_weight is a 0-d tensor")) << prompt;
    EXPECT_TRUE(has(prompt, "reduction 0 (none)")) << prompt;
    expect_tables_and_calls(corpus, "aten::nll_loss_forward", prompt);
  }
  {
    // The OpInfo groups of _log_softmax include integer ones; its calls pass float64.
    const std::string prompt = first_prompt(corpus, "aten::_log_softmax");
    EXPECT_TRUE(has(prompt, "float64")) << prompt;
    expect_tables_and_calls(corpus, "aten::_log_softmax", prompt);
  }
}
