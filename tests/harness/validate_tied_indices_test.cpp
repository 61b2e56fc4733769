//===- validate_tied_indices_test.cpp - sort-like index outputs: any valid choice among ties passes
//===//
#include <gtest/gtest.h>

#include <vector>

#include "opforge/harness/verifier.h"
#include "opforge/harness/verifier.h"

using namespace opforge;
using namespace opforge::harness;

namespace {

HostTensor f32(const std::vector<double> &v, std::vector<int64_t> sizes) {
  HostTensor t(DType::Float32, std::move(sizes));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return t;
}

HostTensor i64(const std::vector<int64_t> &v, std::vector<int64_t> sizes) {
  HostTensor t(DType::Int64, std::move(sizes));
  for (size_t i = 0; i < v.size(); ++i) t.set_int(static_cast<int64_t>(i), v[i]);
  return t;
}

Value pair(HostTensor a, HostTensor b) {
  return Value::of_list({Value::of_tensor(std::move(a)), Value::of_tensor(std::move(b))});
}

Call sort_call(const std::string &overload) {
  Call c;
  c.overload = overload;
  c.args = {Value::of_tensor(f32({2, 1, 2, 1, 0}, {5}))};
  c.out = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 3, 1, 2, 0}, {5}));  // an unstable order
  return c;
}

}  // namespace

TEST(ValidateTiedIndices, UnstableSortAcceptsTheStableOrderOfTies) {
  Call c = sort_call("aten::sort");
  Value actual = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 1, 3, 0, 2}, {5}));
  EXPECT_FALSE(verify_call(c, actual, {}).ok());
  EXPECT_TRUE(accept_tied_indices(c, actual));
  EXPECT_TRUE(verify_call(c, actual, {}).ok());
}

TEST(ValidateTiedIndices, WrongOrRepeatedIndicesStayWrong) {
  Call c = sort_call("aten::sort");
  Value pointing_at_other_values = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 1, 0, 3, 2}, {5}));
  EXPECT_FALSE(accept_tied_indices(c, pointing_at_other_values));
  EXPECT_FALSE(verify_call(c, pointing_at_other_values, {}).ok());
  Value repeated = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 1, 1, 0, 2}, {5}));
  EXPECT_FALSE(accept_tied_indices(c, repeated));
  Value wrong_values = pair(f32({0, 1, 2, 1, 2}, {5}), i64({4, 1, 0, 3, 2}, {5}));
  EXPECT_FALSE(accept_tied_indices(c, wrong_values));
}

TEST(ValidateTiedIndices, StableSortIsComparedExactly) {
  Call c = sort_call("aten::sort.stable");
  c.kwargs = {{"stable", Value::of_bool(true)}};
  Value actual = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 1, 3, 0, 2}, {5}));
  EXPECT_FALSE(accept_tied_indices(c, actual));
}

TEST(ValidateTiedIndices, KthvalueAlongADimAcceptsAnyEqualElement) {
  Call c;
  c.overload = "aten::kthvalue";
  // rows [3, 3, 1] and [5, 4, 5]; k = 2 along dim 1
  c.args = {Value::of_tensor(f32({3, 3, 1, 5, 4, 5}, {2, 3})), Value::of_int(2), Value::of_int(1)};
  c.out = pair(f32({3, 5}, {2}), i64({0, 2}, {2}));
  Value other_ties = pair(f32({3, 5}, {2}), i64({1, 0}, {2}));
  EXPECT_TRUE(accept_tied_indices(c, other_ties));
  EXPECT_TRUE(verify_call(c, other_ties, {}).ok());
  Value not_equal = pair(f32({3, 5}, {2}), i64({2, 0}, {2}));
  EXPECT_FALSE(accept_tied_indices(c, not_equal));
}

TEST(ValidateTiedIndices, OtherOverloadsAreLeftAlone) {
  Call c = sort_call("aten::max.dim");
  Value actual = pair(f32({0, 1, 1, 2, 2}, {5}), i64({4, 1, 3, 0, 2}, {5}));
  EXPECT_FALSE(accept_tied_indices(c, actual));
}
