//===- model_point.h - runs model workloads on the opforge device (internal) ===//
#pragma once

#include <filesystem>

#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/model/params.h"

namespace opforge::harness::detail {

// Runs the model workload `w` at one sweep point (architecture `params`) through
// `python -m opforge.point` in the work directory `work`: fills r's cycles,
// instructions, counters, ops (one per ATen call: on the chip, or "unsupported" when it
// fell back to the CPU) and program instances; status ok only when the device's output
// matched the CPU's, else failed with the reason (or the driver's last output lines).
void run_model_workload(const Scenario &s, const Workload &w, const model::ChipParams &params,
                        PointResult &r, const std::filesystem::path &work);

}  // namespace opforge::harness::detail
