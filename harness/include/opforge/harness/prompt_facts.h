//===- prompt_facts.h - what a generation prompt says about an overload's recorded calls ===//
//
// The dtypes a prompt lists and the call signatures it shows come from the
// recorded calls themselves (every tensor the calls pass or return), not from
// the OpInfo dtype groups: _log_softmax's int groups pass float64 tensors.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "opforge/harness/corpus.h"

namespace opforge::harness {

// "bfloat16, float32, int64": every dtype of a tensor the calls pass (arguments,
// keyword arguments, tensors in lists) or return, sorted by name.
std::string call_dtypes(const std::vector<Call> &calls);

// Up to `max_calls` recorded calls, one "- <summary>" line each (shapes, dtypes,
// kwargs, result): the first call of each dtype group first, then further calls
// with a signature not shown yet. Lines longer than 240 characters are cut.
std::string call_signatures(const std::vector<Call> &calls, size_t max_calls = 6);

}  // namespace opforge::harness
