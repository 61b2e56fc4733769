//===- counters_h5.h - counter snapshots and series to HDF5 ---------------===//
//
// Schema in docs/model/counters.md. Readable with h5py, no opforge needed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "opforge/model/counters.h"

namespace opforge::model {

struct CounterSeries;
struct LaunchResult;

void write_counters_h5_file(const std::string &path, const CounterSnapshot &snapshot,
                            const CounterSeries &series, const std::string &config_json,
                            const LaunchResult *last);

}  // namespace opforge::model
