//===- aten_point.h - runs aten/corpus/trace workloads on the chip (internal) ===//
#pragma once

#include "opforge/harness/corpus.h"
#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/model/params.h"

namespace opforge::harness::detail {

// Runs every ATen call of the workload through the kernel library's wrappers
// on a model::Device built from `params` (one per process), in order. Fills
// r.ops (one record per call: cycles, launches, status, reason), r.cycles and
// r.instructions (sums over the kernel launches), r.counters (summed deltas),
// r.status ("ok" only when every call ran and verified) and r.reason. A call
// whose overload has no kernel is recorded as "unsupported" and the rest go on.
// With `last_output`, the host copy of the last call's output is stored there.
void run_aten_workload(const Scenario &s, const Workload &w, const model::ChipParams &params,
                       PointResult &r, Value *last_output = nullptr);

}  // namespace opforge::harness::detail
