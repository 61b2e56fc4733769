//===- inductor_loop_test.cpp - the inductor provider end to end: loop, judge, library, report ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "corpus_fixture.h"
#include "opforge/generator/inductor.h"
#include "opforge/generator/report.h"
#include "opforge/generator/runlog.h"
#include "opforge/harness/judge.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::generator;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The shipped pointwise family in a private table directory, with aten::mul.Tensor
// lowered wrongly (x - y) so that one overload fails verification, and
// aten::mm excluded.
fs::path test_table_dir() {
  fs::path src = LoweringTable::default_dir();
  fs::path dir = test::temp_dir();
  fs::create_directories(dir / "table");
  fs::create_directories(dir / "templates");
  fs::copy(src / "templates" / "pointwise", dir / "templates" / "pointwise",
           fs::copy_options::recursive);
  auto j = nlohmann::json::parse(read(src / "table" / "pointwise.json"));
  for (auto &row : j["rows"]) {
    auto ovs = row["overloads"].get<std::vector<std::string>>();
    if (std::find(ovs.begin(), ovs.end(), "aten::mul.Tensor") != ovs.end()) {
      row["overloads"] = {"aten::mul.Tensor"};
      row["params"]["EXPR"] = "x - y";
      row["params"]["INT_EXPR"] = "x - y";
      row.erase("overload_params");
    }
  }
  std::ofstream(dir / "table" / "pointwise.json") << j.dump(1);
  std::ofstream(dir / "excluded.json")
      << R"({"excluded": [{"overloads": ["aten::mm"], "reason": "test: excluded on purpose"}]})";
  return dir;
}

struct Run {
  std::vector<OverloadOutcome> rows;
  std::vector<nlohmann::json> records;
};

Run generate(const harness::Corpus &corpus, const fs::path &table_dir, const fs::path &out,
             const std::vector<std::string> &overloads, bool force) {
  auto table = std::make_shared<const LoweringTable>(LoweringTable::load(table_dir.string()));
  std::map<std::string, std::string> schemas;
  for (const auto &o : overloads) schemas[o] = corpus.overload(o).schema;
  auto provider = make_inductor_provider(table, schemas);
  auto templates = PromptTemplates::load(PromptTemplates::default_dir());
  RunLog log((out / "runlog.jsonl").string());
  harness::GenerateOptions g;
  g.overloads = overloads;
  g.library_dir = (out / "library").string();
  g.force = force;
  g.jobs = 2;  // every recorded call (the default): a pass means all of them passed
  g.table = table;
  g.loop.budget.max_dialogs = 1;
  g.loop.budget.max_calls_per_dialog = 1;
  Run r;
  r.rows = harness::run_generation(corpus, *provider, templates, log, g);
  r.records = log.records();
  return r;
}

const OverloadOutcome &find(const std::vector<OverloadOutcome> &rows, const std::string &ov) {
  for (const auto &r : rows)
    if (r.overload == ov) return r;
  throw std::runtime_error("no row for " + ov);
}

int prompts_for(const std::vector<nlohmann::json> &records, const std::string &ov) {
  int n = 0;
  for (const auto &r : records)
    n += r.value("event", "") == "prompt" && r.value("overload", "") == ov;
  return n;
}

const std::vector<std::string> kOverloads = {"aten::add.Tensor", "aten::exp", "aten::mul.Tensor",
                                             "aten::mm", "aten::index_select"};

}  // namespace

