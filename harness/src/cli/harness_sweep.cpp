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
#include "options.h"

namespace opforge::cli {
namespace {
namespace fs = std::filesystem;

constexpr const char *kUsage =
    "usage: opforge sweep SCENARIO.json [--jobs N] [--out FILE.h5] [--resume [--retry-failed] | "
    "--fresh]\n"
    "                     [--timeout SECONDS] [--list] [--quiet] [--point N]\n"
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
    "  --point N          run point N alone (numbers as --list prints them) into the\n"
    "                     same results file: its shard and row are replaced, every other\n"
    "                     point's are kept; with --resume it runs only if it has no\n"
    "                     result (or failed, with --retry-failed)\n"
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
  long point = -1;
  OptionParser p("sweep", kUsage);
  p.number("jobs,j", &opts.jobs, "", Sign::Positive)
      .text("out", &out)
      .number("timeout", &opts.timeout_s, "", Sign::Positive)
      .flag("resume", &opts.resume)
      .flag("retry-failed", &opts.retry_failed)
      .flag("fresh", &opts.fresh)
      .number("point", &point, "", Sign::NonNegative)
      .flag("list", &list)
      .flag("quiet", &quiet)
      .flag("merge", &merge)
      .flag("wait", &wait)
      .text("backend", &backend)
      .text("partition", &slurm.partition)
      .list("sbatch-arg", &slurm.sbatch_args)
      .number("max-parallel", &slurm.max_parallel, "", Sign::Positive)
      .positional("scenario", &scenario);
  if (auto rc = p.parse(args)) return *rc;
  if (backend != "local" && backend != "slurm")
    return p.error("--backend needs 'local' or 'slurm', got '" + backend + "'");
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
  if (point >= 0 && size_t(point) >= points.size())
    return usage_error("sweep", "--point " + std::to_string(point) + " is out of range: " + s.name +
                                    " has " + std::to_string(points.size()) +
                                    " point(s), numbered 0.." + std::to_string(points.size() - 1) +
                                    " (--list prints them)");
  if (point >= 0 && merge) return usage_error("sweep", "--merge takes no --point");
  if (point >= 0) opts.point = size_t(point);
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
    if (point >= 0) {
      harness::PointResult r = harness::read_result_point(opts.out, size_t(point));
      std::cout << "sweep " << s.name << " point " << point << " (" << r.workload
                << "): " << (sum.skipped ? "kept (--resume), " : "") << r.status << ", " << r.cycles
                << " cycles" << (r.reason.empty() ? "" : ": " + r.reason) << "\nresults "
                << opts.out.string() << " (other points unchanged)\n";
      return r.status == "ok" ? kExitOk : kExitFailure;
    }
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
  OptionParser p("sweep-point",
                 "usage: opforge sweep-point SCENARIO.json --index N --out FILE.h5\n"
                 "                           [--record-failure STATUS --reason TEXT --log FILE]\n\n"
                 "Internal: the child process of 'opforge sweep' that runs point N of the\n"
                 "scenario and writes its shard (FILE.h5.shards/); with --record-failure it\n"
                 "records the point as failed instead (a crash or timeout the runner saw).\n");
  p.number("index", &index, "", Sign::NonNegative)
      .text("record-failure", &fail_status)
      .text("reason", &fail_reason)
      .text("log", &fail_log)
      .text("out", &out)
      .positional("scenario", &scenario);
  if (auto rc = p.parse(args)) return *rc;
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
