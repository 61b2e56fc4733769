//===- kernels_e2e_test.cpp - test kernels: wrapper -> ttir -> interpreter vs host references ===//
//
// Each kernel in tests/compiler/kernels/ runs through its ATen-named wrapper
// (wrapper interpreter) on the InterpExecutor (lowering + passes + ttir
// interpreter) and is compared with a reference computed here on the host,
// over dtypes and shapes that include non-multiples of the block size and
// empty tensors. Tolerances are torch.testing.assert_close's defaults.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

std::string kernel_path(const std::string &name) {
  return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/" + name;
}

double round_to(DType d, double x) {
  switch (d) {
    case DType::Float32:
      return static_cast<float>(x);
    case DType::Float16:
      return fp16_to_fp32(fp32_to_fp16(static_cast<float>(x)));
    case DType::BFloat16:
      return bf16_to_fp32(fp32_to_bf16(static_cast<float>(x)));
    default:
      return x;
  }
}

struct Tol {
  double rtol, atol;
};
Tol tol_of(DType d) {
  switch (d) {
    case DType::Float16:
      return {1e-3, 1e-5};
    case DType::BFloat16:
      return {1.6e-2, 1e-5};
    case DType::Float32:
      return {1.3e-6, 1e-5};
    default:
      return {0, 0};
  }
}

HostTensor random_tensor(DType d, std::vector<int64_t> sizes, uint32_t seed, double lo = -2,
                         double hi = 2) {
  HostTensor t(d, std::move(sizes));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dtype_is_float(d))
      t.set_double(i, round_to(d, u(rng)));
    else
      t.set_int(i, static_cast<int64_t>(std::floor(u(rng) * 50)));
  }
  return t;
}

void expect_close(const HostTensor &got, const std::vector<double> &want, DType d,
                  const std::string &what, Tol extra = {0, 0}) {
  ASSERT_EQ(got.numel(), static_cast<int64_t>(want.size())) << what;
  Tol t = tol_of(d);
  t.rtol = std::max(t.rtol, extra.rtol);
  t.atol = std::max(t.atol, extra.atol);
  int bad = 0;
  for (int64_t i = 0; i < got.numel() && bad < 5; ++i) {
    double g = got.get_double(i), w = want[i];
    bool ok = std::isnan(w) ? std::isnan(g) : std::fabs(g - w) <= t.atol + t.rtol * std::fabs(w);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
    }
  }
}

class KernelRun {
 public:
  explicit KernelRun(const std::string &file)
      : mod_(parse_file(kernel_path(file))), wi_(mod_, ex_) {}
  TensorHandle upload(const HostTensor &t) {
    TensorHandle h;
    h.dtype = t.dtype();
    h.sizes = t.sizes();
    h.strides = HostTensor::contiguous_strides(t.sizes());
    h.buffer = ex_.allocate(std::max<int64_t>(1, t.numel()) * dtype_size(t.dtype()));
    ex_.copy_in(h, t);
    return h;
  }
  WrapperRunResult run(const std::string &wrapper, std::vector<WrapperValue> args,
                       std::vector<std::pair<std::string, WrapperValue>> kw = {}) {
    return wi_.run(wrapper, args, kw);
  }
  HostTensor out(const WrapperValue &v) { return ex_.copy_out(v.tensor); }
  InterpExecutor &executor() { return ex_; }

 private:
  ast::Module mod_;
  InterpExecutor ex_;
  WrapperInterpreter wi_;
};

std::string dname(DType d) { return std::string(dtype_name(d)); }

