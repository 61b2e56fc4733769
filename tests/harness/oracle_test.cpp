//===- oracle_test.cpp - libtorch oracle reproduces recorded ATen calls ----===//
#include <gtest/gtest.h>

#include <map>

#include "corpus_fixture.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/oracle.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;

TEST(Oracle, ReproducesRecordedCallsAcrossCategoriesAndDtypes) {
  auto corpus = Corpus::open(test::small_corpus());
  std::map<Category, int> passed_by_category;
  std::map<DType, int> passed_by_dtype;
  int checked = 0;
  // Up to two calls of every overload in every dtype.
  for (const auto &o : corpus.overloads())
    for (DType dt : corpus.dtypes())
      for (const Call &c : corpus.calls(o.name, dt, 2)) {
        ++checked;
        OracleResult r;
        try {
          r = Oracle::call(c);
        } catch (const Error &e) {
          ADD_FAILURE() << c.summary() << ": " << e.what();
          continue;
        }
        Verdict v = verify_call(c, r.out, r.mutated, &corpus);
        EXPECT_TRUE(v.ok()) << c.summary() << "\n" << v.report();
        if (v.ok()) {
          passed_by_category[categorize(c.overload)] += 1;
          passed_by_dtype[c.dtype] += 1;
        }
      }
  EXPECT_GT(checked, 60);
  for (Category cat : {Category::Pointwise, Category::Reduction, Category::Indexing,
                       Category::ShapeView, Category::LinearAlgebra, Category::NormalizationDL})
    EXPECT_GT(passed_by_category[cat], 0) << category_name(cat);
  for (DType dt : {DType::Float32, DType::BFloat16, DType::Int64, DType::Bool})
    EXPECT_GT(passed_by_dtype[dt], 0) << dtype_name(dt);
}

TEST(Oracle, ComputesNewShapesWithKeywordsAndDefaults) {
  HostTensor a(DType::Float32, {2, 3}), b(DType::Float32, {2, 3});
  for (int i = 0; i < 6; ++i) {
    a.set_double(i, i);
    b.set_double(i, 10 * i);
  }
  auto r = Oracle::call("aten::add.Tensor", {Value::of_tensor(a), Value::of_tensor(b)},
                        {{"alpha", Value::of_int(2)}});
  ASSERT_TRUE(r.out.is_tensor());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r.out.tensor.get_double(i), i + 20.0 * i);
  // Reduction with an int list and a dtype keyword.
  auto s = Oracle::call("aten::sum.dim_IntList",
                        {Value::of_tensor(a), Value::of_list({Value::of_int(1)})},
                        {{"dtype", Value::of_dtype(DType::Float64)}});
  ASSERT_TRUE(s.out.is_tensor());
  EXPECT_EQ(s.out.tensor.dtype(), DType::Float64);
  EXPECT_EQ(s.out.tensor.sizes(), (std::vector<int64_t>{2}));
  EXPECT_EQ(s.out.tensor.get_double(1), 3 + 4 + 5);
}

TEST(Oracle, KeepsViewStridesAndReportsInPlaceWrites) {
  HostTensor a(DType::Float32, {2, 3});
  for (int i = 0; i < 6; ++i) a.set_double(i, i);
  auto t = Oracle::call("aten::t", {Value::of_tensor(a)});
  ASSERT_TRUE(t.out.is_tensor());
  EXPECT_EQ(t.out.tensor.strides(), (std::vector<int64_t>{1, 3}));
  auto r = Oracle::call("aten::mul_.Scalar", {Value::of_tensor(a), Value::of_double(2.0)});
  ASSERT_EQ(r.mutated.size(), 1u);
  EXPECT_EQ(r.mutated[0].first, "self");
  EXPECT_EQ(r.mutated[0].second.tensor.get_double(5), 10.0);
  EXPECT_EQ(a.get_double(5), 5.0) << "the caller's tensor is not touched";
}

TEST(Oracle, BadCallsAreErrorsNamingOverloadAndArgument) {
  HostTensor a(DType::Float32, {2});
  try {
    Oracle::call("aten::no_such_op.Tensor", {});
    FAIL();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("aten::no_such_op.Tensor"), std::string::npos);
  }
  try {
    Oracle::call("aten::add.Tensor", {Value::of_tensor(a)});
    FAIL();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("'other'"), std::string::npos) << e.what();
  }
  try {
    Oracle::call("aten::mm", {Value::of_tensor(a), Value::of_tensor(a)});
    FAIL();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("aten::mm: ATen raised"), std::string::npos) << e.what();
  }
  EXPECT_NE(Oracle::schema("aten::add.Tensor").find("Scalar alpha=1"), std::string::npos);
}
