//===- aten_runtime.h - view and metadata ATen ops over strided device tensors ===//
//
// Overloads that only change a tensor's metadata (sizes, strides, storage
// offset) need no kernel: the runtime answers them by building a new
// TensorHandle over the same device buffer. `opforge validate` uses it for
// overloads the kernel library has no file for.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/wrapper.h"

namespace opforge::harness {

// True for the overloads run_view_op implements ("aten::view", "aten::t", ...).
bool is_view_op(const std::string &overload);
const std::vector<std::string> &view_ops();

// The view `overload` makes of its arguments (a tensor over the input's buffer).
// Throws opforge::Error naming the overload for bad arguments or an unsupported one.
compiler::WrapperValue run_view_op(
    const std::string &overload, const std::vector<compiler::WrapperValue> &args,
    const std::vector<std::pair<std::string, compiler::WrapperValue>> &kwargs);

}  // namespace opforge::harness