// ---------------------------------------------------------------------------
class VectorAdd : public ::testing::TestWithParam<std::tuple<DType, int64_t>> {};
TEST_P(VectorAdd, MatchesHostReference) {
  auto [d, n] = GetParam();
  KernelRun k("vector_add.py");
  HostTensor x = random_tensor(d, {n}, 1), y = random_tensor(d, {n}, 2);
  bool is_int = !dtype_is_float(d);
  WrapperValue alpha = is_int ? WrapperValue::integer(3) : WrapperValue::floating(0.5);
  auto r = k.run("add_Tensor", {WrapperValue::of(k.upload(x)), WrapperValue::of(k.upload(y))},
                 {{"alpha", alpha}});
  HostTensor o = k.out(r.value);
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i) {
    if (is_int)
      want[i] = static_cast<double>(x.get_int(i) + 3 * y.get_int(i));
    else {
      // alpha is an fp32 scalar argument: fp32 * block -> promoted per Triton, then rounded to d.
      double ay = d == DType::Float32 ? round_to(d, 0.5 * y.get_double(i)) : 0.5 * y.get_double(i);
      want[i] = round_to(d, x.get_double(i) + ay);
    }
  }
  expect_close(o, want, d, "add_Tensor " + dname(d) + " n=" + std::to_string(n));
  EXPECT_EQ(r.launches.size(), n == 0 ? 0u : 1u);
}
INSTANTIATE_TEST_SUITE_P(Kernels, VectorAdd,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::BFloat16, DType::Int32),
                                            ::testing::Values(0, 1, 1000, 1024, 2500)));

// ---------------------------------------------------------------------------
class Softmax : public ::testing::TestWithParam<std::tuple<DType, std::pair<int64_t, int64_t>>> {};
TEST_P(Softmax, MatchesHostReference) {
  auto [d, shape] = GetParam();
  auto [rows, cols] = shape;
  KernelRun k("fused_softmax.py");
  HostTensor x = random_tensor(d, {rows, cols}, 3, -4, 4);
  auto r = k.run("_softmax_default", {WrapperValue::of(k.upload(x)), WrapperValue::integer(-1),
                                      WrapperValue::boolean(false)});
  HostTensor o = k.out(r.value);
  std::vector<double> want(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < cols; ++j) m = std::max(m, x.get_double(i * cols + j));
    for (int64_t j = 0; j < cols; ++j) s += std::exp(x.get_double(i * cols + j) - m);
    for (int64_t j = 0; j < cols; ++j)
      want[i * cols + j] = round_to(d, std::exp(x.get_double(i * cols + j) - m) / s);
  }
  expect_close(o, want, d, "softmax " + dname(d), {1e-5, 1e-6});
}
INSTANTIATE_TEST_SUITE_P(Kernels, Softmax,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::BFloat16),
                                            ::testing::Values(std::pair<int64_t, int64_t>{1, 1},
                                                              std::pair<int64_t, int64_t>{3, 7},
                                                              std::pair<int64_t, int64_t>{70, 128},
                                                              std::pair<int64_t, int64_t>{4, 300},
                                                              std::pair<int64_t, int64_t>{0, 5})));

// ---------------------------------------------------------------------------
std::vector<double> matmul_ref(const HostTensor &a, const HostTensor &b, int64_t M, int64_t N,
                               int64_t K, DType d) {
  std::vector<double> c(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;  // fp32 accumulation in k order, as the kernel does
      for (int64_t kk = 0; kk < K; ++kk)
        acc = static_cast<float>(static_cast<double>(acc) +
                                 a.get_double(i * K + kk) * b.get_double(kk * N + j));
      c[i * N + j] = round_to(d, acc);
    }
  return c;
}

class Matmul : public ::testing::TestWithParam<
                   std::tuple<std::string, DType, std::tuple<int64_t, int64_t, int64_t>>> {};