TEST(InductorLoop, GeneratesPassingKernelsAndReportsFailuresAndExclusions) {
  auto corpus = harness::Corpus::open(test::small_corpus());
  for (const auto &o : kOverloads) ASSERT_TRUE(corpus.has_overload(o)) << o;
  fs::path out = test::temp_dir();
  auto run = generate(corpus, test_table_dir(), out, kOverloads, false);
  ASSERT_EQ(run.rows.size(), kOverloads.size());

  for (const char *ok : {"aten::add.Tensor", "aten::exp"}) {
    const auto &r = find(run.rows, ok);
    EXPECT_EQ(r.result, "pass") << ok << ": " << r.reason;
    EXPECT_EQ(r.model_calls, 1) << ok;
    std::string file = read(out / "library" / (std::string(ok).substr(6) + ".py"));
    EXPECT_EQ(file.rfind("# opforge generated kernel: " + std::string(ok) + "\n", 0), 0u) << file;
    EXPECT_NE(file.find("# provider: inductor, model: inductor-templates, attempt: 0, date: 20"),
              std::string::npos)
        << file;
    EXPECT_NE(file.find("@triton.jit"), std::string::npos);
  }
  const auto &mul = find(run.rows, "aten::mul.Tensor");
  EXPECT_EQ(mul.result, "fail");
  EXPECT_EQ(mul.reason.rfind("mismatch: ", 0), 0u) << mul.reason;
  EXPECT_NE(mul.reason.find("[call aten::mul.Tensor("), std::string::npos) << mul.reason;
  EXPECT_FALSE(fs::exists(out / "library" / "mul.Tensor.py"));

  const auto &mm = find(run.rows, "aten::mm");
  EXPECT_EQ(mm.result, "excluded");
  EXPECT_EQ(mm.reason, "test: excluded on purpose");
  EXPECT_EQ(prompts_for(run.records, "aten::mm"), 0);

  const auto &is = find(run.rows, "aten::index_select");
  EXPECT_EQ(is.result, "fail");
  EXPECT_NE(is.reason.find("unsupported: no lowering rule for aten::index_select"),
            std::string::npos)
      << is.reason;

  // The run log's overload_result records give back the same outcomes.
  auto back = outcomes_from_records(read_runlog((out / "runlog.jsonl").string()));
  ASSERT_EQ(back.size(), kOverloads.size());
  for (const auto &r : run.rows) {
    const auto &b = find(back, r.overload);
    EXPECT_EQ(b.result, r.result) << r.overload;
    EXPECT_EQ(b.reason, r.reason) << r.overload;
    EXPECT_EQ(b.pass_by_attempt, r.pass_by_attempt) << r.overload;
  }
}

TEST(InductorLoop, RunResumesSkippingPassingOverloadsUnlessForced) {
  auto corpus = harness::Corpus::open(test::small_corpus());
  fs::path table = test_table_dir(), out = test::temp_dir();
  std::vector<std::string> ovs = {"aten::add.Tensor", "aten::mul.Tensor"};
  auto first = generate(corpus, table, out, ovs, false);
  ASSERT_EQ(find(first.rows, "aten::add.Tensor").result, "pass");
  auto written = fs::last_write_time(out / "library" / "add.Tensor.py");

  auto second = generate(corpus, table, out, ovs, false);
  EXPECT_EQ(find(second.rows, "aten::add.Tensor").result, "cached");
  EXPECT_EQ(find(second.rows, "aten::mul.Tensor").result, "fail");  // failing ones are retried
  EXPECT_EQ(prompts_for(second.records, "aten::add.Tensor"), 0);
  EXPECT_EQ(prompts_for(second.records, "aten::mul.Tensor"), 1);
  EXPECT_EQ(fs::last_write_time(out / "library" / "add.Tensor.py"), written);

  auto forced = generate(corpus, table, out, ovs, true);
  EXPECT_EQ(find(forced.rows, "aten::add.Tensor").result, "pass");
  EXPECT_EQ(prompts_for(forced.records, "aten::add.Tensor"), 1);

  // The appended log reports the latest outcome of each overload once.
  auto all = outcomes_from_records(read_runlog((out / "runlog.jsonl").string()));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(find(all, "aten::add.Tensor").result, "pass");
}

