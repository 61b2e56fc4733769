//===- shape.h - torch shape/stride algebra for tensor views (internal) ----===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opforge/support/dtype.h"

namespace opforge::compiler::wrapper_detail {

using Dims = std::vector<int64_t>;

std::string dims_text(const Dims &d);  // "[2, 3]"
Dims contiguous_strides(const Dims &sizes);
// Strides for viewing (sizes, strides) as new_sizes without a copy (PyTorch's
// computeStride); nullopt when the view is impossible.
std::optional<Dims> view_strides(const Dims &sizes, const Dims &strides, const Dims &new_sizes);
// Resolves one -1 in `shape` for `numel` elements; returns an error message
// in `error` when impossible.
std::optional<Dims> infer_size(const Dims &shape, int64_t numel, std::string &error);
// Broadcast two shapes (numpy rules); nullopt when incompatible.
std::optional<Dims> broadcast(const Dims &a, const Dims &b);
// torch.promote_types.
DType promote_types(DType a, DType b);
// 0 bool, 1 integral, 2 floating.
int dtype_category(DType d);

}  // namespace opforge::compiler::wrapper_detail
