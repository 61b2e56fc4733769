//===- generate_chip_jobs_test.cpp - a generation run on the chip with --jobs 2 (worker processes)
//===//
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus_fixture.h"
#include "opforge/generator/inductor.h"
#include "opforge/generator/report.h"
#include "opforge/generator/runlog.h"
#include "opforge/harness/judge.h"
#include "opforge/harness/validate.h"

using namespace opforge;
using namespace opforge::generator;
namespace fs = std::filesystem;

// With the chip executor and two jobs, overloads run in two worker processes
// (one chip model each); every overload gets its outcome, the workers' records
// (prompts, transitions, outcomes) land in the run log, and no worker log is left.
TEST(GenerateChipJobs, TwoWorkerProcessesGiveEveryOutcomeAndOneMergedRunLog) {
  if (!harness::chip_executor_available()) GTEST_SKIP() << "no chip executor in this build";
  auto corpus = harness::Corpus::open(test::small_corpus());
  const std::vector<std::string> overloads = {"aten::add.Tensor", "aten::exp", "aten::sigmoid",
                                              "aten::where.self", "aten::index_select"};
  for (const auto &o : overloads) ASSERT_TRUE(corpus.has_overload(o)) << o;
  auto table =
      std::make_shared<const LoweringTable>(LoweringTable::load(LoweringTable::default_dir()));
  std::map<std::string, std::string> schemas;
  for (const auto &o : overloads) schemas[o] = corpus.overload(o).schema;
  auto provider = make_inductor_provider(table, schemas);
  auto templates = PromptTemplates::load(PromptTemplates::default_dir());
  fs::path out = test::temp_dir();
  const std::string log_path = (out / "runlog.jsonl").string();
  std::vector<OverloadOutcome> rows;
  std::vector<nlohmann::json> records;
  {
    RunLog log(log_path);
    harness::GenerateOptions g;
    g.overloads = overloads;
    g.library_dir = (out / "library").string();
    g.force = true;
    g.jobs = 2;
    g.max_calls = 2;
    g.executor = harness::ExecutorKind::Chip;
    g.table = table;
    g.loop.budget.max_dialogs = 1;
    g.loop.budget.max_calls_per_dialog = 1;
    size_t last_done = 0;
    g.progress = [&](size_t done, size_t total, size_t) {
      EXPECT_EQ(done, last_done + 1);
      EXPECT_EQ(total, overloads.size());
      last_done = done;
    };
    rows = harness::run_generation(corpus, *provider, templates, log, g);
    EXPECT_EQ(last_done, overloads.size());
    records = log.records();
  }
  ASSERT_EQ(rows.size(), overloads.size());
  for (size_t i = 0; i < overloads.size(); ++i) {
    EXPECT_EQ(rows[i].overload, overloads[i]);
    // Two calls of each: every kernel passes them, but that is partial, not a pass.
    EXPECT_EQ(rows[i].result, "partial") << overloads[i] << ": " << rows[i].reason;
    EXPECT_NE(rows[i].reason.find("checked 2 of "), std::string::npos) << rows[i].reason;
    EXPECT_FALSE(fs::exists(out / "library" / (overloads[i].substr(6) + ".py"))) << overloads[i];
  }
  for (const auto &o : overloads) {
    int prompts = 0, results = 0;
    for (const auto &r : records) {
      if (r.value("overload", "") != o) continue;
      prompts += r.value("event", "") == "prompt";
      results += r.value("event", "") == "overload_result";
    }
    EXPECT_EQ(prompts, 1) << o;
    EXPECT_EQ(results, 1) << o;
  }
  // The file holds the same records, and the outcomes read back equal the returned rows.
  auto back = outcomes_from_records(read_runlog(log_path));
  ASSERT_EQ(back.size(), overloads.size());
  for (const auto &b : back) {
    EXPECT_EQ(b.result, "partial") << b.overload;
    EXPECT_EQ(b.calls_checked, 2) << b.overload;
  }
  for (const auto &entry : fs::directory_iterator(out))
    EXPECT_EQ(entry.path().filename().string().find(".worker"), std::string::npos) << entry.path();
}
