//===- verifier_test.cpp - assert_close semantics and mismatch reports -----===//
#include <gtest/gtest.h>

#include <cmath>

#include "opforge/harness/verifier.h"

using namespace opforge;
using namespace opforge::harness;

namespace {
HostTensor make(DType dt, std::vector<int64_t> sizes, const std::vector<double> &values) {
  HostTensor t(dt, std::move(sizes));
  for (size_t i = 0; i < values.size(); ++i) t.set_double(static_cast<int64_t>(i), values[i]);
  return t;
}
}  // namespace

TEST(Verifier, DefaultTolerancesFollowAssertClose) {
  EXPECT_DOUBLE_EQ(default_tolerance(DType::Float32).rtol, 1.3e-6);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::Float32).atol, 1e-5);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::Float16).rtol, 1e-3);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::BFloat16).rtol, 1.6e-2);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::BFloat16).atol, 1e-5);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::Int32).atol, 0);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::Bool).rtol, 0);
}

TEST(Verifier, Float32WithinTolerancePassesJustOutsideFails) {
  // |a - e| <= 1e-5 + 1.3e-6 * |e|; e = 100 allows 1.4e-4.
  auto e = make(DType::Float32, {2}, {100.0, 0.0});
  EXPECT_TRUE(compare_tensors(make(DType::Float32, {2}, {100.0001, 9e-6}), e).ok());
  auto v = compare_tensors(make(DType::Float32, {2}, {100.0003, 0.0}), e);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].mismatched, 1);
  EXPECT_EQ(v.mismatches[0].total, 2);
  EXPECT_EQ(v.mismatches[0].worst_index, (std::vector<int64_t>{0}));
}

TEST(Verifier, AllZerosOutputFailsOnNearZeroReduction) {
  // The false-pass trap: a sum whose true result is small but not within atol of 0.
  auto expected = make(DType::Float32, {3}, {3.2e-4, -7.5e-5, 1.1e-3});
  auto zeros = make(DType::Float32, {3}, {0, 0, 0});
  auto v = compare_tensors(zeros, expected);
  ASSERT_FALSE(v.ok());
  const auto &m = v.mismatches[0];
  EXPECT_EQ(m.mismatched, 3);
  EXPECT_EQ(m.total, 3);
  EXPECT_NEAR(m.max_abs_error, 1.1e-3, 1e-9);
  EXPECT_DOUBLE_EQ(m.max_rel_error, 1.0);
  EXPECT_EQ(m.worst_index, (std::vector<int64_t>{2}));
  EXPECT_NEAR(m.worst_expected, 1.1e-3, 1e-9);
  EXPECT_EQ(m.worst_actual, 0.0);
  EXPECT_NE(v.report().find("3 of 3 elements differ"), std::string::npos) << v.report();
}

TEST(Verifier, NanEqualsNanButNotANumber) {
  auto e = make(DType::Float32, {2}, {NAN, 1.0});
  EXPECT_TRUE(compare_tensors(make(DType::Float32, {2}, {NAN, 1.0}), e).ok());
  EXPECT_FALSE(compare_tensors(make(DType::Float32, {2}, {0.0, 1.0}), e).ok());
  EXPECT_FALSE(compare_tensors(make(DType::Float32, {2}, {NAN, NAN}), e).ok());
  CompareOptions strict;
  strict.equal_nan = false;
  EXPECT_FALSE(compare_tensors(make(DType::Float32, {2}, {NAN, 1.0}), e, strict).ok());
}

TEST(Verifier, InfinityMustMatchExactly) {
  auto e = make(DType::Float32, {2}, {INFINITY, -INFINITY});
  EXPECT_TRUE(compare_tensors(make(DType::Float32, {2}, {INFINITY, -INFINITY}), e).ok());
  auto v = compare_tensors(make(DType::Float32, {2}, {3.4e38, INFINITY}), e);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].mismatched, 2);
}

TEST(Verifier, IntegersAndBoolAreExact) {
  HostTensor e(DType::Int64, {2}), a(DType::Int64, {2});
  e.set_int(0, (int64_t{1} << 60) + 1);
  a.set_int(0, (int64_t{1} << 60));  // equal as doubles, different as integers
  auto v = compare_tensors(a, e);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].mismatched, 1);
  EXPECT_FALSE(
      compare_tensors(make(DType::Bool, {2}, {1, 0}), make(DType::Bool, {2}, {1, 1})).ok());
  EXPECT_TRUE(compare_tensors(make(DType::Bool, {2}, {1, 0}), make(DType::Bool, {2}, {1, 0})).ok());
}

