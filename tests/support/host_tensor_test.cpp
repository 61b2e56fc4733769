//===- host_tensor_test.cpp - strided HostTensor behaviour -----------------===//
#include <gtest/gtest.h>

#include "opforge/support/error.h"
#include "opforge/support/host_tensor.h"

using namespace opforge;

TEST(HostTensor, ContiguousStridesAndIndexing) {
  HostTensor t(DType::Int32, {2, 3, 4});
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.numel(), 24);
  for (int64_t i = 0; i < 24; ++i) t.set_int(i, i);
  EXPECT_EQ(t.element_offset({1, 2, 3}), 23);
  EXPECT_THROW(t.element_offset({2, 0, 0}), Error);
}

TEST(HostTensor, TransposedViewReadsThroughStrides) {
  HostTensor t(DType::Float32, {2, 3});
  for (int64_t i = 0; i < 6; ++i) t.set_double(i, static_cast<double>(i));
  HostTensor tt(DType::Float32, {3, 2}, {1, 3}, 0, t.storage());
  EXPECT_FALSE(tt.is_contiguous());
  // tt[i][j] == t[j][i]
  EXPECT_EQ(tt.get_double(1), 3.0);  // tt[0][1] = t[1][0]
  EXPECT_EQ(tt.get_double(2), 1.0);  // tt[1][0] = t[0][1]
  HostTensor c = tt.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_TRUE(c.equals(tt));
  EXPECT_NE(c.storage(), t.storage());
  EXPECT_EQ(c.to_string(), "tensor([[0, 3], [1, 4], [2, 5]], dtype=float32)");
}

TEST(HostTensor, ExpandedViewWithZeroStrideAndOffset) {
  HostTensor t(DType::Int64, {4});
  for (int64_t i = 0; i < 4; ++i) t.set_int(i, 10 + i);
  HostTensor e(DType::Int64, {3, 2}, {0, 1}, 2, t.storage());
  EXPECT_EQ(e.contiguous().to_string(), "tensor([[12, 13], [12, 13], [12, 13]], dtype=int64)");
  EXPECT_THROW(HostTensor(DType::Int64, {3, 3}, {0, 1}, 2, t.storage()), Error);
}

TEST(HostTensor, ConversionAndEmpty) {
  HostTensor t(DType::Float32, {3});
  t.set_double(0, 1.5);
  t.set_double(1, -2.0);
  t.set_double(2, 0.0);
  EXPECT_EQ(t.to(DType::Bool).to_string(), "tensor([True, True, False], dtype=bool)");
  EXPECT_EQ(t.to(DType::BFloat16).get_double(0), 1.5);
  HostTensor empty(DType::Float16, {0, 5});
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_EQ(empty.storage_bytes(), 0u);
  EXPECT_TRUE(empty.equals(HostTensor(DType::Float16, {0, 5})));
  EXPECT_FALSE(empty.equals(HostTensor(DType::Float16, {5, 0})));
}
