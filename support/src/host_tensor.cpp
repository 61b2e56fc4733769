//===- host_tensor.cpp - strided host tensor -------------------------------===//
#include "opforge/support/host_tensor.h"

#include <cmath>
#include <cstring>
#include <cstdint>
#include <functional>
#include <new>
#include <stdexcept>
#include <sstream>

#include "opforge/support/error.h"

namespace opforge {

namespace {
std::string shape_string(const std::vector<int64_t> &sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}
}  // namespace

std::vector<int64_t> HostTensor::contiguous_strides(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> st(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    st[i] = s;
    s *= sizes[i] > 0 ? sizes[i] : 1;
  }
  return st;
}

HostTensor::HostTensor(DType dtype, std::vector<int64_t> sizes)
    : dtype_(dtype), sizes_(std::move(sizes)) {
  for (int64_t s : sizes_)
    if (s < 0) throw Error("negative tensor size " + std::to_string(s));
  strides_ = contiguous_strides(sizes_);
  // The product of the sizes, refusing one that overflows (numel() would wrap).
  uint64_t bytes = static_cast<uint64_t>(dtype_size(dtype_));
  for (int64_t s : sizes_)
    if (s != 0 && bytes > UINT64_MAX / static_cast<uint64_t>(s))
      throw Error("host tensor of shape " + shape_string(sizes_) + " is larger than 2^64 bytes");
    else
      bytes *= static_cast<uint64_t>(s);
  try {
    storage_ = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(bytes), 0);
  } catch (const std::bad_alloc &) {
    throw Error("out of memory allocating a " + std::string(dtype_name(dtype_)) +
                " host tensor of shape " + shape_string(sizes_) + " (" + std::to_string(bytes) +
                " bytes)");
  } catch (const std::length_error &) {
    throw Error("host tensor of shape " + shape_string(sizes_) + " is too large (" +
                std::to_string(bytes) + " bytes)");
  }
}

HostTensor::HostTensor(DType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                       int64_t storage_offset, std::shared_ptr<std::vector<uint8_t>> storage)
    : dtype_(dtype),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      offset_(storage_offset),
      storage_(std::move(storage)) {
  if (sizes_.size() != strides_.size())
    throw Error("tensor view: " + std::to_string(sizes_.size()) + " sizes but " +
                std::to_string(strides_.size()) + " strides");
  if (offset_ < 0) throw Error("tensor view: negative storage offset");
  if (!storage_) storage_ = std::make_shared<std::vector<uint8_t>>();
  if (numel() == 0) return;
  int64_t lo = offset_, hi = offset_;
  for (size_t i = 0; i < sizes_.size(); ++i) {
    if (sizes_[i] < 0) throw Error("tensor view: negative size");
    int64_t ext = (sizes_[i] - 1) * strides_[i];
    if (ext < 0)
      lo += ext;
    else
      hi += ext;
  }
  int64_t elems = static_cast<int64_t>(storage_->size()) / dtype_size(dtype_);
  if (lo < 0 || hi >= elems)
    throw Error("tensor view out of bounds of its storage (elements " + std::to_string(lo) + ".." +
                std::to_string(hi) + ", storage has " + std::to_string(elems) + ")");
}

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes_) n *= s;
  return n;
}

bool HostTensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes_.size(); i-- > 0;) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= sizes_[i];
  }
  return true;
}

int64_t HostTensor::element_offset(const std::vector<int64_t> &index) const {
  if (index.size() != sizes_.size())
    throw Error("index has " + std::to_string(index.size()) + " dims, tensor has " +
                std::to_string(sizes_.size()));
  int64_t off = offset_;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= sizes_[i])
      throw Error("index " + std::to_string(index[i]) + " out of range for dim " +
                  std::to_string(i) + " of size " + std::to_string(sizes_[i]));
    off += index[i] * strides_[i];
  }
  return off;
}

int64_t HostTensor::linear_to_offset(int64_t linear) const {
  int64_t off = offset_;
  for (size_t i = sizes_.size(); i-- > 0;) {
    int64_t s = sizes_[i];
    off += (linear % s) * strides_[i];
    linear /= s;
  }
  return off;
}

const uint8_t *HostTensor::element_ptr(int64_t e) const {
  return storage_->data() + e * dtype_size(dtype_);
}
uint8_t *HostTensor::element_ptr(int64_t e) { return storage_->data() + e * dtype_size(dtype_); }

namespace {
template <typename T>
T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}
}  // namespace

double HostTensor::get_double(int64_t linear) const {
  const uint8_t *p = element_ptr(linear_to_offset(linear));
  switch (dtype_) {
    case DType::Bool:
      return load<uint8_t>(p) ? 1.0 : 0.0;
    case DType::UInt8:
      return load<uint8_t>(p);
    case DType::Int8:
      return load<int8_t>(p);
    case DType::Int16:
      return load<int16_t>(p);
    case DType::Int32:
      return load<int32_t>(p);
    case DType::Int64:
      return static_cast<double>(load<int64_t>(p));
    case DType::Float16:
      return fp16_to_fp32(load<uint16_t>(p));
    case DType::BFloat16:
      return bf16_to_fp32(load<uint16_t>(p));
    case DType::Float32:
      return load<float>(p);
    case DType::Float64:
      return load<double>(p);
  }
  return 0;
}

