// call_tolerance.cpp - a recorded call's tolerance: the defaults widened by the OpInfo's override.
#include "opforge/harness/verifier.h"

#include <algorithm>

namespace opforge::harness {

CompareOptions call_compare_options(const Call &call, const Corpus *corpus) {
  CompareOptions options;
  if (!corpus) return options;
  auto override_tol = corpus->tolerance(call.opinfo, call.dtype);
  if (!override_tol) return options;
  Tolerance def = default_tolerance(call.dtype);
  options.tolerance =
      Tolerance{std::max(def.atol, override_tol->atol), std::max(def.rtol, override_tol->rtol)};
  return options;
}

}  // namespace opforge::harness
