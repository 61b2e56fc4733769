// judge_run.cpp - a generation run over corpus overloads: loop, corpus judge, library files,
// outcomes.
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "opforge/compiler/capability.h"
#include "opforge/compiler/executor.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/judge.h"
#include "opforge/support/error.h"

namespace fs = std::filesystem;

namespace opforge::harness {

namespace {

std::string today_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

}  // namespace

std::vector<generator::OverloadOutcome> run_generation(const Corpus &corpus,
                                                       generator::Provider &provider,
                                                       const generator::PromptTemplates &templates,
                                                       generator::RunLog &log,
                                                       const GenerateOptions &options) {
  const auto &overloads = options.overloads;
  fs::create_directories(options.library_dir);
  std::vector<generator::OverloadOutcome> rows(overloads.size());
  std::atomic<size_t> next{0}, done{0}, passing{0};
  std::mutex corpus_mutex;  // HDF5 reads are not thread-safe
  const std::string caps = compiler::describe(compiler::mtia_capabilities());
  const ExecutorKind kind = options.executor;
  generator::ExecutorFactory executor = [kind] { return make_executor(kind); };

  auto one = [&](size_t i) {
    const std::string &ov = overloads[i];
    auto &row = rows[i];
    row.overload = ov;
    row.category = std::string(category_name(categorize(ov)));
    auto t0 = std::chrono::steady_clock::now();
    fs::path file = fs::path(options.library_dir) / library_file_name_for(ov);
    if (options.table) {
      if (auto why = options.table->excluded(ov)) {
        row.result = "excluded";
        row.reason = *why;
        return;
      }
    }
    if (!options.force && fs::exists(file)) {
      row.result = "cached";
      return;
    }
    generator::OverloadJob job;
    job.overload = ov;
    auto &c = job.context;
    std::vector<Call> calls;
    {
      std::lock_guard lock(corpus_mutex);
      const auto &entry = corpus.overload(ov);
      c.schema = entry.schema;
      c.docstring = corpus.docstring(ov);
      for (auto d : entry.dtypes())
        c.dtypes += (c.dtypes.empty() ? "" : ", ") + std::string(dtype_name(d));
      calls = corpus.calls(ov, std::nullopt, options.max_calls);
    }
    c.overload = ov;
    c.wrapper = generator::wrapper_name(ov);
    c.category = row.category;
    c.target_constraints = caps;
    c.reference_kernels =
        generator::reference_kernels(options.library_dir, row.category, library_file_name_for(ov));
    JudgeOptions jo;
    jo.calls = std::move(calls);
    jo.schema = c.schema;
    jo.corpus = &corpus;
    jo.executor = executor;
    jo.run_timeout_s = options.run_timeout_s;
    generator::EvaluatorOptions eo;
    eo.judge = corpus_judge_factory(std::move(jo));
    job.make_evaluator = [eo] { return generator::make_reference_evaluator(eo); };
    auto results = generator::run_overload(job, templates, provider, log, options.loop);
    row.attempts = static_cast<int>(results.size());
    const generator::AttemptResult *first_pass = nullptr;
    for (const auto &r : results) {
      row.model_calls += r.model_calls;
      row.pass_by_attempt.push_back(r.final_state == generator::State::Done);
      if (r.final_state == generator::State::Done) {
        ++row.passed;
        if (!first_pass) first_pass = &r;
      } else if (row.reason.empty()) {
        row.reason = r.last_failure.empty() ? r.reason : r.last_failure;
      }
    }
    if (first_pass) {
      std::ofstream f(file);
      f << "# opforge generated kernel: " << ov << "\n# category: " << row.category
        << "\n# provider: " << provider.name() << ", model: " << provider.model()
        << ", attempt: " << first_pass->attempt << ", date: " << today_utc() << "\n"
        << first_pass->source;
      if (!f) throw Error("cannot write the library file " + file.string());
      row.result = "pass";
      row.reason.clear();
    } else {
      row.result = "fail";
    }
    row.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };

  auto worker = [&] {
    for (size_t i = next++; i < overloads.size(); i = next++) {
      try {
        one(i);
      } catch (const std::exception &e) {
        rows[i].overload = overloads[i];
        rows[i].category = std::string(category_name(categorize(overloads[i])));
        rows[i].result = "error";
        rows[i].reason = e.what();
      }
      log.append(generator::outcome_to_json(rows[i]));
      if (rows[i].passing()) ++passing;
      ++done;
      if (options.progress) options.progress(done, overloads.size(), passing);
    }
  };
  int jobs = kind == ExecutorKind::Chip ? 1 : std::max(1, options.jobs);
  std::vector<std::thread> threads;
  for (int j = 0; j < std::min<int>(jobs, static_cast<int>(overloads.size())); ++j)
    threads.emplace_back(worker);
  for (auto &t : threads) t.join();
  return rows;
}

}  // namespace opforge::harness
