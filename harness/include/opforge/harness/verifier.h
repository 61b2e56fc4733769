//===- verifier.h - compare results with ATen's: assert_close semantics ----===//
//
// Mirrors torch.testing.assert_close: an element passes when
// |actual - expected| <= atol + rtol * |expected|, with default tolerances per
// dtype (float32 1.3e-6/1e-5, float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float64
// 1e-7/1e-7, exact for integers and bool), NaN equal to NaN, infinities equal
// only to themselves; shapes and dtypes must match, strides too on request. An
// OpInfo's toleranceOverride (recorded in the corpus) widens the defaults for
// that OpInfo's calls of its dtype (call_compare_options). Mutated inputs are
// compared like outputs.
//
// A second reference can join ATen's result in the call's dtype: the float64
// reference, the call on float64-upcast inputs rounded to the output dtypes; an
// element passes when it is within tolerance of either (compare_values_either).
// judge_aten_call (aten_call.h) puts these together into the one verdict every
// command gives; the rule and its fallbacks: docs/verification.md.
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
  // compare_values_either: a floating tensor with elements outside tolerance of both
  // references still passes when its RMS error against the alternate is at most this times
  // expected's RMS error against the alternate, plus atol/10 (0: off).
  double either_rms_multiplier = 0;
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
  double rms_error = 0;              // root mean square of the absolute errors
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

// Like compare_values, but an element (or scalar) outside tolerance of `expected` still
// passes when it is within tolerance of `alternate` (a value of the same structure, e.g. the
// float64 reference), and a tensor as a whole by options.either_rms_multiplier; where
// alternate's structure, shape or dtype differs, expected alone counts.
Verdict compare_values_either(const Value &actual, const Value &expected, const Value &alternate,
                              const CompareOptions &options = {}, const std::string &path = "out");

// The error figures (max abs/rel error, elements outside tolerance) of every tensor of
// `actual` against the same-shaped tensor of `expected`, also when within tolerance: for
// reports. `message` is set only for tensors with elements outside tolerance.
std::vector<Mismatch> tensor_errors(const Value &actual, const Value &expected,
                                    const CompareOptions &options = {},
                                    const std::string &path = "out");

// The float64 reference's inputs: args and kwargs with every float16/bfloat16/float32
// tensor (also inside lists) converted to float64, keeping sizes, strides and storage
// offsets; tensors that share storage still share it.
struct Float64Inputs {
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  bool any_upcast = false;  // false: no floating-point tensor to upcast (no float64 reference)
};
Float64Inputs upcast_to_float64(const std::vector<Value> &args,
                                const std::vector<std::pair<std::string, Value>> &kwargs);

// `reference` (a result computed on float64 inputs) with every tensor rounded to the dtype
// of the corresponding tensor of `like` (ATen's result in the call's dtype); nullopt when
// the two differ in structure or shape.
std::optional<Value> round_like(const Value &reference, const Value &like);

// The tolerance a recorded call is verified with: when the corpus records a
// toleranceOverride for the call's OpInfo and dtype, each of atol and rtol is the
// larger of the override's and the dtype's default. The corpus flattens an OpInfo's
// overrides without the tests they are scoped to (matmul's float32 {atol 0, rtol
// 1e-5} applies to one backward-variance test only), so an override may widen the
// defaults but never narrows them to zero.
CompareOptions call_compare_options(const Call &call, const Corpus *corpus);

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

// Eigenvectors (_linalg_eigh) and singular vectors (_linalg_svd: U's columns with Vh's rows)
// are unique only up to each vector's sign (LAPACK's choice depends on its algorithm). Each
// vector of `actual` whose dot product with the recorded one is negative is negated (U's column
// and Vh's row together, judged by their summed dot products), so that the comparison that
// follows checks the vectors themselves. In a full SVD of a non-square matrix, U's columns
// (Vh's rows) past min(m, n) are any orthonormal basis of the complement: when all of actual's
// vectors are orthonormal, those take the recorded ones. Returns whether anything changed.
bool accept_vector_signs(const Call &call, Value &actual);

// Checks a call's outputs and mutated inputs against the recorded ones. The
// tolerance comes from options, else call_compare_options (the defaults,
// widened by the corpus's toleranceOverride for the call's OpInfo and dtype).
// The whole judging policy (tied indices, float64 second look) is
// judge_aten_call (aten_call.h); this is its comparison step.
Verdict verify_call(const Call &expected, const Value &actual_out,
                    const std::vector<std::pair<std::string, Value>> &actual_mutated,
                    const Corpus *corpus = nullptr, CompareOptions options = {});

}  // namespace opforge::harness