int64_t HostTensor::get_int(int64_t linear) const {
  const uint8_t *p = element_ptr(linear_to_offset(linear));
  switch (dtype_) {
    case DType::Bool:
      return load<uint8_t>(p) ? 1 : 0;
    case DType::UInt8:
      return load<uint8_t>(p);
    case DType::Int8:
      return load<int8_t>(p);
    case DType::Int16:
      return load<int16_t>(p);
    case DType::Int32:
      return load<int32_t>(p);
    case DType::Int64:
      return load<int64_t>(p);
    default:
      return static_cast<int64_t>(get_double(linear));
  }
}

void HostTensor::set_double(int64_t linear, double v) {
  uint8_t *p = element_ptr(linear_to_offset(linear));
  switch (dtype_) {
    case DType::Bool:
      store<uint8_t>(p, v != 0.0);
      break;
    case DType::UInt8:
      store<uint8_t>(p, static_cast<uint8_t>(static_cast<int64_t>(v)));
      break;
    case DType::Int8:
      store<int8_t>(p, static_cast<int8_t>(static_cast<int64_t>(v)));
      break;
    case DType::Int16:
      store<int16_t>(p, static_cast<int16_t>(static_cast<int64_t>(v)));
      break;
    case DType::Int32:
      store<int32_t>(p, static_cast<int32_t>(static_cast<int64_t>(v)));
      break;
    case DType::Int64:
      store<int64_t>(p, static_cast<int64_t>(v));
      break;
    case DType::Float16:
      store<uint16_t>(p, fp32_to_fp16(static_cast<float>(v)));
      break;
    case DType::BFloat16:
      store<uint16_t>(p, fp32_to_bf16(static_cast<float>(v)));
      break;
    case DType::Float32:
      store<float>(p, static_cast<float>(v));
      break;
    case DType::Float64:
      store<double>(p, v);
      break;
  }
}

void HostTensor::set_int(int64_t linear, int64_t v) {
  uint8_t *p = element_ptr(linear_to_offset(linear));
  switch (dtype_) {
    case DType::Bool:
      store<uint8_t>(p, v != 0);
      break;
    case DType::UInt8:
      store<uint8_t>(p, static_cast<uint8_t>(v));
      break;
    case DType::Int8:
      store<int8_t>(p, static_cast<int8_t>(v));
      break;
    case DType::Int16:
      store<int16_t>(p, static_cast<int16_t>(v));
      break;
    case DType::Int32:
      store<int32_t>(p, static_cast<int32_t>(v));
      break;
    case DType::Int64:
      store<int64_t>(p, v);
      break;
    default:
      set_double(linear, static_cast<double>(v));
      break;
  }
}

HostTensor HostTensor::contiguous() const {
  HostTensor out(dtype_, sizes_);
  int64_t n = numel();
  int es = dtype_size(dtype_);
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out.storage_->data() + i * es, element_ptr(linear_to_offset(i)), es);
  return out;
}

HostTensor HostTensor::to(DType dtype) const {
  if (dtype == dtype_) return contiguous();
  HostTensor out(dtype, sizes_);
  int64_t n = numel();
  bool exact_int = dtype_is_integral(dtype_) && dtype_is_integral(dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (exact_int)
      out.set_int(i, get_int(i));
    else
      out.set_double(i, get_double(i));
  }
  return out;
}

bool HostTensor::equals(const HostTensor &o) const {
  if (dtype_ != o.dtype_ || sizes_ != o.sizes_) return false;
  int64_t n = numel();
  int es = dtype_size(dtype_);
  for (int64_t i = 0; i < n; ++i)
    if (std::memcmp(element_ptr(linear_to_offset(i)), o.element_ptr(o.linear_to_offset(i)), es))
      return false;
  return true;
}

std::string HostTensor::to_string(int64_t max_elements) const {
  std::ostringstream os;
  int64_t n = numel();
  auto elem = [&](int64_t i) {
    if (dtype_ == DType::Bool)
      os << (get_int(i) ? "True" : "False");
    else if (dtype_is_integral(dtype_))
      os << get_int(i);
    else {
      double v = get_double(i);
      if (std::isnan(v))
        os << "nan";
      else if (std::isinf(v))
        os << (v < 0 ? "-inf" : "inf");
      else
        os << v;
    }
  };
  os << "tensor(";
  if (n > max_elements) {
    os << "[";
    for (int64_t i = 0; i < 3 && i < n; ++i) {
      if (i) os << ", ";
      elem(i);
    }
    os << ", ..., ";
    elem(n - 1);
    os << "], size=[";
    for (size_t i = 0; i < sizes_.size(); ++i) os << (i ? ", " : "") << sizes_[i];
    os << "]";
  } else if (sizes_.empty()) {
    elem(0);
  } else {
    // Nested brackets following the sizes.
    std::vector<int64_t> idx(sizes_.size(), 0);
    int64_t linear = 0;
    std::function<void(size_t)> rec = [&](size_t d) {
      os << "[";
      for (int64_t i = 0; i < sizes_[d]; ++i) {
        if (i) os << ", ";
        if (d + 1 == sizes_.size())
          elem(linear++);
        else
          rec(d + 1);
      }
      os << "]";
    };
    rec(0);
  }
  os << ", dtype=" << dtype_name(dtype_) << ")";
  return os.str();
}

}  // namespace opforge
