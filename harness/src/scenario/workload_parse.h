//===- workload_parse.h - parsing of ATen-family workloads (internal) -----===//
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opforge/harness/scenario.h"

namespace opforge::harness::detail {

// Parses a workload of kind aten, corpus or trace at JSON path `path` of
// scenario `file`; relative paths resolve against `base_dir`. Throws
// opforge::Error naming the file and the JSON path.
Workload parse_aten_family_workload(const nlohmann::json &w, const std::string &file,
                                    const std::string &path, const std::string &base_dir);

// Parses a workload of kind model (a model of python/opforge/models.py run on the
// opforge PyTorch device, workload_model.cpp); throws naming `file` and `path`.
Workload parse_model_workload(const nlohmann::json &w, const std::string &file,
                              const std::string &path, const std::string &base_dir);

// The models a model workload may name.
const std::vector<std::string> &model_workload_names();

// Checks one call spec (docs/scenarios.md); throws naming `file` and `path`.
void check_call_spec(const nlohmann::json &spec, const std::string &file, const std::string &path);

// Reads a trace file (scripts/capture-model-trace.py) into calls.
std::vector<AtenCall> read_trace_file(const std::string &trace_path);

// The trace of `trace_path`'s model at the sizes `params` (a trace workload's
// "params", at JSON path `path` of scenario `file`): `trace_path` itself when it
// records those sizes, else a capture by scripts/capture-model-trace.py, cached
// under <cache>/traces (trace_capture.cpp). Throws opforge::Error naming the
// field for a bad size or a failed capture.
std::string trace_at_params(const std::string &trace_path, const nlohmann::json &params,
                            const std::string &file, const std::string &path);

}  // namespace opforge::harness::detail
