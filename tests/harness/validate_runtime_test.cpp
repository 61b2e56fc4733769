//===- validate_runtime_test.cpp - view/metadata ops of the ATen runtime ===//
#include <gtest/gtest.h>

#include "corpus_fixture.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
using opforge::compiler::TensorHandle;
using opforge::compiler::WrapperValue;

namespace {

WrapperValue tensor(std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset = 0) {
  TensorHandle t;
  t.buffer = 7;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.storage_offset = offset;
  return WrapperValue::of(t);
}

WrapperValue ints(std::vector<int64_t> v) {
  std::vector<WrapperValue> items;
  for (auto x : v) items.push_back(WrapperValue::integer(x));
  return WrapperValue::list(items);
}

}  // namespace

TEST(AtenRuntime, SliceSelectAndExpandOnlyChangeMetadata) {
  auto x = tensor({4, 6}, {6, 1}, 2);
  auto s = run_view_op("aten::slice.Tensor",
                       {x, WrapperValue::integer(1), WrapperValue::integer(1),
                        WrapperValue::integer(-1), WrapperValue::integer(2)},
                       {});
  EXPECT_EQ(s.tensor.sizes, (std::vector<int64_t>{4, 2}));  // columns 1 and 3
  EXPECT_EQ(s.tensor.strides, (std::vector<int64_t>{6, 2}));
  EXPECT_EQ(s.tensor.storage_offset, 3);
  EXPECT_EQ(s.tensor.buffer, 7u);
  auto sel =
      run_view_op("aten::select.int", {x, WrapperValue::integer(0), WrapperValue::integer(-1)}, {});
  EXPECT_EQ(sel.tensor.sizes, (std::vector<int64_t>{6}));
  EXPECT_EQ(sel.tensor.storage_offset, 2 + 18);
  auto e = run_view_op("aten::expand", {tensor({3, 1}, {1, 1}), ints({2, -1, 5})}, {});
  EXPECT_EQ(e.tensor.sizes, (std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(e.tensor.strides, (std::vector<int64_t>{0, 1, 0}));
  auto p = run_view_op("aten::permute", {tensor({2, 3, 4}, {12, 4, 1}), ints({2, 0, 1})}, {});
  EXPECT_EQ(p.tensor.sizes, (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(p.tensor.strides, (std::vector<int64_t>{1, 12, 4}));
}

TEST(AtenRuntime, BadArgumentsNameTheOverload) {
  try {
    run_view_op("aten::select.int",
                {tensor({4}, {1}), WrapperValue::integer(0), WrapperValue::integer(9)}, {});
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("aten::select.int"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_view_op("aten::view", {tensor({4}, {1}), ints({3})}, {}), Error);
  EXPECT_FALSE(is_view_op("aten::add.Tensor"));
  EXPECT_TRUE(is_view_op("aten::t"));
}

TEST(AtenRuntime, RecordedViewCallsValidateWithoutKernels) {
  auto corpus = Corpus::open(test::small_corpus());
  auto library = KernelLibrary::load(test::temp_dir());
  ValidateOptions options;
  for (const auto &name : view_ops())
    if (corpus.has_overload(name)) options.overloads.push_back(name);
  ASSERT_FALSE(options.overloads.empty());
  auto report = validate(corpus, library, options);
  for (const auto &r : report.results) {
    EXPECT_GT(r.total, 0) << r.overload;
    EXPECT_EQ(r.passed, r.total) << r.overload << ": " << r.first_failure();
  }
}
