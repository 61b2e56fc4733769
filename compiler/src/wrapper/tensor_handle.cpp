//===- tensor_handle.cpp - TensorHandle metadata helpers -------------------===//
#include "opforge/compiler/executor.h"

namespace opforge::compiler {

int64_t TensorHandle::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

bool TensorHandle::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

int64_t TensorHandle::extent_bytes() const {
  if (numel() == 0) return 0;
  int64_t last = storage_offset;
  for (size_t i = 0; i < sizes.size(); ++i) last += (sizes[i] - 1) * strides[i];
  return (last + 1) * dtype_size(dtype);
}

std::string TensorHandle::to_string() const {
  auto list = [](const std::vector<int64_t> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  return "tensor(buffer=" + std::to_string(buffer) + ", " + std::string(dtype_name(dtype)) +
         ", sizes=" + list(sizes) + ", strides=" + list(strides) +
         ", offset=" + std::to_string(storage_offset) + ")";
}

}  // namespace opforge::compiler
