// call_tolerance.h - the tolerance a recorded call is verified with.
#pragma once

#include "opforge/harness/verifier.h"

namespace opforge::harness {

// CompareOptions for a call: when the corpus records a toleranceOverride for
// the call's OpInfo and dtype, each of atol and rtol is the larger of the
// override's and the dtype's default. The corpus flattens an OpInfo's
// overrides without the tests they are scoped to (matmul's float32
// {atol 0, rtol 1e-5} applies to one backward-variance test only), so an
// override may widen the defaults but never narrows them to zero.
CompareOptions call_compare_options(const Call &call, const Corpus *corpus);

}  // namespace opforge::harness
