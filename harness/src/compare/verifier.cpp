//===- verifier.cpp - assert_close-style comparison of results -------------===//
#include "opforge/harness/verifier.h"

#include <cmath>
#include <sstream>

namespace opforge::harness {

Tolerance default_tolerance(opforge::DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return {1e-5, 1.3e-6};
    case DType::Float16:
      return {1e-5, 1e-3};
    case DType::BFloat16:
      return {1e-5, 1.6e-2};
    case DType::Float64:
      return {1e-7, 1e-7};
    default:
      return {0, 0};
  }
}

namespace {

std::string join_dims(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string num(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os.precision(9);
  os << d;
  return os.str();
}

std::vector<int64_t> unravel(int64_t linear, const std::vector<int64_t> &sizes) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    idx[i] = sizes[i] ? linear % sizes[i] : 0;
    linear = sizes[i] ? linear / sizes[i] : 0;
  }
  return idx;
}

Mismatch structural(Mismatch::Kind kind, const std::string &path, std::string message) {
  Mismatch m;
  m.kind = kind;
  m.path = path;
  m.message = std::move(message);
  return m;
}

}  // namespace

namespace {

// The shape, dtype and stride checks of compare_tensors (an empty verdict when they pass).
Verdict structure_of(const HostTensor &actual, const HostTensor &expected,
                     const CompareOptions &options, const std::string &path) {
  Verdict v;
  if (actual.sizes() != expected.sizes()) {
    v.mismatches.push_back(structural(
        Mismatch::Kind::Shape, path,
        "shape " + join_dims(actual.sizes()) + " != expected " + join_dims(expected.sizes())));
    return v;
  }
  if (options.check_dtype && actual.dtype() != expected.dtype()) {
    v.mismatches.push_back(structural(Mismatch::Kind::DType, path,
                                      "dtype " + std::string(dtype_name(actual.dtype())) +
                                          " != expected " +
                                          std::string(dtype_name(expected.dtype()))));
    return v;
  }
  if (options.check_strides) {
    for (size_t d = 0; d < expected.sizes().size(); ++d)
      if (expected.sizes()[d] > 1 && actual.strides()[d] != expected.strides()[d]) {
        v.mismatches.push_back(structural(Mismatch::Kind::Strides, path,
                                          "strides " + join_dims(actual.strides()) +
                                              " != expected " + join_dims(expected.strides())));
        return v;
      }
  }
  return v;
}

bool is_floating(const HostTensor &actual, const HostTensor &expected) {
  return dtype_is_float(expected.dtype()) || dtype_is_float(actual.dtype());
}

// Compare in the less precise of the two dtypes' tolerances (assert_close uses the expected's).
Tolerance tolerance_for(const HostTensor &actual, const HostTensor &expected,
                        const CompareOptions &options) {
  Tolerance tol =
      default_tolerance(dtype_is_float(expected.dtype()) ? expected.dtype() : actual.dtype());
  if (is_floating(actual, expected) && options.tolerance) tol = *options.tolerance;
  return tol;
}

// Whether element i of actual is outside tolerance of expected, with its errors.
bool element_outside(const HostTensor &actual, const HostTensor &expected, int64_t i, bool floating,
                     const Tolerance &tol, bool equal_nan, double &a, double &e, double &abs_err,
                     double &rel_err) {
  if (!floating) {
    const int64_t ai = actual.get_int(i), ei = expected.get_int(i);
    const bool bad = ai != ei;
    a = static_cast<double>(ai);
    e = static_cast<double>(ei);
    abs_err = std::fabs(a - e);
    rel_err = ei == 0 ? (bad ? INFINITY : 0) : abs_err / std::fabs(e);
    return bad;
  }
  a = actual.get_double(i);
  e = expected.get_double(i);
  if (std::isnan(a) || std::isnan(e)) {
    const bool bad = !(equal_nan && std::isnan(a) && std::isnan(e));
    abs_err = rel_err = bad ? INFINITY : 0;
    return bad;
  }
  if (std::isinf(a) || std::isinf(e)) {
    const bool bad = a != e;
    abs_err = rel_err = bad ? INFINITY : 0;
    return bad;
  }
  abs_err = std::fabs(a - e);
  rel_err = e == 0 ? (abs_err == 0 ? 0 : INFINITY) : abs_err / std::fabs(e);
  return abs_err > tol.atol + tol.rtol * std::fabs(e);
}

// Element-wise errors of actual against expected (same shape). With `alternate` (same shape
// and dtype as expected), an element outside tolerance of expected still passes when it is
// within tolerance of alternate. The figures are always filled; `message` only on mismatches.
Mismatch value_errors(const HostTensor &actual, const HostTensor &expected,
                      const HostTensor *alternate, const CompareOptions &options,
                      const std::string &path) {
  const bool floating = is_floating(actual, expected);
  const Tolerance tol = tolerance_for(actual, expected, options);
  Mismatch m;
  m.kind = Mismatch::Kind::Value;
  m.path = path;
  m.tolerance = tol;
  const int64_t n = expected.numel();
  m.total = n;
  int64_t worst = -1;
  double worst_abs = -1, sum_squares = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double a, e, abs_err, rel_err;
    bool bad = element_outside(actual, expected, i, floating, tol, options.equal_nan, a, e, abs_err,
                               rel_err);
    if (std::isfinite(abs_err)) {
      sum_squares += abs_err * abs_err;
      ++finite;
    }
    if (bad && alternate) {
      double a2, e2, abs2, rel2;
      bad = element_outside(actual, *alternate, i, floating, tol, options.equal_nan, a2, e2, abs2,
                            rel2);
    }
    if (abs_err > m.max_abs_error || std::isnan(abs_err)) m.max_abs_error = abs_err;
    if (rel_err > m.max_rel_error) m.max_rel_error = rel_err;
    if (bad) {
      ++m.mismatched;
      if (worst < 0 || abs_err > worst_abs) {
        worst = i;
        worst_abs = abs_err;
        m.worst_actual = a;
        m.worst_expected = e;
      }
    }
  }
  m.rms_error = finite ? std::sqrt(sum_squares / static_cast<double>(finite)) : 0;
  if (m.max_abs_error == INFINITY) m.rms_error = INFINITY;
  if (m.mismatched) {
    m.worst_index = unravel(worst, expected.sizes());
    std::ostringstream os;
    os << m.mismatched << " of " << m.total << " elements differ"
       << (alternate ? " from both references" : "") << " (max abs error " << num(m.max_abs_error)
       << ", max rel error " << num(m.max_rel_error) << "; worst at " << join_dims(m.worst_index)
       << ": " << num(m.worst_actual) << " vs expected " << num(m.worst_expected) << "; atol "
       << num(tol.atol) << ", rtol " << num(tol.rtol) << ")";
    m.message = os.str();
  }
  return m;
}

