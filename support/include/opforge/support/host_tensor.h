//===- host_tensor.h - strided tensor with an owning byte buffer ----------===//
//
// HostTensor is the host-side tensor every part exchanges: dtype, sizes,
// strides (in elements), storage offset (in elements) and a shared byte
// buffer (the storage). Views share storage; contiguous() copies.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "opforge/support/dtype.h"

namespace opforge {

class HostTensor {
 public:
  HostTensor() = default;
  // A new contiguous tensor, zero-filled.
  HostTensor(DType dtype, std::vector<int64_t> sizes);
  // A view over existing storage (bytes); validates that every element is in bounds.
  HostTensor(DType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
             int64_t storage_offset, std::shared_ptr<std::vector<uint8_t>> storage);

  static std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &sizes);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &sizes() const { return sizes_; }
  const std::vector<int64_t> &strides() const { return strides_; }
  int64_t storage_offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const;
  bool is_contiguous() const;
  int element_size() const { return dtype_size(dtype_); }

  uint8_t *storage_data() { return storage_ ? storage_->data() : nullptr; }
  const uint8_t *storage_data() const { return storage_ ? storage_->data() : nullptr; }
  size_t storage_bytes() const { return storage_ ? storage_->size() : 0; }
  const std::shared_ptr<std::vector<uint8_t>> &storage() const { return storage_; }

  // Element offset (in elements, from storage start) of a multi-index.
  int64_t element_offset(const std::vector<int64_t> &index) const;
  // Element offset of the i-th element in row-major (logical) order.
  int64_t linear_to_offset(int64_t linear) const;

  // Read/write any element as double / int64 (converted from/to dtype).
  double get_double(int64_t linear) const;
  int64_t get_int(int64_t linear) const;
  void set_double(int64_t linear, double v);
  void set_int(int64_t linear, int64_t v);
  // Raw element bytes at a storage element offset.
  const uint8_t *element_ptr(int64_t elem_offset) const;
  uint8_t *element_ptr(int64_t elem_offset);

  // A contiguous copy (new storage), same dtype.
  HostTensor contiguous() const;
  // A contiguous copy converted to another dtype.
  HostTensor to(DType dtype) const;

  // Same dtype, sizes and element values (bitwise for floats, NaN==NaN by bits).
  bool equals(const HostTensor &other) const;
  // "tensor([[1, 2], [3, 4]], dtype=int32)" - small tensors printed fully,
  // large ones summarised.
  std::string to_string(int64_t max_elements = 64) const;

 private:
  DType dtype_ = DType::Float32;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> strides_;
  int64_t offset_ = 0;
  std::shared_ptr<std::vector<uint8_t>> storage_;
};

}  // namespace opforge
