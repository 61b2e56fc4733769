//===- float64_reference.cpp - inputs upcast to float64, results rounded back (docs/verification.md)
//===//
#include <map>

#include "opforge/harness/verifier.h"

namespace opforge::harness {
namespace {

bool upcasts(DType t) { return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32; }

class Upcaster {
 public:
  bool any = false;

  Value operator()(const Value &v) {
    if (v.kind == Value::Kind::List) {
      Value out = v;
      for (auto &item : out.list) item = (*this)(item);
      return out;
    }
    if (v.kind != Value::Kind::Tensor || !upcasts(v.tensor.dtype())) return v;
    any = true;
    const HostTensor &t = v.tensor;
    // Convert the whole storage, so views keep their strides and offsets and tensors that
    // share storage (a view and its base, an in-place op's aliases) still share it.
    auto &storage = converted_[t.storage().get()];
    if (!storage) {
      const int64_t elems = static_cast<int64_t>(t.storage_bytes()) / t.element_size();
      HostTensor flat(t.dtype(), {elems}, {1}, 0, t.storage());
      storage = flat.to(DType::Float64).storage();
    }
    return Value::of_tensor(
        HostTensor(DType::Float64, t.sizes(), t.strides(), t.storage_offset(), storage));
  }

 private:
  std::map<const void *, std::shared_ptr<std::vector<uint8_t>>> converted_;
};

}  // namespace

Float64Inputs upcast_to_float64(const std::vector<Value> &args,
                                const std::vector<std::pair<std::string, Value>> &kwargs) {
  Upcaster up;
  Float64Inputs out;
  for (const auto &a : args) out.args.push_back(up(a));
  for (const auto &[k, v] : kwargs) out.kwargs.emplace_back(k, up(v));
  out.any_upcast = up.any;
  return out;
}

std::optional<Value> round_like(const Value &reference, const Value &like) {
  if (reference.kind != like.kind) return std::nullopt;
  if (like.kind == Value::Kind::Tensor) {
    if (reference.tensor.sizes() != like.tensor.sizes()) return std::nullopt;
    return Value::of_tensor(reference.tensor.to(like.tensor.dtype()));
  }
  if (like.kind == Value::Kind::List) {
    if (reference.list.size() != like.list.size()) return std::nullopt;
    std::vector<Value> items;
    for (size_t i = 0; i < like.list.size(); ++i) {
      auto item = round_like(reference.list[i], like.list[i]);
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
    }
    return Value::of_list(std::move(items));
  }
  return reference;
}

}  // namespace opforge::harness
