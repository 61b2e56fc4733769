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

Verdict compare_tensors(const HostTensor &actual, const HostTensor &expected,
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
  // Compare in the less precise of the two dtypes' tolerances (assert_close uses the expected's).
  const bool floating = dtype_is_float(expected.dtype()) || dtype_is_float(actual.dtype());
  Tolerance tol =
      default_tolerance(dtype_is_float(expected.dtype()) ? expected.dtype() : actual.dtype());
  if (floating && options.tolerance) tol = *options.tolerance;
  Mismatch m;
  m.kind = Mismatch::Kind::Value;
  m.path = path;
  m.tolerance = tol;
  const int64_t n = expected.numel();
  m.total = n;
  int64_t worst = -1;
  double worst_abs = -1;
  for (int64_t i = 0; i < n; ++i) {
    bool bad;
    double a, e, abs_err, rel_err;
    if (!floating) {
      const int64_t ai = actual.get_int(i), ei = expected.get_int(i);
      bad = ai != ei;
      a = static_cast<double>(ai);
      e = static_cast<double>(ei);
      abs_err = std::fabs(a - e);
      rel_err = ei == 0 ? (bad ? INFINITY : 0) : abs_err / std::fabs(e);
    } else {
      a = actual.get_double(i);
      e = expected.get_double(i);
      if (std::isnan(a) || std::isnan(e)) {
        bad = !(options.equal_nan && std::isnan(a) && std::isnan(e));
        abs_err = rel_err = bad ? INFINITY : 0;
      } else if (std::isinf(a) || std::isinf(e)) {
        bad = a != e;
        abs_err = rel_err = bad ? INFINITY : 0;
      } else {
        abs_err = std::fabs(a - e);
        rel_err = e == 0 ? (abs_err == 0 ? 0 : INFINITY) : abs_err / std::fabs(e);
        bad = abs_err > tol.atol + tol.rtol * std::fabs(e);
      }
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
  if (m.mismatched) {
    m.worst_index = unravel(worst, expected.sizes());
    std::ostringstream os;
    os << m.mismatched << " of " << m.total << " elements differ (max abs error "
       << num(m.max_abs_error) << ", max rel error " << num(m.max_rel_error) << "; worst at "
       << join_dims(m.worst_index) << ": " << num(m.worst_actual) << " vs expected "
       << num(m.worst_expected) << "; atol " << num(tol.atol) << ", rtol " << num(tol.rtol) << ")";
    m.message = os.str();
    v.mismatches.push_back(std::move(m));
  }
  return v;
}

Verdict compare_values(const Value &actual, const Value &expected, const CompareOptions &options,
                       const std::string &path) {
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
    const bool same = (std::isnan(a) && std::isnan(e) && options.equal_nan) || a == e ||
                      (std::isfinite(a) && std::isfinite(e) &&
                       std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e));
    if (!same) return fail("scalar " + num(a) + " != expected " + num(e));
    return v;
  }
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
      return compare_tensors(actual.tensor, expected.tensor, options, path);
    case K::List:
      if (actual.list.size() != expected.list.size())
        return fail(std::to_string(actual.list.size()) + " items where " +
                    std::to_string(expected.list.size()) + " were expected");
      for (size_t i = 0; i < expected.list.size(); ++i) {
        Verdict sub = compare_values(actual.list[i], expected.list[i], options,
                                     path + "[" + std::to_string(i) + "]");
        for (auto &m : sub.mismatches) v.mismatches.push_back(std::move(m));
      }
      break;
  }
  return v;
}

Verdict verify_call(const Call &expected, const Value &actual_out,
                    const std::vector<std::pair<std::string, Value>> &actual_mutated,
                    const Corpus *corpus, CompareOptions options) {
  if (!options.tolerance && corpus)
    options.tolerance = corpus->tolerance(expected.opinfo, expected.dtype);
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
