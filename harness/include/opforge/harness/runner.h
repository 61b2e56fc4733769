//===- runner.h - runs a sweep's points as child processes ----------------===//
//
// One child process per point (`opforge sweep-point`, since SystemC
// elaborates once per process), at most `jobs` at a time, run by support's
// process pool (opforge/support/process_pool.h). A child that
// exits without a shard, dies on a signal or outlives the timeout (killed)
// is recorded as a failed point with the reason; the sweep goes on. With
// `resume`, points whose shard exists are skipped; with `fresh`, shards and
// the results file of an earlier run are deleted first; with neither, a run
// that finds finished shards refuses to start (FinishedWorkError). Point
// processes die with the runner (parent-death signal), however it ends.
// Progress (done/total, failures, ETA) goes to `progress` as one rewritten
// line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "opforge/harness/results.h"
#include "opforge/harness/sweep.h"

namespace opforge::harness {

struct RunOptions {
  std::string opforge_exe;    // the binary that runs `sweep-point`
  std::string scenario_file;  // handed to the children
  std::filesystem::path out;  // results file
  unsigned jobs = 0;          // 0: number of cores
  bool resume = false;
  bool retry_failed = false;  // with resume: run failed points again
  bool fresh = false;         // delete an earlier run's shards and results file first
  // Run only this point (`opforge sweep --point N`): its shard and its row of
  // the results file are replaced, every other point is left as it is. With
  // resume it runs only when it has no shard (or failed, with retry_failed);
  // fresh deletes nothing else. SIZE_MAX: every point.
  size_t point = SIZE_MAX;
  double timeout_s = -1;  // <0: the scenario's
  std::ostream *progress = nullptr;
};

struct RunSummary {
  size_t total = 0, ran = 0, skipped = 0, ok = 0, failed = 0;
  double wall_s = 0;
};

RunSummary run_sweep(const Scenario &s, const RunOptions &opts);

// The points a run has left to do: with `resume` those without a shard (and
// failed ones with `retry_failed`), with `fresh` all of them after deleting
// every shard and the results file. With neither, finished shards are never
// deleted: throws FinishedWorkError when there are any. Stale shards of the
// points returned are removed. Counts skipped/ok/failed into `sum`. With
// `opts.point` set, only that point is considered and nothing of the others is
// deleted (throws Error when it is not a point of the sweep).
std::vector<size_t> points_to_run(const std::vector<SweepPoint> &points,
                                  const std::filesystem::path &out, const RunOptions &opts,
                                  RunSummary &sum);

// Slurm backend: an sbatch job array (one task per point left to run; each
// task runs `opforge sweep-point` under `timeout` and always leaves a shard,
// so a failed point never blocks the merge) plus a merge job that depends on
// the array (afterany) and runs `opforge sweep --merge`. Files go to
// <out>.slurm/ (points.sbatch, merge.sbatch, task logs).
struct SlurmOptions {
  std::string partition;                 // "" : the cluster's default
  std::vector<std::string> sbatch_args;  // extra sbatch arguments for both jobs
  unsigned max_parallel = 0;             // array throttle (%N); 0: none
};
struct SlurmSubmission {
  std::string array_job, merge_job;  // job ids ("" when nothing was left to run)
  size_t tasks = 0;
  std::filesystem::path dir;
};
// Throws opforge::Error with sbatch's message when Slurm cannot be reached.
SlurmSubmission submit_slurm(const Scenario &s, const RunOptions &opts, const SlurmOptions &so);
// Polls `squeue --states=all` until the job ends; returns its final state
// ("COMPLETED", "FAILED", ...). A job pending on a dependency that can never
// be satisfied, or that squeue no longer knows, ends the wait with an error.
std::string wait_for_slurm_job(const std::string &job, double timeout_s, std::ostream *progress);

// Writes the shard of a point whose process died without one (the Slurm
// task's side): status and reason, plus the tail of `log` when given.
void record_point_failure(const Scenario &s, const SweepPoint &p, const std::filesystem::path &out,
                          const std::string &status, const std::string &reason,
                          const std::filesystem::path &log);

// Run one point in this process and write its shard (the child's side).
// Returns the result written.
PointResult run_point(const Scenario &s, const SweepPoint &p, const std::filesystem::path &shard);

}  // namespace opforge::harness