TEST_P(Matmul, MatchesHostReference) {
  auto [file, d, mnk] = GetParam();
  auto [M, N, K] = mnk;
  KernelRun k(file);
  HostTensor a = random_tensor(d, {M, K}, 4), b = random_tensor(d, {K, N}, 5);
  auto r = k.run("mm_default", {WrapperValue::of(k.upload(a)), WrapperValue::of(k.upload(b))});
  HostTensor c = k.out(r.value);
  expect_close(c, matmul_ref(a, b, M, N, K, d), d, file + " " + dname(d), {1e-5, 1e-5});
}
INSTANTIATE_TEST_SUITE_P(
    Kernels, Matmul,
    ::testing::Combine(::testing::Values("matmul.py", "block_ptr_matmul.py"),
                       ::testing::Values(DType::Float32, DType::Float16, DType::BFloat16),
                       ::testing::Values(std::tuple<int64_t, int64_t, int64_t>{32, 32, 32},
                                         std::tuple<int64_t, int64_t, int64_t>{33, 17, 45},
                                         std::tuple<int64_t, int64_t, int64_t>{5, 70, 3},
                                         std::tuple<int64_t, int64_t, int64_t>{0, 4, 4})),
    [](const auto &info) {
      std::string f = std::get<0>(info.param);
      f = f.substr(0, f.find('.'));
      const auto &mnk = std::get<2>(info.param);
      return f + "_" + dname(std::get<1>(info.param)) + "_" + std::to_string(std::get<0>(mnk)) +
             "x" + std::to_string(std::get<1>(mnk)) + "x" + std::to_string(std::get<2>(mnk));
    });

// ---------------------------------------------------------------------------
class LayerNorm : public ::testing::TestWithParam<std::tuple<DType, std::pair<int64_t, int64_t>>> {
};
TEST_P(LayerNorm, MatchesHostReference) {
  auto [d, shape] = GetParam();
  auto [M, N] = shape;
  KernelRun k("layer_norm.py");
  HostTensor x = random_tensor(d, {M, N}, 6), w = random_tensor(d, {N}, 7),
             b = random_tensor(d, {N}, 8);
  double eps = 1e-5;
  auto r = k.run(
      "native_layer_norm_default",
      {WrapperValue::of(k.upload(x)), WrapperValue::list({WrapperValue::integer(N)}),
       WrapperValue::of(k.upload(w)), WrapperValue::of(k.upload(b)), WrapperValue::floating(eps)});
  ASSERT_EQ(r.value.items.size(), 3u);
  HostTensor y = k.out(r.value.items[0]), mean = k.out(r.value.items[1]),
             rstd = k.out(r.value.items[2]);
  std::vector<double> wy(M * N), wm(M), wr(M);
  for (int64_t i = 0; i < M; ++i) {
    double m = 0, v = 0;
    for (int64_t j = 0; j < N; ++j) m += x.get_double(i * N + j);
    m /= static_cast<double>(N);
    for (int64_t j = 0; j < N; ++j)
      v += (x.get_double(i * N + j) - m) * (x.get_double(i * N + j) - m);
    v /= static_cast<double>(N);
    double rs = 1 / std::sqrt(v + eps);
    wm[i] = m;
    wr[i] = rs;
    for (int64_t j = 0; j < N; ++j)
      wy[i * N + j] =
          round_to(d, (x.get_double(i * N + j) - m) * rs * w.get_double(j) + b.get_double(j));
  }
  expect_close(y, wy, d, "layer_norm y " + dname(d), {1e-5, 1e-5});
  expect_close(mean, wm, DType::Float32, "layer_norm mean", {1e-5, 1e-5});
  expect_close(rstd, wr, DType::Float32, "layer_norm rstd", {1e-5, 1e-5});
}
INSTANTIATE_TEST_SUITE_P(Kernels, LayerNorm,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::BFloat16),
                                            ::testing::Values(std::pair<int64_t, int64_t>{1, 1},
                                                              std::pair<int64_t, int64_t>{3, 100},
                                                              std::pair<int64_t, int64_t>{2, 1024},
                                                              std::pair<int64_t, int64_t>{0, 8})));

// ---------------------------------------------------------------------------
class Cumsum : public ::testing::TestWithParam<std::tuple<DType, std::pair<int64_t, int64_t>>> {};
TEST_P(Cumsum, MatchesHostReference) {
  auto [d, shape] = GetParam();
  auto [rows, cols] = shape;
  KernelRun k("cumsum.py");
  HostTensor x = random_tensor(d, {rows, cols}, 9);
  auto r = k.run("cumsum_default", {WrapperValue::of(k.upload(x)), WrapperValue::integer(1)});
  HostTensor y = k.out(r.value);
  std::vector<double> want(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    double acc = 0;
    for (int64_t j = 0; j < cols; ++j) {
      acc = dtype_is_float(d) ? round_to(d, acc + x.get_double(i * cols + j))
                              : acc + static_cast<double>(x.get_int(i * cols + j));
      want[i * cols + j] = acc;
    }
  }
  expect_close(y, want, d, "cumsum " + dname(d), {1e-5, 1e-5});
}
INSTANTIATE_TEST_SUITE_P(Kernels, Cumsum,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::Int32),
                                            ::testing::Values(std::pair<int64_t, int64_t>{1, 1},
                                                              std::pair<int64_t, int64_t>{3, 100},
                                                              std::pair<int64_t, int64_t>{2, 128},
                                                              std::pair<int64_t, int64_t>{0, 5})));

