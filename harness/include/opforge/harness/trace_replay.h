//===- trace_replay.h - chained replay of captured model traces -----------===//
//
// A trace (scripts/capture-model-trace.py) records, per tensor argument,
// where it came from: output J of an earlier call K ({"from": [K, J]}) or the
// N-th parameter / model input ({"input": N}, optionally with its "values").
// A replay generates each input once (seeded) and feeds every call's real
// outputs to the calls that use them. The sweep runner replays on the chip
// with the outputs kept in device buffers (harness/src/runner/aten_point.cpp);
// replay_trace_host() replays through any host-side runner of one call (the
// libtorch oracle, the IR interpreter), e.g. to check the chip's final output.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "opforge/harness/corpus.h"
#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/model/params.h"

namespace opforge::harness {

// The value of a call spec that is not chained: numbers, lists, dtypes and
// random tensors ({"shape", "dtype", "low", "high"}; "values" gives the
// elements). Chained tensor specs are the caller's business.
Value call_spec_value(const nlohmann::json &spec, std::mt19937_64 &rng);

// True for {"from": [K, J]} and {"input": N} tensor specs.
inline bool spec_is_output_ref(const nlohmann::json &s) {
  return s.is_object() && s.contains("from");
}
inline bool spec_is_input_ref(const nlohmann::json &s) {
  return s.is_object() && s.contains("input");
}

// The parameters and model inputs of a trace: generated on first use from
// (seed, input number), the same tensor at every later use.
class TraceInputs {
 public:
  explicit TraceInputs(uint64_t seed) : seed_(seed) {}
  const Value &get(const nlohmann::json &spec);

 private:
  uint64_t seed_;
  std::map<uint64_t, Value> values_;
};

// The tensors of an output value in the order the capture script numbers
// them (nested lists and tuples flattened).
void flatten_tensors(const Value &v, std::vector<Value> &out);

// Stand-in for output J of call K when that call produced none (no kernel, a
// fault): a seeded random tensor of the recorded shape and dtype. Throws
// opforge::Error when the trace did not record the output.
Value substitute_output(const AtenCall &producer, size_t output, uint64_t seed);

// Replays `calls` in order through `run` (one call with host values in, its
// output out), feeding outputs forward. Returns every call's output. Throws
// what `run` throws, naming the call.
std::vector<Value> replay_trace_host(const std::vector<AtenCall> &calls, uint64_t seed,
                                     const std::function<Value(const Call &)> &run);

// Runs an aten or trace workload on a chip built from `params` exactly as a
// sweep point does (per-op records into `r`) and returns the host copy of the
// last call's output (None when it did not run). Throws opforge::Error when
// this opforge was built without the code generator.
Value run_workload_last_output(const Scenario &s, const Workload &w,
                               const model::ChipParams &params, PointResult &r);

}  // namespace opforge::harness
