//===- validate_call_expr_test.cpp - `opforge run --call` expressions to Values ===//
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;

namespace {

// The error's text and column for a bad expression.
std::pair<std::string, int> error_of(const std::string &text) {
  try {
    parse_call_expression(text);
  } catch (const Error &e) {
    return {e.what(), e.context().col.value_or(-1)};
  }
  return {"", -1};
}

}  // namespace

TEST(CallExpression, LiteralsKeywordsAndDtypes) {
  auto c = parse_call_expression(
      "f(1, -2.5, True, None, 'mean', (1, 2), [3], torch.bfloat16, x=float('inf'), y=1e-3)");
  EXPECT_EQ(c.function, "f");
  ASSERT_EQ(c.args.size(), 8u);
  EXPECT_EQ(c.args[0].kind, Value::Kind::Int);
  EXPECT_EQ(c.args[0].integer, 1);
  EXPECT_EQ(c.args[1].kind, Value::Kind::Double);
  EXPECT_DOUBLE_EQ(c.args[1].number, -2.5);
  EXPECT_EQ(c.args[2].kind, Value::Kind::Bool);
  EXPECT_EQ(c.args[3].kind, Value::Kind::None);
  EXPECT_EQ(c.args[4].text, "mean");
  ASSERT_EQ(c.args[5].kind, Value::Kind::List);
  EXPECT_EQ(c.args[5].list.size(), 2u);
  EXPECT_EQ(c.args[6].list.size(), 1u);
  EXPECT_EQ(c.args[7].kind, Value::Kind::DType);
  EXPECT_EQ(c.args[7].dtype, DType::BFloat16);
  ASSERT_EQ(c.kwargs.size(), 2u);
  EXPECT_EQ(c.kwargs[0].first, "x");
  EXPECT_TRUE(std::isinf(c.kwargs[0].second.number));
  EXPECT_DOUBLE_EQ(c.kwargs[1].second.number, 1e-3);
}

TEST(CallExpression, FactoriesMakeTensorsOfTheirDtypeAndAreReproducibleBySeed) {
  auto a = parse_call_expression(
      "f(randn(4, 5), rand((3,)), randint(0, 10, (6,)), arange(5), zeros(2, dtype=torch.float16), "
      "ones(2, 2, dtype=torch.int32), full((2, 3), 7), tensor([[1, 2], [3, 4]]))",
      7);
  ASSERT_EQ(a.args.size(), 8u);
  EXPECT_EQ(a.args[0].tensor.sizes(), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(a.args[0].tensor.dtype(), DType::Float32);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_GE(a.args[1].tensor.get_double(i), 0.0);
    EXPECT_LT(a.args[1].tensor.get_double(i), 1.0);
  }
  EXPECT_EQ(a.args[2].tensor.dtype(), DType::Int64);
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_GE(a.args[2].tensor.get_int(i), 0);
    EXPECT_LT(a.args[2].tensor.get_int(i), 10);
  }
  EXPECT_EQ(a.args[3].tensor.dtype(), DType::Int64);
  EXPECT_EQ(a.args[3].tensor.get_int(4), 4);
  EXPECT_EQ(a.args[4].tensor.dtype(), DType::Float16);
  EXPECT_EQ(a.args[5].tensor.dtype(), DType::Int32);
  EXPECT_EQ(a.args[5].tensor.get_int(3), 1);
  EXPECT_EQ(a.args[6].tensor.dtype(), DType::Int64);
  EXPECT_EQ(a.args[6].tensor.get_int(5), 7);
  EXPECT_EQ(a.args[7].tensor.sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(a.args[7].tensor.get_int(2), 3);

  auto b = parse_call_expression("f(randn(4, 5))", 7);
  auto c = parse_call_expression("f(randn(4, 5))", 8);
  EXPECT_TRUE(b.args[0].tensor.equals(a.args[0].tensor)) << "same seed, same data";
  EXPECT_FALSE(c.args[0].tensor.equals(a.args[0].tensor)) << "another seed, other data";
}

TEST(CallExpression, TransposeAndSlicingMakeNonContiguousViews) {
  auto c = parse_call_expression(
      "f(randn(3, 4).t(), arange(12)[1:10:3], randn(4, 6)[:, ::2], "
      "randn(2, 3, 4).permute(2, 0, 1), randn(5, 5)[2])");
  ASSERT_EQ(c.args.size(), 5u);
  const auto &t = c.args[0].tensor;
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{1, 4}));
  EXPECT_FALSE(t.is_contiguous());
  const auto &s = c.args[1].tensor;
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(s.strides(), (std::vector<int64_t>{3}));
  EXPECT_EQ(s.storage_offset(), 1);
  EXPECT_EQ(s.get_int(2), 7);
  const auto &u = c.args[2].tensor;
  EXPECT_EQ(u.sizes(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(u.strides(), (std::vector<int64_t>{6, 2}));
  const auto &p = c.args[3].tensor;
  EXPECT_EQ(p.sizes(), (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(p.strides(), (std::vector<int64_t>{1, 12, 4}));
  const auto &r = c.args[4].tensor;
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{5}));
  EXPECT_EQ(r.storage_offset(), 10);
}

TEST(CallExpression, BadExpressionsNameTheColumn) {
  auto [msg, col] = error_of("add_Tensor(randn(4), randm(4))");
  EXPECT_EQ(col, 22) << msg;
  EXPECT_NE(msg.find("unknown function 'randm'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--call:1:22"), std::string::npos) << msg;
  // The expression is indented by two spaces; the caret sits under column 22.
  EXPECT_NE(msg.find("\n" + std::string(2 + 21, ' ') + "^"), std::string::npos)
      << "caret under the column: " << msg;

  std::tie(msg, col) = error_of("add_Tensor(randn(4), ");
  EXPECT_EQ(col, 22) << msg;
  std::tie(msg, col) = error_of("add_Tensor(randn(4) randn(4))");
  EXPECT_EQ(col, 21) << msg;
  EXPECT_NE(msg.find("expected ')'"), std::string::npos) << msg;
  std::tie(msg, col) = error_of("f(x=1, 2)");
  EXPECT_EQ(col, 8) << msg;
  std::tie(msg, col) = error_of("f(randn(3)[5])");
  EXPECT_EQ(col, 12) << msg;
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
  std::tie(msg, col) = error_of("f(torch.float17)");
  EXPECT_EQ(col, 3) << msg;
  std::tie(msg, col) = error_of("f('abc)");
  EXPECT_EQ(col, 3) << msg;
  std::tie(msg, col) = error_of("f(randn(-1))");
  EXPECT_GT(col, 0) << msg;
  std::tie(msg, col) = error_of("f(1) + 2");
  EXPECT_EQ(col, 6) << msg;
}
