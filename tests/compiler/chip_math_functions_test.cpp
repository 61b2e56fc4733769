//===- chip_math_functions_test.cpp - tl/tl.math functions: host reference, interpreter, chip ===//
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>

#include "diff_harness.h"
#include "opforge/compiler/capability.h"

namespace opforge::compiler::testing {
namespace {

struct Fn {
  std::string name;
  std::function<double(double, double)> ref;
  double lo, hi;  // input range of x
};

double round_half_even(double x) { return std::nearbyint(x); }

// erfinv by bisection on std::erf (the host library has no erfinv).
double erfinv_ref(double y) {
  double lo = -6, hi = 6;
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    (std::erf(mid) < y ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::vector<Fn> functions() {
  return {
      {"tanh", [](double x, double) { return std::tanh(x); }, -4, 4},
      {"log1p", [](double x, double) { return std::log1p(x); }, -0.9, 3},
      {"expm1", [](double x, double) { return std::expm1(x); }, -3, 3},
      {"pow", [](double x, double y) { return std::pow(x, y); }, 0.1, 4},
      {"tan", [](double x, double) { return std::tan(x); }, -1.2, 1.2},
      {"sinh", [](double x, double) { return std::sinh(x); }, -3, 3},
      {"cosh", [](double x, double) { return std::cosh(x); }, -3, 3},
      {"asin", [](double x, double) { return std::asin(x); }, -0.99, 0.99},
      {"acos", [](double x, double) { return std::acos(x); }, -0.99, 0.99},
      {"atan", [](double x, double) { return std::atan(x); }, -20, 20},
      {"trunc", [](double x, double) { return std::trunc(x); }, -9, 9},
      {"round", [](double x, double) { return std::round(x); }, -9, 9},
      {"rint", [](double x, double) { return round_half_even(x); }, -9, 9},
      {"nearbyint", [](double x, double) { return round_half_even(x); }, -9, 9},
      {"isnan", [](double x, double) { return std::isnan(x) ? 1.0 : 0.0; }, -9, 9},
      {"isinf", [](double x, double) { return std::isinf(x) ? 1.0 : 0.0; }, -9, 9},
      {"signbit", [](double x, double) { return std::signbit(x) ? 1.0 : 0.0; }, -9, 9},
      {"neg", [](double x, double) { return -x; }, -9, 9},
      {"recip", [](double x, double) { return 1.0 / x; }, 0.5, 9},
      {"fast_expf", [](double x, double) { return std::exp(x); }, -5, 5},
      {"fast_logf", [](double x, double) { return std::log(x); }, 0.01, 50},
      {"log10", [](double x, double) { return std::log10(x); }, 0.01, 500},
      {"acosh", [](double x, double) { return std::acosh(x); }, 1, 30},
      {"asinh", [](double x, double) { return std::asinh(x); }, -30, 30},
      {"atanh", [](double x, double) { return std::atanh(x); }, -0.95, 0.95},
      {"erfc", [](double x, double) { return std::erfc(x); }, -3, 3},
      {"llrint", [](double x, double) { return round_half_even(x); }, -9, 9},
      {"fast_tanhf", [](double x, double) { return std::tanh(x); }, -4, 4},
      {"atan2", [](double x, double y) { return std::atan2(x, y); }, -4, 4},
      {"copysign", [](double x, double y) { return std::copysign(x, y); }, -9, 9},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }, -9, 9},
      {"ldexp", [](double x, double y) { return x * std::exp2(y); }, -9, 9},
      {"erfinv", [](double x, double) { return erfinv_ref(x); }, -0.999, 0.999},
      {"lgamma", [](double x, double) { return std::lgamma(x); }, 0.05, 12},
      {"lgamma", [](double x, double) { return std::lgamma(x); }, -3.9, -0.1},
  };
}

// x in [lo, hi] with a few special values (halves, ±0, ±inf, NaN) where they
// are in the function's domain; y in [-3, 3] (integers among them).
DiffCase math_case(const Fn &f, int64_t n, bool specials) {
  DiffCase c;
  c.file = "math_fn.py";
  c.signature = "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32";
  c.constexprs = {"FN='" + f.name + "'", "BLOCK=32"};
  HostTensor x(DType::Float32, {n}), y(DType::Float32, {n});
  for (int64_t i = 0; i < n; ++i) {
    x.set_double(i, f.lo + (f.hi - f.lo) * static_cast<double>(i) / static_cast<double>(n - 1));
    y.set_double(i, i % 3 == 0 ? static_cast<double>(i % 7) - 3.0 : -3.0 + 6.0 * (i % 11) / 10.0);
  }
  if (specials) {
    const double sp[] = {0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 2.5, HUGE_VAL, -HUGE_VAL, std::nan("")};
    for (size_t k = 0; k < std::size(sp) && static_cast<int64_t>(k) < n; ++k)
      x.set_double(k, sp[k]);
  }
  c.args = {KArg::tensor(x), KArg::tensor(y), KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::integer(n)};
  c.grid.x = (n + 31) / 32;
  return c;
}

bool exact_fn(const std::string &n) {
  return n == "trunc" || n == "round" || n == "rint" || n == "nearbyint" || n == "isnan" ||
         n == "isinf" || n == "signbit" || n == "neg" || n == "copysign";
}

bool close(double want, double got, double rtol, double atol) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return want == got;
  return std::fabs(want - got) <= atol + rtol * std::fabs(want);
}

TEST(MathFunctions, InterpreterMatchesTheHostLibraryAndTheChipMatchesTheInterpreter) {
  const int64_t n = 70;  // three programs, the last one partial
  for (const Fn &f : functions()) {
    bool exact = exact_fn(f.name);
    DiffCase c = math_case(f, n, exact);
    auto ref = run_interp(c);
    const HostTensor &x = c.args[0].t, &y = c.args[1].t;
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 3; ++i) {
      double want =
          static_cast<double>(static_cast<float>(f.ref(x.get_double(i), y.get_double(i))));
      double got = ref[2].get_double(i);
      if (!close(want, got, exact ? 0 : 2e-5, exact ? 0 : 2e-6)) {
        ++bad;
        ADD_FAILURE() << f.name << "(" << x.get_double(i) << ", " << y.get_double(i)
                      << "): interpreter " << got << ", host " << want;
      }
    }
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok()) << f.name << ": " << chip.launch.traps.front();
    bad = 0;
    for (int64_t i = 0; i < n && bad < 3; ++i) {
      double want = ref[2].get_double(i), got = chip.tensors[2].get_double(i);
      if (!close(want, got, exact ? 0 : 1e-5, exact ? 0 : 1e-6)) {
        ++bad;
        ADD_FAILURE() << f.name << "(" << x.get_double(i) << "): chip " << got << ", interpreter "
                      << want;
      }
    }
  }
}

