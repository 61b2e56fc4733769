//===- aten_runtime.cpp - view and metadata ATen ops as TensorHandle arithmetic ===//
#include "opforge/harness/aten_runtime.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "opforge/support/error.h"

using opforge::compiler::TensorHandle;
using opforge::compiler::WrapperValue;

namespace opforge::harness {
namespace {

using Args = std::vector<WrapperValue>;
using Kwargs = std::vector<std::pair<std::string, WrapperValue>>;

struct Call {
  const std::string &overload;
  const Args &args;
  const Kwargs &kwargs;

  [[noreturn]] void fail(const std::string &what) const { throw Error(overload + ": " + what); }
  const WrapperValue *arg(size_t i, const std::string &name) const {
    if (i < args.size()) return &args[i];
    for (const auto &[k, v] : kwargs)
      if (k == name) return &v;
    return nullptr;
  }
  const TensorHandle &tensor(size_t i, const std::string &name) const {
    const auto *v = arg(i, name);
    if (!v || v->kind != WrapperValue::Kind::Tensor)
      fail("argument '" + name + "' must be a tensor");
    return v->tensor;
  }
  int64_t integer(size_t i, const std::string &name, std::optional<int64_t> dflt = {}) const {
    const auto *v = arg(i, name);
    if (!v || v->kind == WrapperValue::Kind::None) {
      if (dflt) return *dflt;
      fail("argument '" + name + "' is missing");
    }
    if (v->kind != WrapperValue::Kind::Int && v->kind != WrapperValue::Kind::Bool)
      fail("argument '" + name + "' must be an int");
    return v->int_value;
  }
  std::vector<int64_t> ints(size_t i, const std::string &name) const {
    const auto *v = arg(i, name);
    if (!v) fail("argument '" + name + "' is missing");
    if (v->kind == WrapperValue::Kind::Int) return {v->int_value};
    if (v->kind != WrapperValue::Kind::List && v->kind != WrapperValue::Kind::Tuple)
      fail("argument '" + name + "' must be a list of ints");
    std::vector<int64_t> out;
    for (const auto &item : v->items) {
      if (item.kind != WrapperValue::Kind::Int)
        fail("argument '" + name + "' must be a list of ints");
      out.push_back(item.int_value);
    }
    return out;
  }
};

int64_t wrap_dim(const Call &c, int64_t dim, int64_t ndim) {
  int64_t rank = std::max<int64_t>(ndim, 1);
  if (dim < -rank || dim >= rank)
    c.fail("dimension " + std::to_string(dim) + " out of range for a " + std::to_string(ndim) +
           "-d tensor");
  return dim < 0 ? dim + rank : dim;
}

TensorHandle view_sizes(const Call &c, const TensorHandle &t, std::vector<int64_t> sizes) {
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (infer >= 0) c.fail("only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      known *= sizes[i];
    }
  }
  if (infer >= 0) sizes[infer] = known == 0 ? 0 : t.numel() / known;
  int64_t n = 1;
  for (auto s : sizes) n *= s;
  if (n != t.numel()) c.fail("shape is invalid for input of size " + std::to_string(t.numel()));
  TensorHandle out = t;
  out.sizes = sizes;
  out.strides.assign(sizes.size(), 1);
  if (t.dim() == 0 || n == 0) {  // contiguous strides
    for (int64_t i = static_cast<int64_t>(sizes.size()) - 2; i >= 0; --i)
      out.strides[i] = out.strides[i + 1] * std::max<int64_t>(sizes[i + 1], 1);
    return out;
  }
  // ATen's computeStride: split the old shape into contiguous chunks and map
  // the new sizes onto them; a new dimension straddling two chunks cannot view.
  int64_t view_d = static_cast<int64_t>(sizes.size()) - 1;
  int64_t chunk_base_stride = t.strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    tensor_numel *= t.sizes[d];
    if (d == 0 || (t.sizes[d - 1] != 1 && t.strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
        out.strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel)
        c.fail("view size is not compatible with input tensor's size and stride (use reshape)");
      if (d > 0) {
        chunk_base_stride = t.strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1)
    c.fail("view size is not compatible with input tensor's size and stride (use reshape)");
  return out;
}

TensorHandle run(const Call &c) {
  const std::string &op = c.overload;
  TensorHandle t = c.tensor(0, "self");
  const int64_t ndim = t.dim();
  if (op == "aten::alias" || op == "aten::detach" || op == "aten::lift_fresh") return t;
  if (op == "aten::view" || op == "aten::_unsafe_view") return view_sizes(c, t, c.ints(1, "size"));
  if (op == "aten::_reshape_alias" || op == "aten::as_strided") {
    TensorHandle out = t;
    out.sizes = c.ints(1, "size");
    out.strides = c.ints(2, "stride");
    if (out.sizes.size() != out.strides.size()) c.fail("size and stride differ in length");
    if (op == "aten::as_strided")
      out.storage_offset = c.integer(3, "storage_offset", t.storage_offset);
    return out;
  }
  if (op == "aten::expand") {
    auto sizes = c.ints(1, "size");
    if (sizes.size() < t.sizes.size())
      c.fail("the number of sizes must be at least the tensor's dimensions");
    TensorHandle out = t;
    out.sizes = sizes;
    out.strides.assign(sizes.size(), 0);
    size_t lead = sizes.size() - t.sizes.size();
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (i < lead) {
        if (sizes[i] < 0) c.fail("-1 is not allowed in a new leading dimension");
        continue;
      }
      int64_t s = t.sizes[i - lead];
      if (sizes[i] == -1) out.sizes[i] = s;
      if (out.sizes[i] == s)
        out.strides[i] = t.strides[i - lead];
      else if (s != 1)
        c.fail("expanded size must match the existing size at non-singleton dimension");
    }
    return out;
  }
  if (op == "aten::t" || op == "aten::transpose.int") {
    if (op == "aten::t" && ndim > 2) c.fail("t() expects a tensor with <= 2 dimensions");
    if (ndim < 2 && op == "aten::t") return t;
    int64_t d0 = op == "aten::t" ? 0 : wrap_dim(c, c.integer(1, "dim0"), ndim);
    int64_t d1 = op == "aten::t" ? 1 : wrap_dim(c, c.integer(2, "dim1"), ndim);
    if (ndim == 0) return t;
    std::swap(t.sizes[d0], t.sizes[d1]);
    std::swap(t.strides[d0], t.strides[d1]);
    return t;
  }
  if (op == "aten::permute") {
    auto dims = c.ints(1, "dims");
    if (static_cast<int64_t>(dims.size()) != ndim) c.fail("number of dims does not match");
    TensorHandle out = t;
    for (int64_t i = 0; i < ndim; ++i) {
      int64_t d = wrap_dim(c, dims[i], ndim);
      out.sizes[i] = t.sizes[d];
      out.strides[i] = t.strides[d];
    }
    return out;
  }
  if (op == "aten::unsqueeze") {
    int64_t d = wrap_dim(c, c.integer(1, "dim"), ndim + 1);
    int64_t stride = d < ndim ? t.sizes[d] * t.strides[d] : 1;
    t.sizes.insert(t.sizes.begin() + d, 1);
    t.strides.insert(t.strides.begin() + d, stride);
    return t;
  }
  if (op == "aten::squeeze" || op == "aten::squeeze.dim") {
    TensorHandle out = t;
    out.sizes.clear();
    out.strides.clear();
    int64_t only = op == "aten::squeeze.dim" ? wrap_dim(c, c.integer(1, "dim"), ndim) : -1;
    for (int64_t i = 0; i < ndim; ++i) {
      if (t.sizes[i] == 1 && (only < 0 || only == i)) continue;
      out.sizes.push_back(t.sizes[i]);
      out.strides.push_back(t.strides[i]);
    }
    return out;
  }
  if (op == "aten::select.int") {
    if (ndim == 0) c.fail("select() cannot be applied to a 0-dim tensor");
    int64_t d = wrap_dim(c, c.integer(1, "dim"), ndim);
    int64_t index = c.integer(2, "index");
    if (index < -t.sizes[d] || index >= t.sizes[d])
      c.fail("index " + std::to_string(index) + " out of range");
    if (index < 0) index += t.sizes[d];
    t.storage_offset += index * t.strides[d];
    t.sizes.erase(t.sizes.begin() + d);
    t.strides.erase(t.strides.begin() + d);
    return t;
  }
  if (op == "aten::slice.Tensor") {
    if (ndim == 0) c.fail("slice() cannot be applied to a 0-dim tensor");
    int64_t d = wrap_dim(c, c.integer(1, "dim", 0), ndim);
    const int64_t size = t.sizes[d];
    int64_t start = c.integer(2, "start", 0);
    int64_t end = c.integer(3, "end", INT64_MAX);
    int64_t step = c.integer(4, "step", 1);
    if (step <= 0) c.fail("slice step must be positive");
    if (start < 0) start += size;
    if (end < 0) end += size;
    start = std::clamp<int64_t>(start, 0, size);
    end = std::clamp<int64_t>(end, start, size);
    t.storage_offset += start * t.strides[d];
    t.sizes[d] = (end - start + step - 1) / step;
    t.strides[d] *= step;
    return t;
  }
  c.fail("not a view op the runtime implements");
}

}  // namespace

const std::vector<std::string> &view_ops() {
  static const std::vector<std::string> ops = {
      "aten::alias",         "aten::detach",       "aten::lift_fresh",
      "aten::view",          "aten::_unsafe_view", "aten::_reshape_alias",
      "aten::as_strided",    "aten::expand",       "aten::t",
      "aten::transpose.int", "aten::permute",      "aten::unsqueeze",
      "aten::squeeze",       "aten::squeeze.dim",  "aten::select.int",
      "aten::slice.Tensor"};
  return ops;
}

bool is_view_op(const std::string &overload) {
  const auto &ops = view_ops();
  return std::find(ops.begin(), ops.end(), overload) != ops.end();
}

WrapperValue run_view_op(const std::string &overload, const std::vector<WrapperValue> &args,
                         const std::vector<std::pair<std::string, WrapperValue>> &kwargs) {
  Call c{overload, args, kwargs};
  return WrapperValue::of(run(c));
}

}  // namespace opforge::harness
