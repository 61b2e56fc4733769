// judge_call.cpp - the one verdict on an ATen call's results (aten_call.h, docs/verification.md).
#include <optional>

#include "opforge/harness/aten_call.h"
#include "opforge/harness/oracle.h"
#include "opforge/support/error.h"

namespace opforge::harness {

namespace {

// The expected values in one list: the output, then the mutated arguments in
// expected.mutated's order (the float64 reference is laid out the same way).
Value expected_list(const Call &expected) {
  std::vector<Value> items{expected.out};
  for (const auto &[name, value] : expected.mutated) items.push_back(value);
  return Value::of_list(std::move(items));
}

// ATen on float64-upcast inputs, rounded like the expected values; nullopt when
// there is no such reference (no floating-point input, no oracle plugin, no
// float64 kernel in ATen, a result of another structure).
std::optional<Value> float64_reference(const Call &expected) {
  Float64Inputs up = upcast_to_float64(expected.args, expected.kwargs);
  if (!up.any_upcast) return std::nullopt;
  try {
    const OraclePlugin &oracle = OraclePlugin::get();
    OracleResult r64 = oracle.call(expected.overload, up.args, up.kwargs);
    std::vector<Value> items{r64.out};
    for (const auto &[name, value] : expected.mutated) {
      const Value *found = nullptr;
      for (const auto &[n, v] : r64.mutated)
        if (n == name) found = &v;
      if (!found) return std::nullopt;
      items.push_back(*found);
    }
    return round_like(Value::of_list(std::move(items)), expected_list(expected));
  } catch (const Error &) {
    return std::nullopt;
  }
}

}  // namespace

Verdict judge_aten_call(const Call &expected, CallOutcome &actual, const Corpus *corpus,
                        const JudgeCallOptions &options) {
  accept_tied_indices(expected, actual.out);
  accept_vector_signs(expected, actual.out);
  const CompareOptions compare = call_compare_options(expected, corpus);
  Verdict first = verify_call(expected, actual.out, actual.mutated, corpus, compare);
  if (first.ok() || !options.aten_reference || expected.uninitialized) return first;
  // Every expected value must have an actual one (a missing mutated argument fails outright).
  std::vector<Value> got{actual.out};
  for (const auto &[name, value] : expected.mutated) {
    const Value *found = nullptr;
    for (const auto &[n, v] : actual.mutated)
      if (n == name) found = &v;
    if (!found) return first;
    got.push_back(*found);
  }
  std::optional<Value> reference =
      options.float64_reference ? options.float64_reference : float64_reference(expected);
  if (!reference || reference->kind != Value::Kind::List || reference->list.size() != got.size())
    return first;
  CompareOptions either = compare;
  either.either_rms_multiplier = kFloat64RmsMultiplier;
  const Value want = expected_list(expected);
  Verdict second;
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string path = i == 0 ? "out" : "mutated " + expected.mutated[i - 1].first;
    Verdict sub = compare_values_either(got[i], want.list[i], reference->list[i], either, path);
    for (auto &m : sub.mismatches) second.mismatches.push_back(std::move(m));
  }
  return second.ok() ? second : first;
}

}  // namespace opforge::harness
