//===- verifier.h - compare results with ATen's: assert_close semantics ----===//
//
// Mirrors torch.testing.assert_close: an element passes when
// |actual - expected| <= atol + rtol * |expected|, with default tolerances per
// dtype (float32 1.3e-6/1e-5, float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float64
// 1e-7/1e-7, exact for integers and bool), NaN equal to NaN, infinities equal
// only to themselves; shapes and dtypes must match, strides too on request. An
// OpInfo's toleranceOverride (recorded in the corpus) replaces the defaults for
// that OpInfo's calls of its dtype. Mutated inputs are compared like outputs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/corpus.h"
#include "opforge/support/host_tensor.h"

namespace opforge::harness {

// assert_close's default tolerance for a dtype ({0, 0} for integers and bool).
Tolerance default_tolerance(opforge::DType dtype);

struct CompareOptions {
  std::optional<Tolerance> tolerance;  // replaces the per-dtype defaults for floating tensors
  bool check_dtype = true;
  bool check_strides = false;  // compare strides of dimensions with more than one element
  bool equal_nan = true;
};

struct Mismatch {
  enum class Kind { Value, Shape, DType, Strides, Structure };
  Kind kind = Kind::Value;
  std::string path;     // "out", "out[1]", "mutated self"
  std::string message;  // one line saying what differs
  // Value mismatches:
  int64_t mismatched = 0;  // elements outside tolerance
  int64_t total = 0;       // elements compared
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::vector<int64_t> worst_index;  // multi-index of the largest absolute error among mismatches
  double worst_actual = 0;
  double worst_expected = 0;
  Tolerance tolerance;
};

struct Verdict {
  std::vector<Mismatch> mismatches;
  bool ok() const { return mismatches.empty(); }
  // Multi-line report: one paragraph per mismatch ("" when ok).
  std::string report() const;
  // First mismatch on one line ("" when ok).
  std::string first_reason() const;
};

Verdict compare_tensors(const HostTensor &actual, const HostTensor &expected,
                        const CompareOptions &options = {}, const std::string &path = "out");
// Values of any kind: tensors as above, lists element by element, Python floats
// with float64 tolerance, everything else exactly.
Verdict compare_values(const Value &actual, const Value &expected,
                       const CompareOptions &options = {}, const std::string &path = "out");

// Checks a call's outputs and mutated inputs against the recorded ones. The
// tolerance comes from options, else the corpus's toleranceOverride for the
// call's OpInfo and dtype (when a corpus is given), else the defaults.
Verdict verify_call(const Call &expected, const Value &actual_out,
                    const std::vector<std::pair<std::string, Value>> &actual_mutated,
                    const Corpus *corpus = nullptr, CompareOptions options = {});

}  // namespace opforge::harness