Verdict compare_tensors_either(const HostTensor &actual, const HostTensor &expected,
                               const HostTensor *alternate, const CompareOptions &options,
                               const std::string &path) {
  Verdict v = structure_of(actual, expected, options, path);
  if (!v.ok()) return v;
  if (alternate &&
      (alternate->sizes() != expected.sizes() || alternate->dtype() != expected.dtype()))
    alternate = nullptr;
  Mismatch m = value_errors(actual, expected, alternate, options, path);
  if (m.mismatched && alternate && options.either_rms_multiplier > 0 &&
      is_floating(actual, expected)) {
    // Judged as a whole against the alternate (float64) reference: no worse than expected's
    // own error there, times the multiplier (torch._dynamo's fp64_ref accuracy check).
    const double ours = value_errors(actual, *alternate, nullptr, options, path).rms_error;
    const double theirs = value_errors(expected, *alternate, nullptr, options, path).rms_error;
    if (ours <= options.either_rms_multiplier * theirs + m.tolerance.atol / 10) return v;
    std::ostringstream os;
    os << "; rms error against the float64 reference " << num(ours) << " > "
       << num(options.either_rms_multiplier) << " x ATen's " << num(theirs) << " + atol/10";
    m.message += os.str();
  }
  if (m.mismatched) v.mismatches.push_back(std::move(m));
  return v;
}

Verdict compare_values_either(const Value &actual, const Value &expected, const Value *alternate,
                              const CompareOptions &options, const std::string &path);

}  // namespace

Verdict compare_tensors(const HostTensor &actual, const HostTensor &expected,
                        const CompareOptions &options, const std::string &path) {
  return compare_tensors_either(actual, expected, nullptr, options, path);
}

Verdict compare_values(const Value &actual, const Value &expected, const CompareOptions &options,
                       const std::string &path) {
  return compare_values_either(actual, expected, nullptr, options, path);
}

Verdict compare_values_either(const Value &actual, const Value &expected, const Value &alternate,
                              const CompareOptions &options, const std::string &path) {
  return compare_values_either(actual, expected, &alternate, options, path);
}

static void collect_tensor_errors(const Value &actual, const Value &expected,
                                  const CompareOptions &options, const std::string &path,
                                  std::vector<Mismatch> &out) {
  if (actual.kind == Value::Kind::Tensor && expected.kind == Value::Kind::Tensor) {
    if (actual.tensor.sizes() == expected.tensor.sizes())
      out.push_back(value_errors(actual.tensor, expected.tensor, nullptr, options, path));
    return;
  }
  if (actual.kind == Value::Kind::List && expected.kind == Value::Kind::List)
    for (size_t i = 0; i < actual.list.size() && i < expected.list.size(); ++i)
      collect_tensor_errors(actual.list[i], expected.list[i], options,
                            path + "[" + std::to_string(i) + "]", out);
}

std::vector<Mismatch> tensor_errors(const Value &actual, const Value &expected,
                                    const CompareOptions &options, const std::string &path) {
  std::vector<Mismatch> out;
  collect_tensor_errors(actual, expected, options, path, out);
  return out;
}

