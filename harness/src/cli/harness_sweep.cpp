//===- harness_sweep.cpp - `opforge sweep` and the hidden `sweep-point` ---===//
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/harness/runner.h"
#include "opforge/harness/scenario.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

namespace opforge::cli {
namespace {
namespace fs = std::filesystem;

constexpr const char *kUsage =
    "usage: opforge sweep SCENARIO.json [--jobs N] [--out FILE.h5] [--resume [--retry-failed] | "
    "--fresh]\n"
    "                     [--timeout SECONDS] [--list] [--quiet]\n"
    "                     [--backend local|slurm [--partition P] [--sbatch-arg ARG]...\n"
    "                      [--max-parallel N] [--wait]]\n"
    "       opforge sweep SCENARIO.json --merge [--out FILE.h5]\n\n"
    "Expand a scenario's sweep into points and run each point in its own child\n"
    "process (the chip model elaborates once per process). Results: one HDF5\n"
    "file (docs/scenarios.md, docs/results.md); per-point shards in FILE.h5.shards/.\n\n"
    "  --jobs N           points run at once (default: number of cores)\n"
    "  --out FILE         results file (default: the scenario's \"output\")\n"
    "  --resume           skip points whose shard exists (finished or failed)\n"
    "  --retry-failed     with --resume, run failed points again\n"
    "  --fresh            delete an earlier run's shards and FILE.h5, run every point;\n"
    "                     with neither --resume nor --fresh, a run that finds finished\n"
    "                     shards refuses to start (exit 2) and deletes nothing\n"
    "  --timeout SECONDS  per-point limit (default: the scenario's timeout_s)\n"
    "  --list             print the points and exit\n"
    "  --quiet            no report table at the end\n"
    "  --backend slurm    submit an sbatch job array (one task per point) and a\n"
    "                     dependent merge job instead of running locally; files in\n"
    "                     FILE.h5.slurm/. --wait polls until the merge job ends.\n"
    "  --merge            build FILE.h5 from the shards present (the merge job); points\n"
    "                     without a shard keep their result from FILE.h5 of the same\n"
    "                     sweep, and a FILE.h5 with more finished points is never replaced\n"
    "Point processes die with the runner (killed too when it is).\n"
    "Exit status: 0 if every point succeeded, 1 if any failed, 2 usage or bad scenario,\n"
    "or finished results that the run or merge would delete or replace.\n";

int run_sweep_cmd(const std::vector<std::string> &args) {
  std::string scenario, out;
  harness::RunOptions opts;
  harness::SlurmOptions slurm;
  std::string backend = "local";
  bool list = false, merge = false, wait = false, quiet = false;
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string &a = args[k];
    auto value = [&]() -> const std::string * {
      return k + 1 < args.size() ? &args[++k] : nullptr;
    };
    const std::string *v = nullptr;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return kExitOk;
    } else if (a == "--jobs" || a == "-j") {
      if (!(v = value())) return usage_error("sweep", "--jobs needs a number");
      try {
        int j = std::stoi(*v);
        if (j < 1) throw std::invalid_argument("");
        opts.jobs = unsigned(j);
      } catch (const std::exception &) {
        return usage_error("sweep", "--jobs needs a positive number, got '" + *v + "'");
      }
    } else if (a == "--out") {
      if (!(v = value())) return usage_error("sweep", "--out needs a file");
      out = *v;
    } else if (a == "--timeout") {
      if (!(v = value())) return usage_error("sweep", "--timeout needs seconds");
      try {
        opts.timeout_s = std::stod(*v);
        if (opts.timeout_s <= 0) throw std::invalid_argument("");
      } catch (const std::exception &) {
        return usage_error("sweep", "--timeout needs a positive number, got '" + *v + "'");
      }
    } else if (a == "--resume") {
      opts.resume = true;
    } else if (a == "--retry-failed") {
      opts.retry_failed = true;
    } else if (a == "--fresh") {
      opts.fresh = true;
    } else if (a == "--list") {
      list = true;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--merge") {
      merge = true;
    } else if (a == "--wait") {
      wait = true;
    } else if (a == "--backend") {
      if (!(v = value()) || (*v != "local" && *v != "slurm"))
        return usage_error("sweep", "--backend needs 'local' or 'slurm'");
      backend = *v;
    } else if (a == "--partition") {
      if (!(v = value())) return usage_error("sweep", "--partition needs a name");
      slurm.partition = *v;
    } else if (a == "--sbatch-arg") {
      if (!(v = value())) return usage_error("sweep", "--sbatch-arg needs an argument");
      slurm.sbatch_args.push_back(*v);
    } else if (a == "--max-parallel") {
      if (!(v = value())) return usage_error("sweep", "--max-parallel needs a number");
      try {
        int j = std::stoi(*v);
        if (j < 1) throw std::invalid_argument("");
        slurm.max_parallel = unsigned(j);
      } catch (const std::exception &) {
        return usage_error("sweep", "--max-parallel needs a positive number, got '" + *v + "'");
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("sweep", "unknown option '" + a + "'");
    } else if (scenario.empty()) {
      scenario = a;
    } else {
      return usage_error("sweep", "more than one scenario given");
    }
  }
  if (scenario.empty()) return usage_error("sweep", "no scenario given");
  harness::Scenario s;
  std::vector<harness::SweepPoint> points;
  try {
    s = harness::parse_scenario_file(scenario);
    points = harness::expand_sweep(s);
  } catch (const Error &e) {
    std::cerr << "opforge sweep: error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (list) {
    for (const auto &p : points) {
      std::cout << p.index << " " << s.workloads[p.workload].name;
      for (const auto &[k, v] : p.axis_values) std::cout << " " << k << "=" << v.dump();
      std::cout << "\n";
    }
    return kExitOk;
  }
  if (merge && backend == "slurm")
    return usage_error("sweep", "--merge and --backend slurm do not go together");
  if (wait && backend != "slurm") return usage_error("sweep", "--wait needs --backend slurm");
  if (opts.resume && opts.fresh)
    return usage_error("sweep", "--resume and --fresh exclude each other");
  if (merge && (opts.resume || opts.fresh))
    return usage_error("sweep", "--merge takes neither --resume nor --fresh");
  try {
    opts.scenario_file = fs::absolute(scenario).string();
    opts.out = fs::absolute(out.empty() ? s.output : out);
    opts.opforge_exe = fs::read_symlink("/proc/self/exe").string();
    opts.progress = &std::cerr;
    if (merge) {
      harness::MergeSummary m = harness::merge_results(opts.out, s, points);
      std::cout << "merged " << m.points << " points (" << m.ok << " ok, " << m.finished
                << " finished";
      if (m.kept) std::cout << ", " << m.kept << " kept from the previous file";
      std::cout << ") into " << opts.out.string() << "\n";
      return m.ok == m.points ? kExitOk : kExitFailure;
    }
    if (backend == "slurm") {
      harness::SlurmSubmission sub = harness::submit_slurm(s, opts, slurm);
      std::cout << "submitted " << sub.tasks << " point task(s) as Slurm job array "
                << (sub.array_job.empty() ? "-" : sub.array_job) << ", merge job " << sub.merge_job
                << "; scripts and logs in " << sub.dir.string() << "\n";
      if (!wait) return kExitOk;
      double limit = (opts.timeout_s > 0 ? opts.timeout_s : s.timeout_s) *
                         double(std::max<size_t>(sub.tasks, 1)) +
                     600;
      std::string state = harness::wait_for_slurm_job(sub.merge_job, limit, &std::cerr);
      if (state != "COMPLETED") {
        std::cerr << "opforge sweep: error: merge job " << sub.merge_job << " ended " << state
                  << " (see " << (sub.dir / "merge.log").string() << ")\n";
        return kExitFailure;
      }
      std::cout << harness::format_report(opts.out);
      std::cout << "results " << opts.out.string() << "\n";
      h5::File f = h5::File::open(opts.out);
      for (const auto &st : f.read_string_column("/summary", "status"))
        if (st != "ok") return kExitFailure;
      return kExitOk;
    }
    harness::RunSummary sum = harness::run_sweep(s, opts);
    if (!quiet) std::cout << harness::format_report(opts.out);
    std::cout << "sweep " << s.name << ": " << sum.total << " points, " << sum.ok << " ok, "
              << sum.failed << " failed, " << sum.ran << " run, " << sum.skipped
              << " skipped (resume), " << sum.wall_s << " s\nresults " << opts.out.string() << "\n";
    return sum.failed ? kExitFailure : kExitOk;
  } catch (const harness::FinishedWorkError &e) {
    std::cerr << "opforge sweep: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception &e) {
    std::cerr << "opforge sweep: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

// The child side: run one point of a scenario and write its shard.
int run_sweep_point(const std::vector<std::string> &args) {
  std::string scenario, out, fail_status, fail_reason, fail_log;
  long index = -1;
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k] == "--index" && k + 1 < args.size())
      index = std::stol(args[++k]);
    else if (args[k] == "--record-failure" && k + 1 < args.size())
      fail_status = args[++k];
    else if (args[k] == "--reason" && k + 1 < args.size())
      fail_reason = args[++k];
    else if (args[k] == "--log" && k + 1 < args.size())
      fail_log = args[++k];
    else if (args[k] == "--out" && k + 1 < args.size())
      out = args[++k];
    else if (scenario.empty() && args[k][0] != '-')
      scenario = args[k];
    else
      return usage_error("sweep-point", "unexpected argument '" + args[k] + "'");
  }
  if (scenario.empty() || out.empty() || index < 0)
    return usage_error("sweep-point",
                       "needs SCENARIO --index N --out FILE (used by `opforge sweep`)");
  try {
    harness::Scenario s = harness::parse_scenario_file(scenario);
    auto points = harness::expand_sweep(s);
    if (size_t(index) >= points.size())
      return usage_error("sweep-point", "index " + std::to_string(index) + " out of range");
    if (!fail_status.empty()) {
      harness::record_point_failure(s, points[size_t(index)], out, fail_status, fail_reason,
                                    fail_log);
      return kExitOk;
    }
    harness::PointResult r =
        harness::run_point(s, points[size_t(index)], harness::shard_path(out, size_t(index)));
    std::cerr << "point " << index << " " << r.status << " cycles " << r.cycles
              << (r.reason.empty() ? "" : " ") << r.reason << "\n";
    return r.status == "ok" ? kExitOk : kExitFailure;
  } catch (const std::exception &e) {
    std::cerr << "opforge sweep-point: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{
    {"sweep", "run a scenario's sweep of chip configurations, results to HDF5", run_sweep_cmd}};
CommandRegistrar reg_point{
    {"sweep-point", "(internal) run one point of a sweep; used by opforge sweep", run_sweep_point}};

}  // namespace
}  // namespace opforge::cli