TEST(Verifier, Bfloat16UsesItsLooserTolerance) {
  auto e = make(DType::BFloat16, {1}, {1.0});
  EXPECT_TRUE(compare_tensors(make(DType::BFloat16, {1}, {1.0078125}), e).ok());  // one bf16 ulp
  EXPECT_FALSE(
      compare_tensors(make(DType::Float32, {1}, {1.0078125}), make(DType::Float32, {1}, {1.0}))
          .ok());
}

TEST(Verifier, ShapeMismatchIsReported) {
  auto v = compare_tensors(make(DType::Float32, {2, 1}, {1, 2}), make(DType::Float32, {2}, {1, 2}));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].kind, Mismatch::Kind::Shape);
  EXPECT_NE(v.first_reason().find("shape [2, 1] != expected [2]"), std::string::npos)
      << v.first_reason();
}

TEST(Verifier, DtypeMismatchIsReported) {
  auto v = compare_tensors(make(DType::Float16, {2}, {1, 2}), make(DType::Float32, {2}, {1, 2}));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].kind, Mismatch::Kind::DType);
  CompareOptions loose;
  loose.check_dtype = false;
  EXPECT_TRUE(
      compare_tensors(make(DType::Float16, {2}, {1, 2}), make(DType::Float32, {2}, {1, 2}), loose)
          .ok());
}

TEST(Verifier, StridesAreCheckedOnlyWhenAsked) {
  auto storage = std::make_shared<std::vector<uint8_t>>(4 * sizeof(float), 0);
  HostTensor transposed(DType::Float32, {2, 2}, {1, 2}, 0, storage);
  HostTensor contiguous(DType::Float32, {2, 2});
  EXPECT_TRUE(compare_tensors(transposed, contiguous).ok());
  CompareOptions strides;
  strides.check_strides = true;
  auto v = compare_tensors(transposed, contiguous, strides);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].kind, Mismatch::Kind::Strides);
}

TEST(Verifier, ToleranceOverrideReplacesDefaults) {
  auto e = make(DType::Float32, {1}, {1.0});
  auto a = make(DType::Float32, {1}, {1.001});
  EXPECT_FALSE(compare_tensors(a, e).ok());
  CompareOptions o;
  o.tolerance = Tolerance{1e-2, 1e-2};
  EXPECT_TRUE(compare_tensors(a, e, o).ok());
}

TEST(Verifier, TupleOutputsAndScalarsCompareElementwise) {
  Value e = Value::of_list({Value::of_tensor(make(DType::Float32, {1}, {1})), Value::of_int(3)});
  Value a = Value::of_list({Value::of_tensor(make(DType::Float32, {1}, {1})), Value::of_int(4)});
  auto v = compare_values(a, e);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].path, "out[1]");
  EXPECT_FALSE(compare_values(Value::of_list({}), e).ok());
  EXPECT_FALSE(compare_values(Value::none(), e).ok());
  EXPECT_TRUE(compare_values(Value::of_double(0.1 + 0.2), Value::of_double(0.3)).ok());
}

TEST(Verifier, InPlaceMutationsAreChecked) {
  Call c;
  c.overload = "aten::add_.Tensor";
  c.dtype = DType::Float32;
  c.out = Value::of_tensor(make(DType::Float32, {2}, {2, 3}));
  c.mutated = {{"self", Value::of_tensor(make(DType::Float32, {2}, {2, 3}))}};
  Value out = c.out;
  EXPECT_TRUE(verify_call(c, out, {{"self", c.mutated[0].second}}).ok());
  // Right result, but the input was not written.
  auto v = verify_call(c, out, {{"self", Value::of_tensor(make(DType::Float32, {2}, {1, 1}))}});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].path, "mutated self");
  EXPECT_FALSE(verify_call(c, out, {}).ok());
}

