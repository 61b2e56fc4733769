//===- torch_device.h - opforge tensors as PyTorch PrivateUse1 tensors ------===//
//
// Shared by the extension's two torch translation units: device.cpp (the
// allocator, device guard, factories, copies, views and the `opforge::` custom
// ops) and dispatch.cpp (the boxed PrivateUse1 fallback that runs every other
// op through the kernel library on the chip, or on the CPU).
//
// An opforge tensor's storage is one ChipExecutor buffer in the chip's DRAM. Its
// data pointer is not a host address: it encodes the buffer id in the high 32
// bits and a byte offset in the low 32 (a storage holds at most 4 GiB), so
// storage().data() + storage_offset * itemsize decodes to (buffer, byte offset).
// Nothing on the host dereferences it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opforge/compiler/executor.h"
#include "opforge/support/dtype.h"
#include "runtime.h"

namespace opforge::pydev {

inline constexpr c10::DeviceType kDeviceType = c10::DeviceType::PrivateUse1;

inline void *buffer_pointer(uint64_t buffer) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(buffer) << 32);
}
inline uint64_t pointer_buffer(const void *p) { return reinterpret_cast<uintptr_t>(p) >> 32; }

// The runtime, its opforge::Error turned into a c10::Error (Python RuntimeError).
Runtime &runtime();

// The allocator of opforge storages (device.cpp).
c10::Allocator *device_allocator();

// The opforge DType of a torch dtype (none for complex, quantized, uint16, ...).
std::optional<DType> to_dtype(c10::ScalarType t);
c10::ScalarType to_scalar_type(DType t);
// "float32", "complex64", ...
std::string dtype_label(c10::ScalarType t);

// A storage over the first `bytes` of device buffer `buffer`; with `owning` it frees
// the buffer when its last tensor goes (a buffer a kernel or a module allocated).
c10::Storage buffer_storage(uint64_t buffer, size_t bytes, bool owning);
// An opforge tensor over `storage` with `h`'s dtype, sizes, strides and offset.
at::Tensor tensor_over(c10::Storage storage, const compiler::TensorHandle &h);

// The device view of an opforge tensor (its storage's buffer, sizes, strides and
// offset); throws for a dtype the chip cannot hold.
compiler::TensorHandle handle_of(const at::Tensor &t);

// Host <-> device copies through the host-link model (ChipExecutor copy_in/out).
at::Tensor download(const at::Tensor &src);                 // opforge -> new CPU tensor
void upload(const at::Tensor &src, const at::Tensor &dst);  // CPU (any dtype) -> opforge view

// Registers the dispatcher's boxed kernel directly for the library's overloads
// (dispatch.cpp): ATen's composite kernels (add.Tensor -> add.out for a backend
// without its own) come before a backend fallback, so without it the fallback
// would only see the out= overloads the library has no kernels for.
void register_library_overloads(const std::vector<std::string> &overloads);

}  // namespace opforge::pydev