namespace {

Verdict compare_values_either(const Value &actual, const Value &expected, const Value *alternate,
                              const CompareOptions &options, const std::string &path) {
  using K = Value::Kind;
  Verdict v;
  auto fail = [&](std::string msg) {
    v.mismatches.push_back(structural(Mismatch::Kind::Structure, path, std::move(msg)));
    return v;
  };
  // A number may come back as int or float (Scalar results): compare numerically.
  const bool a_num = actual.kind == K::Int || actual.kind == K::Double || actual.kind == K::Bool;
  const bool e_num =
      expected.kind == K::Int || expected.kind == K::Double || expected.kind == K::Bool;
  if (a_num && e_num && (actual.kind == K::Double || expected.kind == K::Double)) {
    auto as_double = [](const Value &x) {
      return x.kind == K::Double ? x.number
             : x.kind == K::Int  ? static_cast<double>(x.integer)
                                 : x.boolean;
    };
    const double a = as_double(actual), e = as_double(expected);
    const Tolerance tol = options.tolerance.value_or(default_tolerance(DType::Float64));
    auto close = [&](double x) {
      return (std::isnan(a) && std::isnan(x) && options.equal_nan) || a == x ||
             (std::isfinite(a) && std::isfinite(x) &&
              std::fabs(a - x) <= tol.atol + tol.rtol * std::fabs(x));
    };
    const bool alt_num = alternate && (alternate->kind == K::Int || alternate->kind == K::Double ||
                                       alternate->kind == K::Bool);
    if (!close(e) && !(alt_num && close(as_double(*alternate))))
      return fail("scalar " + num(a) + " != expected " + num(e));
    return v;
  }
  if (alternate && alternate->kind != expected.kind) alternate = nullptr;
  if (actual.kind != expected.kind)
    return fail(std::string(value_kind_name(actual.kind)) + " result where " +
                std::string(value_kind_name(expected.kind)) + " was expected");
  switch (expected.kind) {
    case K::None:
      break;
    case K::Bool:
      if (actual.boolean != expected.boolean)
        return fail(actual.summary() + " != expected " + expected.summary());
      break;
    case K::Int:
      if (actual.integer != expected.integer)
        return fail(actual.summary() + " != expected " + expected.summary());
      break;
    case K::Double:
      break;  // handled above
    case K::Complex:
      if (!(actual.number == expected.number && actual.imag == expected.imag))
        return fail(actual.summary() + " != expected " + expected.summary());
      break;
    case K::DType:
      if (actual.dtype != expected.dtype)
        return fail(actual.summary() + " != expected " + expected.summary());
      break;
    case K::String:
    case K::Layout:
    case K::MemoryFormat:
    case K::Device:
    case K::Opaque:
      if (actual.text != expected.text)
        return fail(actual.summary() + " != expected " + expected.summary());
      break;
    case K::Tensor:
      return compare_tensors_either(actual.tensor, expected.tensor,
                                    alternate ? &alternate->tensor : nullptr, options, path);
    case K::List:
      if (actual.list.size() != expected.list.size())
        return fail(std::to_string(actual.list.size()) + " items where " +
                    std::to_string(expected.list.size()) + " were expected");
      for (size_t i = 0; i < expected.list.size(); ++i) {
        const Value *alt = alternate && alternate->list.size() == expected.list.size()
                               ? &alternate->list[i]
                               : nullptr;
        Verdict sub = compare_values_either(actual.list[i], expected.list[i], alt, options,
                                            path + "[" + std::to_string(i) + "]");
        for (auto &m : sub.mismatches) v.mismatches.push_back(std::move(m));
      }
      break;
  }
  return v;
}

}  // namespace

Verdict verify_call(const Call &expected, const Value &actual_out,
                    const std::vector<std::pair<std::string, Value>> &actual_mutated,
                    const Corpus *corpus, CompareOptions options) {
  if (!options.tolerance && corpus)
    options.tolerance = call_compare_options(expected, corpus).tolerance;
  Verdict v;
  if (!expected.uninitialized) v = compare_values(actual_out, expected.out, options, "out");
  for (const auto &[name, value] : expected.mutated) {
    const Value *got = nullptr;
    for (const auto &[n, val] : actual_mutated)
      if (n == name) got = &val;
    if (!got) {
      v.mismatches.push_back(structural(Mismatch::Kind::Structure, "mutated " + name,
                                        "the call should have written argument '" + name + "'"));
      continue;
    }
    if (expected.uninitialized) continue;
    Verdict sub = compare_values(*got, value, options, "mutated " + name);
    for (auto &m : sub.mismatches) v.mismatches.push_back(std::move(m));
  }
  return v;
}

std::string Verdict::report() const {
  std::string s;
  for (const auto &m : mismatches) s += m.path + ": " + m.message + "\n";
  return s;
}

std::string Verdict::first_reason() const {
  return mismatches.empty() ? "" : mismatches.front().path + ": " + mismatches.front().message;
}

}  // namespace opforge::harness
