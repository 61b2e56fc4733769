//===- shape.cpp - torch shape/stride algebra for tensor views -------------===//
#include "shape.h"

namespace opforge::compiler::wrapper_detail {

std::string dims_text(const Dims &d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

Dims contiguous_strides(const Dims &sizes) {
  Dims st(sizes.size(), 1);
  int64_t acc = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    st[i] = acc;
    acc *= sizes[i] > 1 ? sizes[i] : 1;
  }
  return st;
}

std::optional<Dims> view_strides(const Dims &oldshape, const Dims &oldstride,
                                 const Dims &newshape) {
  if (oldshape.empty()) return Dims(newshape.size(), 1);
  int64_t numel = 1;
  for (auto s : oldshape) numel *= s;
  if (numel == 0) {
    if (oldshape == newshape) return oldstride;
    return contiguous_strides(newshape);
  }
  Dims newstride(newshape.size(), 1);
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[static_cast<size_t>(tensor_d)];
    if (tensor_d == 0 ||
        (oldshape[static_cast<size_t>(tensor_d - 1)] != 1 &&
         oldstride[static_cast<size_t>(tensor_d - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 &&
             (view_numel < tensor_numel || newshape[static_cast<size_t>(view_d)] == 1)) {
        newstride[static_cast<size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= newshape[static_cast<size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[static_cast<size_t>(tensor_d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

std::optional<Dims> infer_size(const Dims &shape, int64_t numel, std::string &error) {
  Dims out = shape;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) {
        error = "only one dimension can be inferred";
        return std::nullopt;
      }
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      error = "invalid shape dimension " + std::to_string(shape[i]);
      return std::nullopt;
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0) {
      error = "cannot reshape tensor of " + std::to_string(numel) + " elements into shape " +
              dims_text(shape) +
              " because the unspecified dimension size -1 can be any value and is ambiguous";
      return std::nullopt;
    }
    if (numel % known != 0) {
      error =
          "shape '" + dims_text(shape) + "' is invalid for input of size " + std::to_string(numel);
      return std::nullopt;
    }
    out[static_cast<size_t>(infer)] = numel / known;
  } else if (known != numel) {
    error =
        "shape '" + dims_text(shape) + "' is invalid for input of size " + std::to_string(numel);
    return std::nullopt;
  }
  return out;
}

std::optional<Dims> broadcast(const Dims &a, const Dims &b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

int dtype_category(DType d) {
  if (d == DType::Bool) return 0;
  return dtype_is_float(d) ? 2 : 1;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  int ca = dtype_category(a), cb = dtype_category(b);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) {
    if ((a == DType::Float16 && b == DType::BFloat16) ||
        (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    return dtype_size(a) >= dtype_size(b) ? a : b;
  }
  // Integers: uint8 with a signed type needs one more bit.
  if (a == DType::UInt8 || b == DType::UInt8) {
    DType other = a == DType::UInt8 ? b : a;
    if (other == DType::Int8) return DType::Int16;
    return other;
  }
  return dtype_size(a) >= dtype_size(b) ? a : b;
}

}  // namespace opforge::compiler::wrapper_detail
