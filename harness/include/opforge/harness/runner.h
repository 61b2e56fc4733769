//===- runner.h - runs a sweep's points as child processes ----------------===//
//
// One child process per point (`opforge sweep-point`, since SystemC
// elaborates once per process), at most `jobs` at a time. A child that
// exits without a shard, dies on a signal or outlives the timeout (killed)
// is recorded as a failed point with the reason; the sweep goes on. With
// `resume`, points whose shard exists are skipped. Progress (done/total,
// failures, ETA) goes to `progress` as one rewritten line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

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
  double timeout_s = -1;      // <0: the scenario's
  std::ostream *progress = nullptr;
};

struct RunSummary {
  size_t total = 0, ran = 0, skipped = 0, ok = 0, failed = 0;
  double wall_s = 0;
};

RunSummary run_sweep(const Scenario &s, const RunOptions &opts);

// Run one point in this process and write its shard (the child's side).
// Returns the result written.
PointResult run_point(const Scenario &s, const SweepPoint &p, const std::filesystem::path &shard);

}  // namespace opforge::harness
