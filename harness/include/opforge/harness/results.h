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
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/sweep.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/error.h"

namespace opforge::harness {

// One ATen call of an aten/corpus/trace workload.
struct OpRecord {
  std::string op;         // "aten::mm"
  std::string call;       // short form with shapes: "aten::mm(f32[64, 64], f32[64, 64])"
  std::string status;     // "ok", "failed" (ran, wrong result or fault), "unsupported" (no kernel)
  std::string reason;     // empty when ok
  uint64_t cycles = 0;    // kernel cycles on the chip (sum over its launches)
  uint64_t launches = 0;  // kernel launches the call made
};

// One program instance of a kernel launch on a PE (absolute chip cycles).
struct InstanceSpan {
  std::string kernel;  // workload or op name
  uint32_t pe = 0;
  uint64_t program = 0;  // linear program id
  uint64_t start_cycle = 0, end_cycle = 0;
  uint64_t instructions = 0;
};

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
  std::vector<OpRecord> ops;            // aten/corpus/trace workloads: per call, in order
  std::vector<InstanceSpan> instances;  // program instances (at most kMaxInstances)
  static constexpr size_t kMaxInstances = 20000;
  // Energy, power and area estimates (docs/results.md, "Energy, power and
  // area"); NaN when the point has none (it did not run, or an old file).
  double energy_j = std::numeric_limits<double>::quiet_NaN();
  double avg_power_w = std::numeric_limits<double>::quiet_NaN();
  double perf_per_w = std::numeric_limits<double>::quiet_NaN();  // runs/s per W = 1 / energy_j
  double area_mm2 = std::numeric_limits<double>::quiet_NaN();
  nlohmann::json energy_breakdown_j;  // {"mac": J, "dram": J, ..., "static": J}; null if none
};

// A point's energy from its counters and the `energy`/`area` sections of its
// configuration: dynamic = sum of counted events x their pJ, static = static
// power x simulated time (cycles / clock). docs/results.md gives every term.
struct EnergyEstimate {
  double seconds = 0;  // simulated time
  double dynamic_j = 0, static_j = 0, energy_j = 0;
  double avg_power_w = 0;  // energy_j / seconds (0 when seconds is 0)
  double perf_per_w = 0;   // (1 / seconds) / avg_power_w = 1 / energy_j (0 when energy_j is 0)
  double area_mm2 = 0;
  std::vector<std::pair<std::string, double>> terms_j;  // per term, "static" last
};
EnergyEstimate estimate_energy(const ArchConfig &arch,
                               const std::vector<std::pair<std::string, uint64_t>> &counters,
                               uint64_t cycles);
// Fill r's energy fields from its counters and cycles (points that did not
// run keep NaN energies but get their area).
void add_energy(PointResult &r, const ArchConfig &arch);

// Figures derived from a point's counters and configuration (shared by
// `opforge report` and `opforge triage`; docs/results.md defines them).
struct UnitUse {
  std::string unit;        // "core", "dma", "dpe", "sfu", "noc", "sram", "dram"
  double utilization = 0;  // busy fraction of the unit's capacity over the point's cycles
  std::string detail;      // how it was computed, with the figures
};
struct PointAnalysis {
  uint64_t cycles = 0;
  std::vector<UnitUse> units;                            // in the order above
  std::vector<std::pair<std::string, uint64_t>> stalls;  // summed over PEs, largest first
  uint64_t dram_bytes = 0, sram_bytes = 0, lmem_bytes = 0, noc_bytes = 0, dma_bytes = 0;
  double sram_hit_rate = -1;  // -1: no SRAM accesses
  uint64_t instructions = 0, dpe_macs = 0;
  // Roofline: the larger of the DRAM-bandwidth bound, the DPE bound and the
  // issue bound (one instruction per PE per cycle), in cycles.
  double dram_bound_cycles = 0, dpe_bound_cycles = 0, issue_bound_cycles = 0;
  double roofline_cycles = 0;
  double roofline_fraction = 0;          // roofline_cycles / cycles (1 = at the roof)
  std::string bound;                     // which bound is largest: "dram", "dpe" or "issue"
  std::string bottleneck;                // unit with the highest utilization
  std::vector<std::string> suggestions;  // most useful first, at most three
};
PointAnalysis analyze_point(const PointResult &r);

