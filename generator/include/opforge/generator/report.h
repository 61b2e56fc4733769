//===- report.h - outcomes of a generation run: coverage, pass@k, reasons --===//
//
// `opforge generate` appends one `overload_result` record per overload to the
// run log (docs/generator/runlog.md); `opforge generate --report RUN` and
// bench/generate read them back and print coverage by category (beside
// TritorX's published per-category figures), pass@k for k = 1..N, and every
// failing overload with its reason. A resumed run appends again: the last
// record of an overload wins.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace opforge::generator {

struct OverloadOutcome {
  std::string overload;
  std::string category;  // harness catalog category ("pointwise", "shape/view", ...)
  // "pass" (every recorded call passed), "partial" (a candidate passed every call
  // it ran, but a bound cut calls: not written to the library), "fail", "cached"
  // (already in the library), "excluded" (the target cannot support it), "error"
  // (the run itself failed for this overload).
  std::string result;
  std::string reason;  // why it failed, is partial or is excluded ("" when it passed)
  int attempts = 0;
  int passed = 0;  // attempts that passed every recorded call
  int model_calls = 0;
  std::vector<bool> pass_by_attempt;
  double wall_s = 0;
  // Recorded calls checked by the candidate the result stands on (the passing or
  // partial one, else the failing one the reason names), of the overload's recorded
  // calls; -1 when unknown (cached, excluded, error, run logs older than these fields).
  int64_t calls_checked = -1;
  int64_t calls_recorded = -1;
  int64_t calls_failed = 0;  // of those checked, calls that mismatched
  bool passing() const { return result == "pass" || result == "cached"; }
};

nlohmann::json outcome_to_json(const OverloadOutcome &o);  // {"event": "overload_result", ...}
OverloadOutcome outcome_from_json(const nlohmann::json &j);

// The outcomes of a run log's overload_result records, last one per overload,
// in first-seen order. Throws opforge::Error naming the record when a field is bad.
std::vector<OverloadOutcome> outcomes_from_records(const std::vector<nlohmann::json> &records);

// TritorX's per-category coverage (best single-model run) for a catalog
// category, when the paper reports one (shape 0.96, elementwise 0.85, linear
// algebra 0.80, indexing 0.79, reduction 0.75, deep learning 0.71).
std::optional<double> tritorx_coverage(const std::string &category);

struct CategoryCoverage {
  std::string category;
  int total = 0;     // overloads in the run
  int excluded = 0;  // not supportable on the target
  int passing = 0;   // pass or cached
  int supportable() const { return total - excluded; }
  double coverage() const { return supportable() ? double(passing) / supportable() : 0.0; }
};
// One row per category (sorted by name) and a last row "all".
std::vector<CategoryCoverage> coverage_by_category(const std::vector<OverloadOutcome> &outcomes);

// Mean pass@j over the overloads generated (attempts > 0) for j = 1..max attempts.
std::vector<double> mean_pass_at_k(const std::vector<OverloadOutcome> &outcomes);

// The report: coverage by category with TritorX's figures, pass@k, calls
// checked / recorded per overload, and every failing, partial or excluded
// overload with its reason (a reason longer than 240 characters is cut, and
// the cut says so and how much it left out).
std::string format_report(const std::vector<OverloadOutcome> &outcomes);

// `text` cut to at most `max_chars` characters (UTF-8 kept whole) with
// " [... N more characters]" when it was longer.
std::string cut_text(const std::string &text, size_t max_chars);

}  // namespace opforge::generator
