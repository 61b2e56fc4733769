//===- validate_vector_signs_test.cpp - eigen/singular vectors pass up to each vector's sign
//===//
#include <gtest/gtest.h>

#include <vector>

#include "opforge/harness/verifier.h"

using namespace opforge;
using namespace opforge::harness;

namespace {

HostTensor f32(const std::vector<double> &v, std::vector<int64_t> sizes) {
  HostTensor t(DType::Float32, std::move(sizes));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return t;
}

Value list(std::vector<HostTensor> ts) {
  std::vector<Value> items;
  for (auto &t : ts) items.push_back(Value::of_tensor(std::move(t)));
  return Value::of_list(std::move(items));
}

const double kS = 0.7071067811865476;

// A = [[2, 1], [1, 2]]: eigenvalues 1, 3 with eigenvectors (s, -s) and (s, s) as columns.
Call eigh_call() {
  Call c;
  c.overload = "aten::_linalg_eigh";
  c.args = {Value::of_tensor(f32({2, 1, 1, 2}, {2, 2}))};
  c.out = list({f32({1, 3}, {2}), f32({kS, kS, -kS, kS}, {2, 2})});
  return c;
}

}  // namespace

TEST(VectorSigns, EigenvectorsOfTheOtherSignAreAcceptedAndCompareEqual) {
  Call c = eigh_call();
  Value actual = list({f32({1, 3}, {2}), f32({-kS, kS, kS, kS}, {2, 2})});  // first column negated
  EXPECT_FALSE(verify_call(c, actual, {}).ok());
  EXPECT_TRUE(accept_vector_signs(c, actual));
  EXPECT_TRUE(verify_call(c, actual, {}).ok());
}

TEST(VectorSigns, WrongEigenvectorsStillFail) {
  Call c = eigh_call();
  Value actual = list({f32({1, 3}, {2}), f32({1, 0, 0, 1}, {2, 2})});
  accept_vector_signs(c, actual);
  EXPECT_FALSE(verify_call(c, actual, {}).ok());
}

TEST(VectorSigns, SingularVectorsFlipTogether) {
  // A = diag(2, 1): U = I, S = (2, 1), Vh = I; U's first column and Vh's first row negated
  // together give the same product.
  Call c;
  c.overload = "aten::_linalg_svd";
  c.args = {Value::of_tensor(f32({2, 0, 0, 1}, {2, 2}))};
  c.out = list({f32({1, 0, 0, 1}, {2, 2}), f32({2, 1}, {2}), f32({1, 0, 0, 1}, {2, 2})});
  Value actual = list({f32({-1, 0, 0, 1}, {2, 2}), f32({2, 1}, {2}), f32({-1, 0, 0, 1}, {2, 2})});
  EXPECT_TRUE(accept_vector_signs(c, actual));
  EXPECT_TRUE(verify_call(c, actual, {}).ok());
}

TEST(VectorSigns, OtherOverloadsAreLeftAlone) {
  Call c = eigh_call();
  c.overload = "aten::linalg_qr";
  Value actual = list({f32({1, 3}, {2}), f32({-kS, kS, kS, kS}, {2, 2})});
  EXPECT_FALSE(accept_vector_signs(c, actual));
  EXPECT_FALSE(verify_call(c, actual, {}).ok());
}

TEST(VectorSigns, AnOrthonormalCompletionOfAFullSvdIsAccepted) {
  // A = (2, 0, 0)^T: U's first column is e0; columns 1 and 2 may be any orthonormal basis of
  // the rest.
  Call c;
  c.overload = "aten::_linalg_svd";
  c.args = {Value::of_tensor(f32({2, 0, 0}, {3, 1}))};
  c.out = list({f32({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3}), f32({2}, {1}), f32({1}, {1, 1})});
  Value swapped = list({f32({1, 0, 0, 0, 0, 1, 0, 1, 0}, {3, 3}), f32({2}, {1}), f32({1}, {1, 1})});
  EXPECT_FALSE(verify_call(c, swapped, {}).ok());
  EXPECT_TRUE(accept_vector_signs(c, swapped));
  EXPECT_TRUE(verify_call(c, swapped, {}).ok());
  Value not_orthonormal =
      list({f32({1, 0, 0, 0, 1, 1, 0, 0, 0}, {3, 3}), f32({2}, {1}), f32({1}, {1, 1})});
  EXPECT_FALSE(accept_vector_signs(c, not_orthonormal));
  EXPECT_FALSE(verify_call(c, not_orthonormal, {}).ok());
}
