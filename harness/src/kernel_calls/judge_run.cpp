// judge_run.cpp - a generation run over corpus overloads: loop, corpus judge, library files,
// outcomes.
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "opforge/compiler/capability.h"
#include "opforge/compiler/executor.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/judge.h"
#include "opforge/generator/inductor.h"
#include "opforge/generator/report.h"
#include "opforge/generator/semantic_notes.h"
#include "opforge/harness/prompt_facts.h"
#include "opforge/support/error.h"
#include "opforge/support/process_pool.h"

namespace fs = std::filesystem;

namespace opforge::harness {

namespace {

// At most max_calls of an overload's recorded calls, spread over its dtypes (each
// dtype group in turn gets one more until the budget is spent), in corpus order.
std::vector<Call> select_calls(const Corpus &corpus, const OverloadEntry &entry, size_t max_calls) {
  if (max_calls >= static_cast<size_t>(entry.total_calls()))
    return corpus.calls(entry.name, std::nullopt);
  std::map<DType, size_t> quota;
  for (size_t left = max_calls; left > 0;) {
    size_t before = left;
    for (const auto &[dtype, n] : entry.calls_per_dtype)
      if (left > 0 && static_cast<int64_t>(quota[dtype]) < n) {
        ++quota[dtype];
        --left;
      }
    if (left == before) break;
  }
  std::vector<Call> out;
  for (auto dtype : corpus.dtypes()) {
    auto it = quota.find(dtype);
    if (it == quota.end() || it->second == 0) continue;
    for (auto &call : corpus.calls(entry.name, dtype, it->second)) out.push_back(std::move(call));
  }
  return out;
}

std::string today_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

using WorkerBody =
    std::function<generator::OverloadOutcome(size_t, const Corpus &, generator::RunLog &)>;

// Runs body(i) for every overload in `jobs` worker processes of the process
// pool, each with its own corpus handle and chip device, kept from one
// overload to the next. An overload's run-log records (transitions, prompts,
// verdicts, its outcome last) come back through the pool's pipe as JSON lines
// and join `log` when it finishes. A worker that dies (a crash in the model)
// fails the overload it was running with the reason, and a new worker takes
// its place.
void run_in_worker_processes(const Corpus &corpus, const std::vector<std::string> &overloads,
                             int jobs, generator::RunLog &log, const WorkerBody &body,
                             std::vector<generator::OverloadOutcome> &rows,
                             const std::function<void(size_t, size_t, size_t)> &progress) {
  std::optional<Corpus> own;  // opened in each worker, on its first overload
  TaskBody task = [&](size_t i) {
    if (!own) own.emplace(Corpus::open(corpus.path()));
    generator::RunLog task_log;  // in memory: the records travel to the parent
    auto outcome = body(i, *own, task_log);
    task_log.append(generator::outcome_to_json(outcome));
    std::string lines;
    for (const auto &record : task_log.records())
      lines += record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    return lines;
  };
  size_t passing = 0;
  ProcessPoolOptions pool;
  pool.workers = static_cast<unsigned>(std::max(1, jobs));
  pool.tasks_per_worker = 0;
  pool.on_done = [&](size_t i, const TaskOutcome &outcome, size_t done, size_t total) {
    std::string why;
    if (outcome.ok()) {
      try {
        std::vector<nlohmann::json> records;
        std::istringstream lines(outcome.output);
        for (std::string line; std::getline(lines, line);)
          records.push_back(nlohmann::json::parse(line));
        if (records.empty()) throw Error("no records");
        rows[i] = generator::outcome_from_json(records.back());
        for (auto &record : records) log.append(std::move(record));
      } catch (const std::exception &e) {
        why = std::string("its worker process's records are unreadable: ") + e.what();
      }
    } else if (outcome.exit_code < 0 && outcome.signal == 0) {
      why = "its worker process failed: " + outcome.reason;  // threw, e.g. opening the corpus
    } else {
      why = "the worker process running it ended (" + outcome.reason + ")";
    }
    if (!why.empty()) {
      rows[i].overload = overloads[i];
      rows[i].category = std::string(category_name(categorize(overloads[i])));
      rows[i].result = "error";
      rows[i].reason = why;
      log.append(generator::outcome_to_json(rows[i]));
    }
    if (rows[i].passing()) ++passing;
    if (progress) progress(done, total, passing);
  };
  run_in_processes(overloads.size(), task, pool);
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
  // Hand-written meaning of internal overloads, beside the lowering table (semantic_notes.h).
  const auto notes = generator::SemanticNotes::load(
      options.table ? options.table->dir() : generator::LoweringTable::default_dir());
  const ExecutorKind kind = options.executor;
  generator::ExecutorFactory executor = [kind] { return make_executor(kind); };

  auto one = [&](size_t i, const Corpus &corpus, generator::RunLog &log) {
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
    int64_t recorded = 0;
    {
      std::lock_guard lock(corpus_mutex);
      const auto &entry = corpus.overload(ov);
      c.schema = entry.schema;
      c.docstring = generator::overload_documentation(corpus.docstring(ov), notes.find(ov));
      recorded = entry.total_calls();
      calls = select_calls(corpus, entry, options.max_calls);
    }
    // What the calls themselves pass and return (not the OpInfo dtype groups).
    c.dtypes = call_dtypes(calls);
    c.call_signatures = call_signatures(calls);
    c.overload = ov;
    c.wrapper = generator::wrapper_name(ov);
    c.category = row.category;
    c.target_constraints = caps;
    c.reference_kernels =
        generator::reference_kernels(options.library_dir, row.category, library_file_name_for(ov));
    JudgeOptions jo;
    jo.recorded_calls = recorded;
    if (static_cast<int64_t>(calls.size()) < recorded)
      jo.cut = "--max-calls " + std::to_string(options.max_calls);
    jo.calls = std::move(calls);
    jo.schema = c.schema;
    jo.corpus = &corpus;
    jo.executor = executor;
    // The wall-clock limit grows by a quarter second per recorded call, so that an
    // overload with thousands of calls (every call verified) is not cut short.
    jo.run_timeout_s = options.run_timeout_s + 0.25 * static_cast<double>(jo.calls.size());
    generator::EvaluatorOptions eo;
    eo.judge = corpus_judge_factory(std::move(jo));
    job.make_evaluator = [eo] { return generator::make_reference_evaluator(eo); };
    auto results = generator::run_overload(job, templates, provider, log, options.loop);
    row.attempts = static_cast<int>(results.size());
    const generator::AttemptResult *first_pass = nullptr, *best_partial = nullptr,
                                   *first_fail = nullptr;
    for (const auto &r : results) {
      row.model_calls += r.model_calls;
      row.pass_by_attempt.push_back(r.passed());
      if (r.passed()) {
        ++row.passed;
        if (!first_pass) first_pass = &r;
      } else if (r.partial()) {
        if (!best_partial || r.calls_checked > best_partial->calls_checked) best_partial = &r;
      } else if (!first_fail) {
        first_fail = &r;
        row.reason = r.last_failure.empty() ? r.reason : r.last_failure;
      }
    }
    const generator::AttemptResult *stands_on =
        first_pass ? first_pass : (best_partial ? best_partial : first_fail);
    if (stands_on) {
      row.calls_checked = stands_on->calls_checked;
      row.calls_recorded = std::max(recorded, stands_on->calls_recorded);
      row.calls_failed = stands_on->calls_failed;
    }
    if (!first_pass && best_partial) {
      // Not a pass and not written to the library: a bound cut calls it never ran.
      row.result = "partial";
      row.reason = "partial: checked " + std::to_string(best_partial->calls_checked) + " of " +
                   std::to_string(row.calls_recorded) + " calls (cut by " + best_partial->cut +
                   "); every call it ran passed; not written to the library";
    } else if (first_pass) {
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

  auto finish_row = [&](size_t i, const std::exception *error) {
    if (!error) return;
    rows[i].overload = overloads[i];
    rows[i].category = std::string(category_name(categorize(overloads[i])));
    rows[i].result = "error";
    rows[i].reason = error->what();
  };
  auto worker = [&] {
    for (size_t i = next++; i < overloads.size(); i = next++) {
      try {
        one(i, corpus, log);
      } catch (const std::exception &e) {
        finish_row(i, &e);
      }
      log.append(generator::outcome_to_json(rows[i]));
      if (rows[i].passing()) ++passing;
      ++done;
      if (options.progress) options.progress(done, overloads.size(), passing);
    }
  };
  // The chip model is one single-threaded device per process: with the chip,
  // --jobs N runs N worker processes (see run_in_worker_processes) when the run log
  // is a file; otherwise overloads run one after another.
  if (kind == ExecutorKind::Chip && options.jobs > 1 && overloads.size() > 1 &&
      !log.path().empty()) {
    WorkerBody body = [&](size_t i, const Corpus &own, generator::RunLog &own_log) {
      try {
        one(i, own, own_log);
      } catch (const std::exception &e) {
        finish_row(i, &e);
      }
      return rows[i];
    };
    run_in_worker_processes(corpus, overloads, options.jobs, log, body, rows, options.progress);
    return rows;
  }
  int jobs = kind == ExecutorKind::Chip ? 1 : std::max(1, options.jobs);
  std::vector<std::thread> threads;
  for (int j = 0; j < std::min<int>(jobs, static_cast<int>(overloads.size())); ++j)
    threads.emplace_back(worker);
  for (auto &t : threads) t.join();
  return rows;
}

}  // namespace opforge::harness
