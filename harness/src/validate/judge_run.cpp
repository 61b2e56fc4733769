// judge_run.cpp - a generation run over corpus overloads: loop, corpus judge, library files,
// outcomes.
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>
#include <optional>

#include "opforge/compiler/capability.h"
#include "opforge/compiler/executor.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/judge.h"
#include "opforge/generator/report.h"
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

using WorkerBody =
    std::function<generator::OverloadOutcome(size_t, const Corpus &, generator::RunLog &)>;

void write_all(int fd, const std::string &text) {
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);  // the parent is gone
    off += static_cast<size_t>(n);
  }
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

// Runs body(i) for every overload in `jobs` forked worker processes, each with
// its own corpus handle, chip device and run log (<log>.worker<N>, merged into
// `log` at the end). Workers take the next overload from a counter in shared
// memory and report "S i" (started) and "R i <outcome json>" (finished) lines
// through a pipe. A worker that dies (a crash in the model) fails the overload
// it was running with the reason, and a new worker takes its place.
void run_in_processes(const Corpus &corpus, const std::vector<std::string> &overloads, int jobs,
                      generator::RunLog &log, const WorkerBody &body,
                      std::vector<generator::OverloadOutcome> &rows,
                      const std::function<void(size_t, size_t, size_t)> &progress) {
  const size_t n = overloads.size();
  void *mem = mmap(nullptr, sizeof(std::atomic<size_t>), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw Error("cannot map the worker processes' shared counter");
  auto *counter = new (mem) std::atomic<size_t>(0);
  struct Worker {
    pid_t pid;
    int fd;
    std::string pending;
    std::optional<size_t> current;
    size_t claimed = 0;
  };
  std::vector<Worker> workers;
  std::vector<std::string> worker_logs;
  std::vector<bool> finished(n, false);
  size_t done = 0, passing = 0;
  auto spawn = [&] {
    std::string wlog = log.path() + ".worker" + std::to_string(worker_logs.size());
    int p[2];
    if (pipe(p) != 0) throw Error("cannot create a pipe for a worker process");
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) throw Error("cannot fork a worker process");
    if (pid == 0) {
      ::close(p[0]);
      signal(SIGPIPE, SIG_DFL);
      int code = 0;
      try {
        auto own = Corpus::open(corpus.path());
        generator::RunLog own_log(wlog);
        for (size_t i = (*counter)++; i < n; i = (*counter)++) {
          write_all(p[1], "S " + std::to_string(i) + "\n");
          auto outcome = body(i, own, own_log);
          auto record = generator::outcome_to_json(outcome);
          own_log.append(record);
          write_all(p[1],
                    "R " + std::to_string(i) + " " +
                        record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                        "\n");
        }
      } catch (const std::exception &e) {
        write_all(p[1], std::string("E ") + e.what() + "\n");
        code = 1;
      }
      ::close(p[1]);
      _exit(code);
    }
    ::close(p[1]);
    workers.push_back({pid, p[0], "", std::nullopt, 0});
    worker_logs.push_back(wlog);
  };
  auto fail_row = [&](size_t i, const std::string &why) {
    rows[i].overload = overloads[i];
    rows[i].category = std::string(category_name(categorize(overloads[i])));
    rows[i].result = "error";
    rows[i].reason = why;
    log.append(generator::outcome_to_json(rows[i]));
    finished[i] = true;
    ++done;
    if (progress) progress(done, n, passing);
  };
  std::string worker_error;
  auto handle_line = [&](Worker &w, const std::string &line) {
    if (line.rfind("S ", 0) == 0) {
      w.current = std::stoul(line.substr(2));
      ++w.claimed;
    } else if (line.rfind("R ", 0) == 0) {
      size_t sp = line.find(' ', 2);
      size_t i = std::stoul(line.substr(2, sp - 2));
      rows[i] = generator::outcome_from_json(nlohmann::json::parse(line.substr(sp + 1)));
      w.current.reset();
      finished[i] = true;
      ++done;
      if (rows[i].passing()) ++passing;
      if (progress) progress(done, n, passing);
    } else if (line.rfind("E ", 0) == 0) {
      worker_error = line.substr(2);
    }
  };
  try {
    for (int j = 0; j < std::min<int>(jobs, static_cast<int>(n)); ++j) spawn();
    while (!workers.empty()) {
      std::vector<pollfd> fds;
      for (auto &w : workers) fds.push_back({w.fd, POLLIN, 0});
      if (poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        throw Error("poll on the worker processes failed");
      }
      for (size_t k = workers.size(); k-- > 0;) {
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        Worker &w = workers[k];
        char buf[65536];
        ssize_t got = ::read(w.fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got > 0) {
          w.pending.append(buf, static_cast<size_t>(got));
          for (size_t nl; (nl = w.pending.find('\n')) != std::string::npos;) {
            handle_line(w, w.pending.substr(0, nl));
            w.pending.erase(0, nl + 1);
          }
          continue;
        }
        // End of file: the worker has exited.
        ::close(w.fd);
        int status = 0;
        waitpid(w.pid, &status, 0);
        bool productive = w.claimed > 0;
        if (w.current)
          fail_row(*w.current,
                   "the worker process running it ended (" + describe_status(status) + ")");
        workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(k));
        if (productive && counter->load() < n) spawn();
      }
    }
  } catch (...) {
    for (auto &w : workers) kill(w.pid, SIGKILL);
    for (auto &w : workers) waitpid(w.pid, nullptr, 0);
    munmap(mem, sizeof(std::atomic<size_t>));
    throw;
  }
  munmap(mem, sizeof(std::atomic<size_t>));
  for (size_t i = 0; i < n; ++i)
    if (!finished[i])
      fail_row(i, "no worker process ran it" +
                      (worker_error.empty() ? std::string() : ": " + worker_error));
  // The workers' records (transitions, prompts, verdicts, outcomes) join the run log.
  for (const auto &path : worker_logs) {
    if (!fs::exists(path)) continue;
    for (auto &record : generator::read_runlog(path)) log.append(std::move(record));
    fs::remove(path);
  }
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
    // The wall-clock limit grows by a quarter second per recorded call, so that an
    // overload with thousands of calls (every call verified) is not cut short.
    jo.run_timeout_s = options.run_timeout_s + 0.25 * static_cast<double>(jo.calls.size());
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
  // --jobs N runs N worker processes (see run_in_processes) when the run log
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
    run_in_processes(corpus, overloads, options.jobs, log, body, rows, options.progress);
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
