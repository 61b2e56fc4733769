//===- runner.cpp - runs a sweep's points as programs in the process pool -----===//
#include "opforge/harness/runner.h"

#include <string.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "opforge/support/process_pool.h"

namespace opforge::harness {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string tail(const fs::path &p, size_t max_chars) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.size() > max_chars) s = "..." + s.substr(s.size() - max_chars);
  return s;
}

std::string fmt_secs(double s) {
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%dh%02dm", int(s / 3600), int(s / 60) % 60);
  else if (s >= 60)
    std::snprintf(buf, sizeof buf, "%dm%02ds", int(s / 60), int(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  return buf;
}

// Relative cost of a point for scheduling: the number of PEs it simulates
// (a per-PE grid, or the workload's grid when smaller), 1 when unknown.
double estimated_cost(const Scenario &s, const SweepPoint &p) {
  try {
    nlohmann::json doc = point_arch_document(s, p);
    double pes =
        doc.at("pe_grid").at("rows").get<double>() * doc.at("pe_grid").at("cols").get<double>();
    const Workload &w = s.workloads[p.workload];
    if (!w.grid_per_pe && !is_aten_family(w.kind))
      pes = std::min(pes, double(w.grid[0]) * w.grid[1] * w.grid[2]);
    return std::max(1.0, pes);
  } catch (const std::exception &) {
    return 1.0;
  }
}

}  // namespace

std::vector<size_t> points_to_run(const std::vector<SweepPoint> &points, const fs::path &out,
                                  const RunOptions &opts, RunSummary &sum) {
  const bool resume = opts.resume, retry_failed = opts.retry_failed;
  if (resume && opts.fresh) throw FinishedWorkError("--resume and --fresh exclude each other");
  const bool one = opts.point != SIZE_MAX;
  if (one && opts.point >= points.size())
    throw Error("point " + std::to_string(opts.point) +
                " is not a point of this sweep (points 0.." +
                std::to_string(points.size() ? points.size() - 1 : 0) + ")");
  if (one) {
    // One point asked for by name: it is replaced (--resume: only if unfinished);
    // the other points' shards and rows stay.
  } else if (opts.fresh) {
    std::error_code ec;
    fs::remove(out, ec);
  } else if (!resume) {
    size_t finished = 0;
    for (const auto &p : points) finished += fs::exists(shard_path(out, p.index));
    if (finished)
      throw FinishedWorkError(
          shard_dir(out).string() + " holds " + std::to_string(finished) +
          " finished point(s) of an earlier run of this sweep; nothing was deleted. Run with "
          "--resume to keep them and run the rest, or with --fresh to delete them (and " +
          out.string() + ") and run every point again");
  }
  std::vector<size_t> todo;
  for (const auto &p : points) {
    if (one && p.index != opts.point) continue;
    fs::path sp = shard_path(out, p.index);
    if (resume && fs::exists(sp)) {
      bool failed = false;
      try {
        PointResult r = read_shard(sp);
        failed = r.status != "ok";
      } catch (const Error &) {
        failed = true;  // unreadable: counted as failed
      }
      if (!failed || !retry_failed) {
        ++sum.skipped;
        if (failed)
          ++sum.failed;
        else
          ++sum.ok;
        continue;
      }
    }
    std::error_code ec;
    fs::remove(sp, ec);
    todo.push_back(p.index);
  }
  return todo;
}

void record_point_failure(const Scenario &s, const SweepPoint &p, const fs::path &out,
                          const std::string &status, const std::string &reason,
                          const fs::path &log) {
  PointResult r;
  r.index = p.index;
  r.workload = s.workloads[p.workload].name;
  r.axis_values = nlohmann::json::object();
  for (const auto &[k, v] : p.axis_values) r.axis_values[k] = v;
  r.status = status;
  r.reason = reason;
  if (!log.empty()) {
    std::string t = tail(log, 400);
    if (!t.empty()) r.reason += ": " + t;
  }
  write_shard(shard_path(out, p.index), r);
}

RunSummary run_sweep(const Scenario &s, const RunOptions &opts) {
  auto t0 = Clock::now();
  std::vector<SweepPoint> points = expand_sweep(s);
  RunSummary sum;
  sum.total = opts.point != SIZE_MAX ? 1 : points.size();
  unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  double timeout_s = opts.timeout_s > 0 ? opts.timeout_s : s.timeout_s;
  fs::create_directories(shard_dir(opts.out));

  std::vector<size_t> todo = points_to_run(points, opts.out, opts, sum);
  // Longest first: a sweep over grid sizes has points whose cost differs by
  // the PE count; started last, the big ones would run alone at the end.
  if (jobs > 1 && todo.size() <= 10000) {
    std::vector<double> cost(points.size(), 1.0);
    for (size_t i : todo) cost[i] = estimated_cost(s, points[i]);
    std::stable_sort(todo.begin(), todo.end(),
                     [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  }

  size_t running = 0, done = 0;
  auto progress = [&](bool final) {
    if (!opts.progress) return;
    double el = std::chrono::duration<double>(Clock::now() - t0).count();
    size_t left = todo.size() - done;
    std::string eta = done ? fmt_secs(el / double(done) * double(left)) : "?";
    *opts.progress << "\r[sweep " << s.name << "] " << (sum.skipped + done) << "/" << sum.total
                   << " points, " << sum.failed << " failed, " << running << " running, elapsed "
                   << fmt_secs(el) << ", ETA " << (left ? eta : "0s") << "   "
                   << (final ? "\n" : "") << std::flush;
  };
  auto log_of = [&](size_t i) {
    return shard_dir(opts.out) / ("point-" + std::to_string(i) + ".log");
  };
  // The point process writes its shard; one that did not (or was killed) gets
  // a failure shard here, so that a resumed run does not run it again.
  auto finish = [&](size_t i, const TaskOutcome &outcome) {
    fs::path sp = shard_path(opts.out, i);
    const bool killed = outcome.status == TaskStatus::TimedOut;
    bool have = fs::exists(sp);
    PointResult r;
    if (have) {
      try {
        r = read_shard(sp);
      } catch (const Error &) {
        have = false;
      }
    }
    if (!have || killed) {
      const SweepPoint &p = points[i];
      r = PointResult{};
      r.index = p.index;
      r.workload = s.workloads[p.workload].name;
      r.axis_values = nlohmann::json::object();
      for (const auto &[k, v] : p.axis_values) r.axis_values[k] = v;
      std::string out = tail(log_of(i), 400);
      if (killed) {
        r.status = "timeout";
        r.reason = "killed after the per-point timeout of " + fmt_secs(timeout_s);
      } else if (outcome.signal) {
        r.status = "crashed";
        r.reason = std::string("point process died on signal ") + std::to_string(outcome.signal) +
                   " (" + strsignal(outcome.signal) + ")";
      } else {
        r.status = "crashed";
        r.reason = "point process exited with status " + std::to_string(outcome.exit_code) +
                   " without a result";
      }
      if (!out.empty()) r.reason += ": " + out;
      write_shard(sp, r);
    }
    ++sum.ran;
    if (r.status == "ok")
      ++sum.ok;
    else
      ++sum.failed;
  };

  ProcessPoolOptions pool;
  pool.workers = jobs;
  pool.task_timeout_s = timeout_s;
  pool.order = todo;  // longest first
  std::vector<bool> to_run(points.size(), false);
  for (size_t i : todo) to_run[i] = true;
  pool.skip = [&](size_t i) { return !to_run[i]; };  // finished in an earlier run (--resume)
  pool.on_start = [&](size_t) {
    ++running;
    progress(false);
  };
  pool.on_done = [&](size_t i, const TaskOutcome &outcome, size_t done_now, size_t) {
    --running;
    done = done_now;
    finish(i, outcome);
    progress(false);
  };
  progress(false);
  run_programs(
      points.size(),
      [&](size_t i) {
        return Program{opts.opforge_exe,
                       {opts.opforge_exe, "sweep-point", opts.scenario_file, "--index",
                        std::to_string(i), "--out", opts.out.string()},
                       log_of(i).string()};
      },
      pool);
  merge_results(opts.out, s, points);
  sum.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  progress(true);
  return sum;
}

}  // namespace opforge::harness
