//===- results.h - per-point shards and the merged sweep results file -----===//
//
// Each point's outcome is a shard file (<out>.shards/point-<i>.h5) written
// to a temporary name and renamed when complete, so a killed run never
// leaves a half shard. merge_results() builds the sweep file (DESIGN.md
// section 4): /meta (version, git_sha, scenario), /points/<i> (config JSON
// attribute, workload, status, reason, cycles, counters table, traces) and
// /summary (one row per point). The layout is documented in docs/scenarios.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/sweep.h"

namespace opforge::harness {

struct PointResult {
  size_t index = 0;
  std::string workload;
  std::string status;  // "ok", "failed", "crashed", "timeout"
  std::string reason;  // empty when ok
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  double host_seconds = 0;
  nlohmann::json config;       // resolved architecture document
  nlohmann::json axis_values;  // {"grid.rows": 4, ...}
  std::vector<std::pair<std::string, uint64_t>> counters;
  // Sampled counter traces: names, sample cycles and a row per sample.
  std::vector<std::string> trace_names;
  std::vector<int64_t> trace_cycles;
  std::vector<std::vector<int64_t>> trace_rows;
};

std::filesystem::path shard_dir(const std::filesystem::path &out);
std::filesystem::path shard_path(const std::filesystem::path &out, size_t index);

// Write a shard atomically (temporary file, then rename).
void write_shard(const std::filesystem::path &path, const PointResult &r);
PointResult read_shard(const std::filesystem::path &path);

// Build `out` from the shards present (written to a temporary, then renamed).
// Points without a shard get a row with status "missing".
void merge_results(const std::filesystem::path &out, const Scenario &s,
                   const std::vector<SweepPoint> &points);

// The comparison table across points printed by `opforge report`.
std::string format_report(const std::filesystem::path &results);

}  // namespace opforge::harness
