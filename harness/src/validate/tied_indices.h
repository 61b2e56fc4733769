// tied_indices.h - index outputs whose choice among equal values ATen leaves open.
#pragma once

#include "opforge/harness/corpus.h"

namespace opforge::harness {

// sort (unless stable=True), topk, kthvalue, median.dim, nanmedian.dim and mode
// return indices whose choice among equal input values ATen does not define
// (std::sort, nth_element and partial_sort order ties by implementation
// details). When `actual`'s values equal the recorded values exactly and each
// of its indices selects an input element equal to its value (distinct within
// a row for sort and topk), the actual indices are an equally valid answer and
// are replaced by the recorded ones, so that the comparison that follows checks
// everything else exactly. Anything else is left as it is (and fails there).
// Returns whether indices were replaced.
bool accept_tied_indices(const Call &call, Value &actual);

}  // namespace opforge::harness
