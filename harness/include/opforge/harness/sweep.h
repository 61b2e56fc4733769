//===- sweep.h - expansion of a scenario's sweep axes into points ---------===//
//
// Points are the cartesian product of the axes (a zipped axis steps its
// fields together) times the workloads; the workload varies fastest, the
// first axis slowest. Point indices are stable for a given scenario, which
// is what makes resuming and shard files work.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/scenario.h"

namespace opforge::harness {

struct SweepPoint {
  size_t index = 0;
  size_t workload = 0;  // index into Scenario::workloads
  // Scenario overrides followed by this point's axis values, in order.
  std::vector<std::pair<std::string, nlohmann::json>> settings;
  // Only the axis values (for tables): field -> value.
  std::vector<std::pair<std::string, nlohmann::json>> axis_values;
};

std::vector<SweepPoint> expand_sweep(const Scenario &s);

// The architecture document of a point: preset, then its settings, then the
// scenario's timing mode and sampling interval. Throws opforge::Error.
// (An `isa_ext` axis value is no architecture field: it is skipped here.)
nlohmann::json point_arch_document(const Scenario &s, const SweepPoint &p);

// The ISA extension files of a point, absolute: the scenario's
// isa_extensions, then its `isa_ext` axis value's files.
std::vector<std::string> point_isa_extensions(const Scenario &s, const SweepPoint &p);

}  // namespace opforge::harness
