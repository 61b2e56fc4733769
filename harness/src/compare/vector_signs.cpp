//===- vector_signs.cpp - eigen- and singular vectors are accepted up to each vector's sign
//----===//
#include "opforge/harness/verifier.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace opforge::harness {

namespace {

bool batched_matrix(const Value &v) {
  return v.kind == Value::Kind::Tensor && v.tensor.dim() >= 2 && dtype_is_float(v.tensor.dtype());
}

// Element (b, r, c) of a contiguous batch of matrices.
int64_t at(const HostTensor &t, int64_t b, int64_t r, int64_t c) {
  const int64_t rows = t.sizes()[t.dim() - 2], cols = t.sizes()[t.dim() - 1];
  return (b * rows + r) * cols + c;
}

int64_t vector_length(const HostTensor &t, bool columns) {
  return t.sizes()[t.dim() - (columns ? 2 : 1)];
}

int64_t vector_count(const HostTensor &t, bool columns) {
  return t.sizes()[t.dim() - (columns ? 1 : 2)];
}

double element(const HostTensor &t, bool columns, int64_t b, int64_t v, int64_t i) {
  return columns ? t.get_double(at(t, b, i, v)) : t.get_double(at(t, b, v, i));
}

void negate(HostTensor &t, bool columns, int64_t b, int64_t v) {
  for (int64_t i = 0; i < vector_length(t, columns); ++i) {
    const int64_t k = columns ? at(t, b, i, v) : at(t, b, v, i);
    t.set_double(k, -t.get_double(k));
  }
}

// Every matrix's vectors are orthonormal (to float32 rounding).
bool orthonormal(const HostTensor &t, bool columns, int64_t batch) {
  const int64_t count = vector_count(t, columns), length = vector_length(t, columns);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t v = 0; v < count; ++v)
      for (int64_t w = v; w < count; ++w) {
        double dot = 0;
        for (int64_t i = 0; i < length; ++i)
          dot += element(t, columns, b, v, i) * element(t, columns, b, w, i);
        if (std::fabs(dot - (v == w ? 1.0 : 0.0)) > 1e-4) return false;
      }
  return true;
}

}  // namespace

bool accept_vector_signs(const Call &call, Value &actual) {
  // (output index, columns?) of the vectors whose signs go together
  std::vector<std::pair<size_t, bool>> parts;
  if (call.overload == "aten::_linalg_eigh")
    parts = {{1, true}};
  else if (call.overload == "aten::_linalg_svd")
    parts = {{0, true}, {2, false}};
  else
    return false;
  const Value &expected = call.out;
  if (expected.kind != Value::Kind::List || actual.kind != Value::Kind::List ||
      expected.list.size() != actual.list.size())
    return false;
  int64_t count = -1, batch = -1;
  for (const auto &[index, columns] : parts) {
    if (index >= expected.list.size()) return false;
    const Value &e = expected.list[index], &a = actual.list[index];
    if (!batched_matrix(e) || !batched_matrix(a) || e.tensor.sizes() != a.tensor.sizes())
      return false;
    const int64_t n = vector_count(e.tensor, columns);
    count = count < 0 ? n : std::min(count, n);
    const int64_t elems = e.tensor.numel(),
                  per = e.tensor.sizes()[e.tensor.dim() - 2] * e.tensor.sizes()[e.tensor.dim() - 1];
    const int64_t b = per ? elems / per : 0;
    if (batch >= 0 && b != batch) return false;
    batch = b;
  }
  std::vector<HostTensor> exp_parts, act_parts;
  for (const auto &[index, columns] : parts) {
    exp_parts.push_back(expected.list[index].tensor.contiguous());
    act_parts.push_back(actual.list[index].tensor.contiguous());
  }
  bool flipped = false;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t v = 0; v < count; ++v) {
      double dot = 0;
      for (size_t p = 0; p < parts.size(); ++p) {
        const bool columns = parts[p].second;
        for (int64_t i = 0; i < vector_length(exp_parts[p], columns); ++i)
          dot += element(exp_parts[p], columns, b, v, i) * element(act_parts[p], columns, b, v, i);
      }
      if (dot >= 0) continue;
      for (size_t p = 0; p < parts.size(); ++p) negate(act_parts[p], parts[p].second, b, v);
      flipped = true;
    }
  // A full SVD of a non-square matrix: U's columns (Vh's rows) past min(m, n) span the
  // orthogonal complement in any orthonormal basis; an orthonormal actual basis takes the
  // recorded one.
  bool completed = false;
  for (size_t p = 0; p < parts.size(); ++p) {
    const bool columns = parts[p].second;
    const int64_t total = vector_count(act_parts[p], columns);
    if (total <= count || !orthonormal(act_parts[p], columns, batch)) continue;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t v = count; v < total; ++v)
        for (int64_t i = 0; i < vector_length(act_parts[p], columns); ++i) {
          const int64_t k = columns ? at(act_parts[p], b, i, v) : at(act_parts[p], b, v, i);
          act_parts[p].set_double(k, exp_parts[p].get_double(k));
        }
    completed = true;
  }
  if (!flipped && !completed) return false;
  for (size_t p = 0; p < parts.size(); ++p)
    actual.list[parts[p].first] = Value::of_tensor(std::move(act_parts[p]));
  return true;
}

}  // namespace opforge::harness