// Triage (docs/results.md, "opforge triage"): where the PEs' cycles went, the
// roofs of every shared resource, and config changes that address them.
struct StallCause {
  std::string cause;       // "non-local loads", "DMA wait", "NoC link", "DRAM channel", ...
  std::string counters;    // which counters it comes from (or how it was estimated)
  double cycles = 0;       // PE cycles, summed over PEs
  double share = 0;        // cycles / (point cycles x PEs)
  bool estimated = false;  // split of the memory stall by contention (not a counter)
};
struct Roof {
  // "dram", "dram_channel", "sram", "sram_bank", "noc_link", "mem_port", "dpe", "issue"
  std::string name;
  double cycles = 0;   // lower bound on the point's cycles from this resource alone
  std::string detail;  // how it was computed
};
struct ConfigChange {
  std::vector<std::pair<std::string, nlohmann::json>> settings;  // field = value, applied in order
  std::string addresses;  // the stall cause or roof it targets
  double share = 0;       // share of PE cycles (or of the point's cycles) it addresses
  std::string why;
  std::string text() const;  // "sram.mode=cache" ("a=1 b=2" for several)
};
struct TriageAnalysis {
  PointAnalysis point;
  std::vector<StallCause> stalls;     // by cause, largest first
  std::vector<Roof> roofs;            // every roof, largest first
  std::vector<ConfigChange> changes;  // suggestions, most useful first (all candidates)
  double issue_fraction = 0;          // instructions / (cycles x PEs): share of the issue roof
};
TriageAnalysis triage_point(const PointResult &r);

// `opforge triage --verify`: the point run again (same scenario, workload and
// settings) as a baseline and once per change, each in its own process.
struct VerifiedChange {
  ConfigChange change;  // the baseline has no settings
  std::string status;   // the rerun's status ("ok", "failed", ...)
  std::string reason;
  uint64_t cycles = 0;
  double speedup = 0;  // baseline cycles / cycles (0 when either did not finish)
};
struct VerifyResult {
  VerifiedChange baseline;
  std::vector<VerifiedChange> ranked;  // by measured speedup, best first
};
// Throws opforge::Error when the file has no scenario to rerun.
VerifyResult verify_changes(const std::filesystem::path &results, size_t point,
                            const std::vector<ConfigChange> &changes, unsigned jobs);

// scripts/plot-results.py of the source tree ($OPFORGE_PLOT_SCRIPT overrides).
std::string plot_script_path();

// Reads point `index` of a merged results file. Throws opforge::Error naming
// the file when it or the point is missing.
PointResult read_result_point(const std::filesystem::path &results, size_t index);

std::filesystem::path shard_dir(const std::filesystem::path &out);
std::filesystem::path shard_path(const std::filesystem::path &out, size_t index);

// Write a shard atomically (temporary file, then rename).
void write_shard(const std::filesystem::path &path, const PointResult &r);
PointResult read_shard(const std::filesystem::path &path);

// A run or merge that would delete or replace finished results: a rerun
// without --resume or --fresh that finds finished shards, a merge that
// would leave fewer finished points than the results file holds. The CLI
// exits 2 with the message (which says what to do instead).
class FinishedWorkError : public Error {
 public:
  using Error::Error;
};

struct MergeSummary {
  size_t points = 0;
  size_t finished = 0;  // points with a result (any status but "missing")
  size_t ok = 0;
  size_t kept = 0;  // results taken over from the file being replaced (no shard)
};

// Build `out` from the shards present (written to a temporary, then renamed).
// A point without a shard keeps its result from an existing `out` of the same
// sweep (same scenario document and point count); otherwise it gets a row
// with status "missing". Never replaces an `out` holding more finished points
// than the merge would: throws FinishedWorkError instead, leaving it as it is.
MergeSummary merge_results(const std::filesystem::path &out, const Scenario &s,
                           const std::vector<SweepPoint> &points);

// The comparison table across points printed by `opforge report`, then (when
// they apply) a workload x sweep-value grid, the memory-system counters per
// point and, for points with several ATen calls, cycles per overload and the
// total simulated time (`all_calls`: every call too).
std::string format_report(const std::filesystem::path &results, bool all_calls = false);

}  // namespace opforge::harness