TEST(MathFunctions, SoftmaxOfABlockSumsToOneOnTheChip) {
  Fn f{"softmax", nullptr, -3, 3};
  DiffCase c = math_case(f, 32, false);
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  double sum = 0;
  for (int64_t i = 0; i < 32; ++i) {
    sum += chip.tensors[2].get_double(i);
    EXPECT_NEAR(chip.tensors[2].get_double(i), ref[2].get_double(i), 1e-6);
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
}

// Every math function of the capability table compiles through the frontend
// (the table and the frontend agree).
TEST(MathFunctions, EveryCapabilityTableMathFunctionCompiles) {
  const std::map<std::string, std::string> calls = {
      {"abs", "tl.math.abs(x)"},
      {"exp", "tl.math.exp(x)"},
      {"exp2", "tl.math.exp2(x)"},
      {"log", "tl.math.log(x)"},
      {"log2", "tl.math.log2(x)"},
      {"log1p", "tl.math.log1p(x)"},
      {"sqrt", "tl.math.sqrt(x)"},
      {"sqrt_rn", "tl.math.sqrt_rn(x)"},
      {"rsqrt", "tl.math.rsqrt(x)"},
      {"sin", "tl.math.sin(x)"},
      {"cos", "tl.math.cos(x)"},
      {"tan", "tl.math.tan(x)"},
      {"tanh", "tl.math.tanh(x)"},
      {"erf", "tl.math.erf(x)"},
      {"floor", "tl.math.floor(x)"},
      {"ceil", "tl.math.ceil(x)"},
      {"fma", "tl.math.fma(x, y, x)"},
      {"sigmoid", "tl.sigmoid(x)"},
      {"div_rn", "tl.math.div_rn(x, y)"},
      {"fdiv", "tl.math.fdiv(x, y)"},
      {"umulhi", "tl.math.umulhi(i, i).to(tl.float32)"},
      {"pow", "tl.math.pow(x, y)"},
      {"expm1", "tl.math.expm1(x)"},
      {"asin", "tl.math.asin(x)"},
      {"acos", "tl.math.acos(x)"},
      {"atan", "tl.math.atan(x)"},
      {"sinh", "tl.math.sinh(x)"},
      {"cosh", "tl.math.cosh(x)"},
      {"round", "tl.math.round(x)"},
      {"trunc", "tl.math.trunc(x)"},
      {"isnan", "tl.math.isnan(x).to(tl.float32)"},
      {"isinf", "tl.math.isinf(x).to(tl.float32)"},
      {"signbit", "tl.math.signbit(x).to(tl.float32)"},
      {"max", "tl.max(x, axis=0) + x"},
      {"min", "tl.min(x, axis=0) + x"},
      {"maximum", "tl.maximum(x, y)"},
      {"minimum", "tl.minimum(x, y)"},
      {"cdiv", "tl.cdiv(i, 3).to(tl.float32)"},
      {"clamp", "tl.clamp(x, -1.0, 1.0)"},
      {"fast_expf", "tl.math.fast_expf(x)"},
      {"fast_logf", "tl.math.fast_logf(x)"},
      {"rint", "tl.math.rint(x)"},
      {"nearbyint", "tl.math.nearbyint(x)"},
      {"neg", "tl.math.neg(x)"},
      {"recip", "tl.math.recip(x)"},
      {"fmod", "tl.math.fmod(x, y)"},
      {"log10", "tl.math.log10(x)"},
      {"acosh", "tl.math.acosh(x)"},
      {"asinh", "tl.math.asinh(x)"},
      {"atanh", "tl.math.atanh(x)"},
      {"atan2", "tl.math.atan2(x, y)"},
      {"copysign", "tl.math.copysign(x, y)"},
      {"hypot", "tl.math.hypot(x, y)"},
      {"ldexp", "tl.math.ldexp(x, y)"},
      {"llrint", "tl.math.llrint(x).to(tl.float32)"},
      {"erfc", "tl.math.erfc(x)"},
      {"fast_tanhf", "tl.math.fast_tanhf(x)"},
      {"erfinv", "tl.math.erfinv(x)"},
      {"lgamma", "tl.math.lgamma(x)"}};
  const auto &caps = mtia_capabilities();
  std::string path = ::testing::TempDir() + "/math_table_kernel.py";
  for (const std::string &name : caps.math_functions) {
    auto it = calls.find(name);
    if (it == calls.end()) {
      ADD_FAILURE() << "math function '" << name << "' of the capability table has no test call";
      continue;
    }
    std::ofstream(path) << "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                           "def k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                           "    i = tl.arange(0, BLOCK)\n"
                           "    x = tl.load(x_ptr + i)\n"
                           "    y = tl.load(y_ptr + i)\n"
                           "    r = "
                        << it->second << "\n    tl.store(out_ptr + i, r)\n";
    CompileOptions o;
    o.knobs = Knobs{};
    add_signature(o.spec, "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32");
    add_constexpr(o.spec, "BLOCK=16");
    try {
      compile_file(path, o, "opt");
    } catch (const std::exception &e) {
      ADD_FAILURE() << "tl.math." << name << ": " << e.what();
    }
  }
}

// tl functions the frontend builds from other operations.
TEST(MathFunctions, XorSumRavelAndAssumeMatchTheHostOnTheInterpreterAndTheChip) {
  DiffCase c;
  c.file = "xor_sum_ravel.py";
  c.signature = "x_ptr=*i32,out_ptr=*i32";
  c.constexprs = {"BLOCK=8"};
  HostTensor x = random_tensor(DType::Int32, {64}, 5);
  c.args = {KArg::tensor(x), KArg::tensor(HostTensor(DType::Int32, {8 + 64 + 1}))};
  auto ref = run_interp(c);
  const HostTensor &out = ref[1];
  int64_t all = 0;
  for (int64_t r = 0; r < 8; ++r) {
    int64_t want = 0;
    for (int64_t k = 0; k < 8; ++k) want ^= x.get_int(r * 8 + k);
    all ^= want;
    EXPECT_EQ(out.get_int(r), want) << "row " << r;
  }
  for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(out.get_int(8 + i), x.get_int(i));
  EXPECT_EQ(out.get_int(72), all);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  for (int64_t i = 0; i < out.numel(); ++i)
    EXPECT_EQ(chip.tensors[1].get_int(i), out.get_int(i)) << "element " << i;
}

}  // namespace
}  // namespace opforge::compiler::testing
