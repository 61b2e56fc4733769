//===- workload_parse.h - parsing of ATen-family workloads (internal) -----===//
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "opforge/harness/scenario.h"

namespace opforge::harness::detail {

// Parses a workload of kind aten, corpus or trace at JSON path `path` of
// scenario `file`; relative paths resolve against `base_dir`. Throws
// opforge::Error naming the file and the JSON path.
Workload parse_aten_family_workload(const nlohmann::json &w, const std::string &file,
                                    const std::string &path, const std::string &base_dir);

// Checks one call spec (docs/scenarios.md); throws naming `file` and `path`.
void check_call_spec(const nlohmann::json &spec, const std::string &file, const std::string &path);

// Reads a trace file (scripts/capture-model-trace.py) into calls.
std::vector<AtenCall> read_trace_file(const std::string &trace_path);

}  // namespace opforge::harness::detail