// The float64 reference rule of `opforge run --check` (docs/verification.md).
TEST(VerifierEither, AnElementPassesWithinToleranceOfEitherReference) {
  auto aten = make(DType::Float32, {3}, {1.0, 2.0, 3.0});
  auto ref64 = make(DType::Float32, {3}, {1.0, 2.001, 3.0});
  auto ours = make(DType::Float32, {3}, {1.0, 2.001, 3.0});
  EXPECT_FALSE(compare_tensors(ours, aten).ok());
  EXPECT_TRUE(compare_values_either(Value::of_tensor(ours), Value::of_tensor(aten),
                                    Value::of_tensor(ref64))
                  .ok());
  // Off from both: a mismatch naming both references.
  auto wrong = make(DType::Float32, {3}, {1.0, 2.0005, 3.0});
  auto v = compare_values_either(Value::of_tensor(wrong), Value::of_tensor(aten),
                                 Value::of_tensor(ref64));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.mismatches[0].mismatched, 1);
  EXPECT_NE(v.mismatches[0].message.find("from both references"), std::string::npos);
}

TEST(VerifierEither, ATensorAsCloseToTheFloat64ReferenceAsATenPassesByRmsError) {
  // ATen off by 2e-4 everywhere, ours by 3e-4 the other way: outside both element-wise
  // tolerances, but its rms error is below 2x ATen's.
  std::vector<double> exact, aten_v, ours_v, bad_v;
  for (int i = 0; i < 64; ++i) {
    exact.push_back(1.0 + i);
    aten_v.push_back(1.0 + i + 2e-4);
    ours_v.push_back(1.0 + i - 3e-4);
    bad_v.push_back(1.0 + i - 5e-4);
  }
  auto ref64 = Value::of_tensor(make(DType::Float32, {64}, exact));
  auto aten = Value::of_tensor(make(DType::Float32, {64}, aten_v));
  CompareOptions options;
  options.either_rms_multiplier = 2;
  auto ours = Value::of_tensor(make(DType::Float32, {64}, ours_v));
  EXPECT_FALSE(compare_values_either(ours, aten, ref64).ok()) << "off without the rms rule";
  EXPECT_TRUE(compare_values_either(ours, aten, ref64, options).ok());
  auto bad = compare_values_either(Value::of_tensor(make(DType::Float32, {64}, bad_v)), aten,
                                   ref64, options);
  ASSERT_FALSE(bad.ok()) << "2.5x ATen's rms error";
  EXPECT_NE(bad.mismatches[0].message.find("rms error against the float64 reference"),
            std::string::npos)
      << bad.report();
}

TEST(VerifierEither, UpcastKeepsViewsAndSharedStorageAndRoundLikeRestoresDtypes) {
  HostTensor base = make(DType::Float16, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor view(DType::Float16, {3, 2}, {1, 3}, 0, base.storage());  // base.t()
  Float64Inputs up = upcast_to_float64({Value::of_tensor(base), Value::of_int(2)},
                                       {{"other", Value::of_tensor(view)}});
  ASSERT_TRUE(up.any_upcast);
  ASSERT_EQ(up.args.size(), 2u);
  const HostTensor &b64 = up.args[0].tensor;
  const HostTensor &v64 = up.kwargs[0].second.tensor;
  EXPECT_EQ(b64.dtype(), DType::Float64);
  EXPECT_EQ(v64.strides(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(v64.get_double(1), 4.0);  // view[0][1] = base[1][0]
  EXPECT_EQ(b64.storage(), v64.storage()) << "tensors sharing storage still share it";
  EXPECT_EQ(up.args[1].kind, Value::Kind::Int);
  EXPECT_FALSE(upcast_to_float64({Value::of_tensor(make(DType::Int64, {2}, {1, 2}))}, {})
                   .any_upcast);

  auto r = round_like(Value::of_list({Value::of_tensor(make(DType::Float64, {1}, {1.0 / 3}))}),
                      Value::of_list({Value::of_tensor(make(DType::Float16, {1}, {0.0}))}));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->list[0].tensor.dtype(), DType::Float16);
  EXPECT_EQ(r->list[0].tensor.get_double(0), 0.333251953125);  // nearest float16 to 1/3
  EXPECT_FALSE(round_like(Value::of_tensor(make(DType::Float64, {2}, {1, 2})),
                          Value::of_tensor(make(DType::Float16, {3}, {0, 0, 0})))
                   .has_value());
}