TEST(InductorReport, CoverageByCategoryBesideTritorXWithReasons) {
  std::vector<OverloadOutcome> rows(5);
  rows[0] = {"aten::add.Tensor", "pointwise", "pass", "", 2, 1, 2, {true, false}, 0.1};
  rows[1] = {"aten::exp", "pointwise", "cached", "", 0, 0, 0, {}, 0};
  rows[2] = {"aten::mul.Tensor", "pointwise", "fail", "mismatch: out differs", 2, 0, 2,
             {false, false},     0.1};
  rows[3] = {"aten::mm", "linear algebra", "excluded", "no DPE today", 0, 0, 0, {}, 0};
  rows[4] = {"aten::sum", "reduction", "fail", "compile: bad", 2, 2, 2, {true, true}, 0.1};
  auto cov = coverage_by_category(rows);
  ASSERT_EQ(cov.back().category, "all");
  EXPECT_EQ(cov.back().supportable(), 4);
  EXPECT_EQ(cov.back().passing, 2);
  for (const auto &c : cov) {
    if (c.category == "pointwise") {
      EXPECT_NEAR(c.coverage(), 2.0 / 3.0, 1e-12);
    }
  }
  auto pk = mean_pass_at_k(rows);
  ASSERT_EQ(pk.size(), 2u);
  // pass@1: add 1/2, mul 0, sum 1 -> 0.5; pass@2: 1, 0, 1 -> 2/3
  EXPECT_NEAR(pk[0], 0.5, 1e-12);
  EXPECT_NEAR(pk[1], 2.0 / 3.0, 1e-12);
  std::string text = format_report(rows);
  EXPECT_NE(text.find("pointwise         3          0         2         66.7%     85.0%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("linear algebra    1          1         0"), std::string::npos) << text;
  EXPECT_NE(text.find("aten::mul.Tensor"), std::string::npos);
  EXPECT_NE(text.find("mismatch: out differs"), std::string::npos);
  EXPECT_NE(text.find("excluded overloads:\n  aten::mm"), std::string::npos) << text;
  const std::string failing = text.substr(text.find("failing overloads:"));
  EXPECT_EQ(failing.find("aten::exp "), std::string::npos) << "passing overloads are not failing";
  EXPECT_NE(text.find("calls checked / recorded per overload"), std::string::npos) << text;
  EXPECT_EQ(*tritorx_coverage("shape/view"), 0.96);
  EXPECT_FALSE(tritorx_coverage("other").has_value());
}

TEST(InductorReport, BadRecordsAreNamed) {
  std::vector<nlohmann::json> recs = {{{"event", "overload_result"}, {"overload", "aten::a"}}};
  try {
    outcomes_from_records(recs);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("record 0"), std::string::npos) << e.what();
  }
  recs[0]["result"] = "maybe";
  EXPECT_THROW(outcomes_from_records(recs), Error);
}

#ifdef OPFORGE_CLI
TEST(InductorCli, GenerateThenReport) {
  fs::path table = test_table_dir(), out = test::temp_dir();
  std::string cmd = std::string("'") + OPFORGE_CLI +
                    "' generate --provider inductor --inductor-dir '" + table.string() +
                    "' --corpus '" + test::small_corpus() +
                    "' --ops add.Tensor,mul.Tensor,mm --out '" + out.string() + "'";
  std::string output;
  int rc = test::run_command(cmd + " 2>&1", &output);
  EXPECT_NE(rc, 0) << "mul.Tensor fails, so the run must not exit 0\n" << output;
  EXPECT_NE(output.find("aten::add.Tensor"), std::string::npos) << output;
  EXPECT_NE(output.find("excluded"), std::string::npos) << output;
  EXPECT_NE(output.find("passing 1 of 2 supportable overloads (1 excluded)"), std::string::npos)
      << output;
  EXPECT_TRUE(fs::exists(out / "library" / "add.Tensor.py"));

  rc = test::run_command(
      std::string("'") + OPFORGE_CLI + "' generate --report '" + out.string() + "' 2>&1", &output);
  EXPECT_EQ(rc, 1) << "mul.Tensor fails, so --report must not exit 0 either\n" << output;
  EXPECT_NE(output.find("44/44"), std::string::npos) << output;  // add.Tensor: every call
  EXPECT_NE(output.find("pointwise         2          0         1         50.0%     85.0%"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("failing overloads:\n  aten::mul.Tensor"), std::string::npos) << output;

  rc = test::run_command(
      std::string("'") + OPFORGE_CLI + "' generate --report '" + (out / "nope").string() + "' 2>&1",
      &output);
  EXPECT_NE(rc, 0);
  EXPECT_NE(output.find("nope"), std::string::npos) << output;
}

TEST(InductorCli, NegativeMaxCallsIsAUsageError) {
  fs::path out = test::temp_dir();
  std::string output;
  int rc = test::run_command(
      std::string("'") + OPFORGE_CLI + "' generate --provider inductor --inductor-dir '" +
          test_table_dir().string() + "' --corpus '" + test::small_corpus() +
          "' --ops add.Tensor --max-calls -1 --out '" + out.string() + "' 2>&1",
      &output);
  EXPECT_EQ(rc, 2) << output;
  EXPECT_NE(output.find("--max-calls must not be negative"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(out / "library")) << "a usage error must not start the run";
}
#endif
