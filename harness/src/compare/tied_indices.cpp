// tied_indices.cpp - accept any valid choice of indices among equal values for sort-like ops.
#include "opforge/harness/verifier.h"

#include <cmath>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>

namespace opforge::harness {

namespace {

struct Rule {
  size_t dim_position;  // positional index of `dim`
  int64_t default_dim;  // when the call does not pass it
  bool distinct;        // indices of one row must be distinct (sort, topk)
  bool dim_kwarg_only;  // sort.stable: dim is keyword-only
};

std::optional<Rule> rule_for(const std::string &overload) {
  if (overload == "aten::sort") return Rule{1, -1, true, false};
  if (overload == "aten::sort.stable") return Rule{0, -1, true, true};
  if (overload == "aten::topk") return Rule{2, -1, true, false};
  if (overload == "aten::kthvalue") return Rule{2, -1, false, false};
  if (overload == "aten::median.dim" || overload == "aten::nanmedian.dim")
    return Rule{1, 0, false, false};
  if (overload == "aten::mode") return Rule{1, -1, false, false};
  return std::nullopt;
}

const Value *argument(const Call &call, size_t position, const char *name, bool kwarg_only) {
  for (const auto &[k, v] : call.kwargs)
    if (k == name) return &v;
  if (!kwarg_only && position < call.args.size()) return &call.args[position];
  return nullptr;
}

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

int64_t row_major(const std::vector<int64_t> &sizes, const std::vector<int64_t> &index) {
  int64_t linear = 0;
  for (size_t i = 0; i < sizes.size(); ++i) linear = linear * sizes[i] + index[i];
  return linear;
}

// Each index selects an input element equal to its value along `dim`; distinct
// within a row when asked.
bool indices_select_values(const HostTensor &input, int64_t dim, const HostTensor &values,
                           const HostTensor &indices, bool distinct) {
  std::vector<int64_t> in_sizes = input.sizes();
  if (in_sizes.empty()) in_sizes = {1};
  const int64_t rank = static_cast<int64_t>(in_sizes.size());
  if (dim < -rank || dim >= rank) return false;
  const size_t d = static_cast<size_t>((dim + rank) % rank);
  // The output's shape with the reduced dim kept (size k, or 1).
  std::vector<int64_t> out_sizes = values.sizes();
  if (out_sizes.size() + 1 == in_sizes.size())
    out_sizes.insert(out_sizes.begin() + static_cast<std::ptrdiff_t>(d), 1);
  if (out_sizes.size() != in_sizes.size() || values.sizes() != indices.sizes()) return false;
  for (size_t i = 0; i < in_sizes.size(); ++i)
    if (i != d && out_sizes[i] != in_sizes[i]) return false;
  std::vector<int64_t> pos(out_sizes.size(), 0);
  std::set<std::pair<int64_t, int64_t>> seen;  // (row, index)
  for (int64_t linear = 0; linear < values.numel(); ++linear) {
    int64_t rest = linear;
    for (size_t i = out_sizes.size(); i-- > 0;) {
      pos[i] = rest % out_sizes[i];
      rest /= out_sizes[i];
    }
    const int64_t idx = indices.get_int(linear);
    if (idx < 0 || idx >= in_sizes[d]) return false;
    std::vector<int64_t> in_pos = pos;
    in_pos[d] = idx;
    if (!same_value(input.get_double(row_major(in_sizes, in_pos)), values.get_double(linear)))
      return false;
    if (distinct) {
      std::vector<int64_t> row = pos;
      row[d] = 0;
      if (!seen.insert({row_major(out_sizes, row), idx}).second) return false;
    }
  }
  return true;
}

bool tensors_equal(const HostTensor &a, const HostTensor &b) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return false;
  for (int64_t i = 0; i < a.numel(); ++i)
    if (!same_value(a.get_double(i), b.get_double(i))) return false;
  return true;
}

}  // namespace

bool accept_tied_indices(const Call &call, Value &actual) {
  auto rule = rule_for(call.overload);
  if (!rule || call.args.empty() || call.args[0].kind != Value::Kind::Tensor) return false;
  if (call.overload == "aten::sort.stable") {
    const Value *stable = argument(call, 0, "stable", true);
    if (stable && stable->kind == Value::Kind::Bool && stable->boolean) return false;
  }
  const Value &expected = call.out;
  if (expected.kind != Value::Kind::List || expected.list.size() != 2 ||
      actual.kind != Value::Kind::List || actual.list.size() != 2)
    return false;
  for (const Value *v : std::initializer_list<const Value *>{&expected.list[0], &expected.list[1],
                                                             &actual.list[0], &actual.list[1]})
    if (v->kind != Value::Kind::Tensor) return false;
  int64_t dim = rule->default_dim;
  if (const Value *d = argument(call, rule->dim_position, "dim", rule->dim_kwarg_only))
    if (d->kind == Value::Kind::Int) dim = d->integer;
  const HostTensor &values = actual.list[0].tensor;
  const HostTensor &indices = actual.list[1].tensor;
  if (!tensors_equal(values, expected.list[0].tensor)) return false;
  if (indices.sizes() != expected.list[1].tensor.sizes() ||
      indices.dtype() != expected.list[1].tensor.dtype())
    return false;
  if (!indices_select_values(call.args[0].tensor, dim, values, indices, rule->distinct))
    return false;
  actual.list[1] = expected.list[1];
  return true;
}

}  // namespace opforge::harness
