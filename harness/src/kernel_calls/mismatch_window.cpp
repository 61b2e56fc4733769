// mismatch_window.cpp - small windows of the operands and results around a mismatch's worst
// index, so that feedback shows the data and not only the figures.
#include "mismatch_window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace opforge::harness {

namespace {

constexpr int64_t kSpan = 5;        // elements per dimension
constexpr size_t kMaxOperands = 4;  // argument windows

// `digits` significant digits for floating values.
std::string number_text(double v, DType dtype, int digits = 6) {
  if (dtype == DType::Bool) return v != 0 ? "True" : "False";
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  if (!dtype_is_float(dtype) && std::fabs(v) < 9.2e18)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// The window's first index and length in one dimension of `size`, around `at`.
std::pair<int64_t, int64_t> span_around(int64_t at, int64_t size) {
  int64_t n = std::min(kSpan, size);
  int64_t start = std::clamp<int64_t>(at - kSpan / 2, 0, size - n);
  return {start, n};
}

// `t`'s elements around `at` (one index per dimension of t): the last two dimensions span a
// window, the others stay at `at`. `digits`: significant digits of floating values.
generator::MismatchFacts::Window window_of(const std::string &name, const HostTensor &t,
                                           const std::vector<int64_t> &at, int digits = 6) {
  generator::MismatchFacts::Window w;
  w.name = name;
  const auto &sizes = t.sizes();
  w.type = Value::of_tensor(t).summary();  // "bf16[10, 5]"
  if (t.numel() == 0) {
    w.values = "(no elements)";
    return w;
  }
  if (sizes.empty()) {
    w.type += " (0-d)";
    w.values = number_text(t.get_double(0), t.dtype(), digits);
    return w;
  }
  const size_t rank = sizes.size();
  std::vector<std::pair<int64_t, int64_t>> span(rank);
  for (size_t d = 0; d < rank; ++d)
    span[d] = d + 2 >= rank ? span_around(at[d], sizes[d]) : std::pair<int64_t, int64_t>{at[d], 1};
  w.region = "[";
  for (size_t d = 0; d < rank; ++d) {
    w.region += d ? ", " : "";
    w.region +=
        span[d].second == 1 && d + 2 < rank
            ? std::to_string(span[d].first)
            : std::to_string(span[d].first) + ":" + std::to_string(span[d].first + span[d].second);
  }
  w.region += "]";
  auto linear = [&](const std::vector<int64_t> &idx) {
    int64_t l = 0;
    for (size_t d = 0; d < rank; ++d) l = l * sizes[d] + idx[d];
    return l;
  };
  std::vector<int64_t> idx(rank);
  for (size_t d = 0; d < rank; ++d) idx[d] = span[d].first;
  const size_t row_dim = rank >= 2 ? rank - 2 : rank - 1;
  const int64_t rows = rank >= 2 ? span[row_dim].second : 1;
  for (int64_t r = 0; r < rows; ++r) {
    if (rank >= 2) idx[row_dim] = span[row_dim].first + r;
    std::string line = "[";
    for (int64_t c = 0; c < span[rank - 1].second; ++c) {
      idx[rank - 1] = span[rank - 1].first + c;
      line += (c ? ", " : "") + number_text(t.get_double(linear(idx)), t.dtype(), digits);
    }
    w.values += (r ? "\n" : "") + line + "]";
  }
  return w;
}

// The index of an operand of shape `sizes` that the output element `out_index` reads under
// broadcasting (trailing dimensions aligned; size-1 dimensions read index 0); dimensions
// that do not broadcast (a reduction's) are clamped into range.
std::vector<int64_t> broadcast_back(const std::vector<int64_t> &sizes,
                                    const std::vector<int64_t> &out_index) {
  std::vector<int64_t> at(sizes.size(), 0);
  const auto offset = static_cast<int64_t>(out_index.size()) - static_cast<int64_t>(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t e = static_cast<int64_t>(d) + offset;
    if (e < 0 || sizes[d] <= 1) continue;
    at[d] = std::clamp<int64_t>(out_index[static_cast<size_t>(e)], 0, sizes[d] - 1);
  }
  return at;
}

// The value `path` names in an output (`out`, `out[i]`...) or among mutated arguments.
const Value *at_path(const std::string &path, const Value &out,
                     const std::vector<std::pair<std::string, Value>> &mutated) {
  const std::string m = "mutated ";
  if (path.rfind(m, 0) == 0) {
    for (const auto &[name, v] : mutated)
      if (name == path.substr(m.size())) return &v;
    return nullptr;
  }
  if (path.rfind("out", 0) != 0) return nullptr;
  const Value *v = &out;
  size_t i = 3;
  while (i < path.size() && path[i] == '[') {
    size_t close = path.find(']', i);
    if (close == std::string::npos || v->kind != Value::Kind::List) return nullptr;
    size_t k = std::stoul(path.substr(i + 1, close - i - 1));
    if (k >= v->list.size()) return nullptr;
    v = &v->list[k];
    i = close + 1;
  }
  return i == path.size() ? v : nullptr;
}

void add_operand(const std::string &name, const Value &v, const std::vector<int64_t> &worst,
                 std::vector<generator::MismatchFacts::Window> &out) {
  if (out.size() >= kMaxOperands) return;
  if (v.kind == Value::Kind::Tensor) {
    out.push_back(window_of(name, v.tensor, broadcast_back(v.tensor.sizes(), worst)));
  } else if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Double ||
             v.kind == Value::Kind::Bool) {
    generator::MismatchFacts::Window w;
    w.name = name;
    w.type = v.kind == Value::Kind::Double ? "float" : v.kind == Value::Kind::Int ? "int" : "bool";
    w.values = v.summary();
    out.push_back(std::move(w));
  }
}

}  // namespace

void add_mismatch_windows(const Call &call, const CallOutcome &outcome,
                          const std::vector<std::string> &schema_names,
                          generator::MismatchFacts &facts) {
  const Value *expected = at_path(facts.path, call.out, call.mutated);
  const Value *actual = at_path(facts.path, outcome.out, outcome.mutated);
  if (!expected || !actual || !expected->is_tensor() || !actual->is_tensor()) return;
  const auto &sizes = expected->tensor.sizes();
  std::vector<int64_t> worst = facts.worst_index;
  if (worst.size() != sizes.size()) worst.assign(sizes.size(), 0);
  for (size_t i = 0; i < call.args.size(); ++i)
    add_operand(i < schema_names.size() ? schema_names[i] : "#" + std::to_string(i), call.args[i],
                worst, facts.operands);
  for (const auto &[name, v] : call.kwargs) add_operand(name, v, worst, facts.operands);
  // float32/float64 results differ within a few ulps: enough digits to see where.
  const DType dt = expected->tensor.dtype();
  const int digits = dt == DType::Float32 ? 9 : dt == DType::Float64 ? 12 : 6;
  facts.results.push_back(window_of("expected " + facts.path, expected->tensor, worst, digits));
  if (actual->tensor.sizes() == sizes)
    facts.results.push_back(window_of("actual " + facts.path, actual->tensor, worst, digits));
}

}  // namespace opforge::harness