// ---------------------------------------------------------------------------
class Argmax : public ::testing::TestWithParam<std::tuple<DType, std::pair<int64_t, int64_t>>> {};
TEST_P(Argmax, MatchesHostReferenceWithFirstIndexOnTies) {
  auto [d, shape] = GetParam();
  auto [rows, cols] = shape;
  KernelRun k("argmax.py");
  HostTensor x = random_tensor(d, {rows, cols}, 10);
  // Plant ties: the maximum appears twice in every row.
  for (int64_t i = 0; i < rows && cols >= 4; ++i) {
    x.set_double(i * cols + 1, 7.0);
    x.set_double(i * cols + cols - 1, 7.0);
  }
  auto r = k.run("argmax_default", {WrapperValue::of(k.upload(x)), WrapperValue::integer(1)});
  HostTensor idx = k.out(r.value);
  ASSERT_EQ(idx.dtype(), DType::Int64);
  for (int64_t i = 0; i < rows; ++i) {
    int64_t best = 0;
    for (int64_t j = 1; j < cols; ++j)
      if (x.get_double(i * cols + j) > x.get_double(i * cols + best)) best = j;
    EXPECT_EQ(idx.get_int(i), best) << "row " << i;
  }
}
INSTANTIATE_TEST_SUITE_P(Kernels, Argmax,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::BFloat16),
                                            ::testing::Values(std::pair<int64_t, int64_t>{1, 1},
                                                              std::pair<int64_t, int64_t>{3, 100},
                                                              std::pair<int64_t, int64_t>{5, 64})));

// ---------------------------------------------------------------------------
class Autotuned : public ::testing::TestWithParam<std::tuple<DType, int64_t>> {};
TEST_P(Autotuned, LeakyReluMatchesHostReference) {
  auto [d, n] = GetParam();
  KernelRun k("autotuned.py");
  HostTensor x = random_tensor(d, {n}, 11);
  auto r =
      k.run("leaky_relu_default", {WrapperValue::of(k.upload(x)), WrapperValue::floating(0.1)});
  HostTensor y = k.out(r.value);
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i) {
    double v = x.get_double(i);
    want[i] = round_to(d, v >= 0 ? v : v * static_cast<double>(static_cast<float>(0.1)));
  }
  expect_close(y, want, d, "leaky_relu " + dname(d), {1e-6, 1e-6});
}
INSTANTIATE_TEST_SUITE_P(Kernels, Autotuned,
                         ::testing::Combine(::testing::Values(DType::Float32, DType::Float16,
                                                              DType::BFloat16),
                                            ::testing::Values(0, 1, 300, 1024, 5000)));

// ---------------------------------------------------------------------------
TEST(KernelsExecutor, LoweredKernelsAreCachedPerSpecialisation) {
  KernelRun k("vector_add.py");
  HostTensor x = random_tensor(DType::Float32, {100}, 1);
  auto hx = k.upload(x);
  k.run("add_Tensor", {WrapperValue::of(hx), WrapperValue::of(hx)});
  k.run("add_Tensor", {WrapperValue::of(hx), WrapperValue::of(hx)});
  EXPECT_EQ(k.executor().kernels_compiled(), 1u);
  HostTensor h = random_tensor(DType::Float16, {100}, 1);
  auto hh = k.upload(h);
  k.run("add_Tensor", {WrapperValue::of(hh), WrapperValue::of(hh)});
  EXPECT_EQ(k.executor().kernels_compiled(), 2u);
}

}  // namespace
