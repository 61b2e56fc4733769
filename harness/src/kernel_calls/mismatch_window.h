// mismatch_window.h - the data around a mismatch's worst index, for the generator's feedback
// (private to opforge_validate).
#pragma once

#include <string>
#include <vector>

#include "opforge/generator/evaluator.h"
#include "opforge/harness/aten_call.h"

namespace opforge::harness {

// Fills facts.operands with a window of each tensor or number argument of `call`
// (named by `schema_names`, else "#i"), placed by broadcasting facts.worst_index
// back to the argument's shape, and facts.results with the expected and actual
// values of facts.path ("out", "out[1]", "mutated self") in the same window. At
// most 5 elements per dimension, of the last two dimensions (the others fixed at
// the worst index), at most 4 operands. Nothing is added when the path does not
// name a tensor of both results.
void add_mismatch_windows(const Call &call, const CallOutcome &outcome,
                          const std::vector<std::string> &schema_names,
                          generator::MismatchFacts &facts);

}  // namespace opforge::harness
