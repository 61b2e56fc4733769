//===- taxonomy.h - failure classes of a generation run, from the evidence ===//
//
// Every failed stage of a candidate (a `diagnostic` record with ok false) is
// put in one class like TritorX's failure analysis (memory alignment 42%,
// type conversion 23%, boundary/mask 18%, hardware limits 12%, numerics 5%),
// from what the failure itself shows: the trap cause or interpreter fault
// (misaligned access -> alignment; access fault, out-of-bounds load/store ->
// boundary/mask), a dtype mismatch or a conversion error -> type conversion,
// a target capability the candidate needs (lint rules of the capability
// table, "not supported" from the compiler, local memory, the wrapper's
// unimplemented ATen ops) -> hardware/target limits, a value outside the
// tolerance -> numerics; anything else is "other" with the reason.
// The loop records the class in each failing diagnostic (failure_class,
// failure_class_reason); the report counts them (docs/generator/runlog.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace opforge::generator {

enum class FailureClass {
  Alignment,
  TypeConversion,
  BoundaryMask,
  HardwareLimits,
  Numerics,
  Other
};
// "alignment", "type_conversion", "boundary_mask", "hardware_limits", "numerics", "other".
std::string failure_class_name(FailureClass c);
std::optional<FailureClass> failure_class_from_name(const std::string &name);

struct FailureClassification {
  FailureClass cls = FailureClass::Other;
  std::string reason;  // the evidence, one line ("trap: store/AMO address misaligned")
};

// Classifies a failure as failure_to_json() writes it (the `failure` object of
// a diagnostic record) at `stage` ("lint", "compile", "run", "verify").
FailureClassification classify_failure(const std::string &stage, const nlohmann::json &failure);

// TritorX's published share of a class (0.42, 0.23, 0.18, 0.12, 0.05); none for Other.
std::optional<double> tritorx_failure_share(FailureClass c);

struct FailureTaxonomy {
  std::map<FailureClass, int64_t> count;
  std::map<std::string, int64_t> other_reasons;  // Other, by reason
  // Attempts that ended without a candidate to classify (a failed verdict whose reason is
  // the provider's: "provider: unsupported" when the inductor table has no row), by reason.
  std::map<std::string, int64_t> without_candidate;
  int64_t total() const;
};
// Counts every failing diagnostic record (its recorded failure_class, else
// classified from its failure object: run logs older than the field).
FailureTaxonomy failure_taxonomy(const std::vector<nlohmann::json> &records);
// The table: class, count, % of failures, TritorX's %; then the reasons of "other".
std::string format_taxonomy(const FailureTaxonomy &t);

}  // namespace opforge::generator
