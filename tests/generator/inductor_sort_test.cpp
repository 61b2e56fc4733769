//===- inductor_sort_test.cpp - the sort template's merge sort against std::stable_sort ===//
//
// Renders aten::sort from the shipped lowering table and runs its wrapper on the
// IR interpreter over rows long enough for several merge passes (ties, NaN,
// negative zero, rows that are not a power of two long), ascending and
// descending, along the last and the first dim; values and indices must equal a
// stable sort with NaN ordered as the largest value (ATen's order).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/generator/evaluator.h"
#include "opforge/generator/inductor.h"
#include "opforge/support/host_tensor.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

const char *kSchema =
    "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)";

struct Sorted {
  HostTensor values, indices;
};

Sorted run_sort(const HostTensor &input, int64_t dim, bool descending) {
  auto table = generator::LoweringTable::load(generator::LoweringTable::default_dir());
  auto rendered = table.render("aten::sort", kSchema);
  EXPECT_EQ(rendered.error, "");
  ast::Module module = parse_source("sort.py", rendered.source);
  InterpExecutor ex;
  TensorHandle h;
  h.dtype = input.dtype();
  h.sizes = input.sizes();
  h.strides = HostTensor::contiguous_strides(input.sizes());
  h.buffer = ex.allocate(std::max<int64_t>(1, h.extent_bytes()));
  ex.copy_in(h, input);
  WrapperInterpreter wi(module, ex);
  auto res = wi.run(generator::wrapper_name("aten::sort"),
                    {WrapperValue::of(h), WrapperValue::integer(dim),
                     WrapperValue::boolean(descending)});
  EXPECT_EQ(res.value.items.size(), 2u);
  return {ex.copy_out(res.value.items.at(0).tensor), ex.copy_out(res.value.items.at(1).tensor)};
}

// ATen's order: NaN is the largest value; equal elements keep their order.
std::vector<int64_t> expected_order(const std::vector<double> &row, bool descending) {
  std::vector<int64_t> order(row.size());
  std::iota(order.begin(), order.end(), 0);
  auto less = [&](int64_t a, int64_t b) {
    double x = row[a], y = row[b];
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
    return x < y;
  };
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return descending ? less(b, a) : less(a, b);
  });
  return order;
}

void expect_rows_sorted(const HostTensor &in, const Sorted &out, int64_t rows, int64_t cols,
                        bool along_first_dim, bool descending) {
  auto at = [&](int64_t r, int64_t c) { return along_first_dim ? c * rows + r : r * cols + c; };
  int64_t wrong = 0;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> row(cols);
    for (int64_t c = 0; c < cols; ++c) row[c] = in.get_double(at(r, c));
    auto order = expected_order(row, descending);
    for (int64_t c = 0; c < cols; ++c) {
      double want = row[order[c]], got = out.values.get_double(at(r, c));
      bool same = std::isnan(want) ? std::isnan(got) : got == want;
      if (!same || out.indices.get_int(at(r, c)) != order[c]) {
        if (++wrong <= 5)
          ADD_FAILURE() << "row " << r << " position " << c << ": got " << got << " (index "
                        << out.indices.get_int(at(r, c)) << "), expected " << want << " (index "
                        << order[c] << ")";
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

HostTensor random_tensor(DType dtype, std::vector<int64_t> sizes, unsigned seed) {
  HostTensor t(dtype, sizes);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(-6, 6), pick(0, 19);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int p = pick(rng);
    if (dtype == DType::Float32 && p == 0)
      t.set_double(i, std::numeric_limits<double>::quiet_NaN());
    else if (dtype == DType::Float32 && p == 1)
      t.set_double(i, -0.0);
    else
      t.set_double(i, dtype == DType::Float32 ? small(rng) * 0.5 : small(rng));
  }
  return t;
}

}  // namespace

TEST(InductorSort, LongFloatRowsSortStablyWithNaNLastAscending) {
  auto in = random_tensor(DType::Float32, {3, 301}, 1);
  expect_rows_sorted(in, run_sort(in, -1, false), 3, 301, false, false);
}

TEST(InductorSort, LongFloatRowsSortStablyWithNaNFirstDescending) {
  auto in = random_tensor(DType::Float32, {2, 200}, 2);
  expect_rows_sorted(in, run_sort(in, 1, true), 2, 200, false, true);
}

TEST(InductorSort, IntegerColumnsSortAlongTheFirstDim) {
  auto in = random_tensor(DType::Int64, {150, 2}, 3);
  expect_rows_sorted(in, run_sort(in, 0, false), 2, 150, true, false);
}

TEST(InductorSort, ShortRowsNeedNoMergePass) {
  auto in = random_tensor(DType::Float32, {4, 7}, 4);
  expect_rows_sorted(in, run_sort(in, -1, true), 4, 7, false, true);
}
