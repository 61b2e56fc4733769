// device.cpp - opforge as PyTorch's PrivateUse1 device: allocator, device guard,
// factories, copies through the host link, views, resize, and the opforge:: ops
// the Python package calls (init, stats, profiles).
#include <ATen/EmptyTensor.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstring>
#include <memory>
#include <vector>

#include "opforge/harness/c10_dtype.h"
#include "opforge/support/error.h"
#include "torch_device.h"

namespace opforge::pydev {

Runtime &runtime() {
  try {
    return Runtime::get();
  } catch (const Error &e) {
    TORCH_CHECK(false, e.what());
  }
}

std::optional<DType> to_dtype(c10::ScalarType t) { return harness::from_scalar_type(t); }

c10::ScalarType to_scalar_type(DType t) { return harness::to_scalar_type(t); }

std::string dtype_label(c10::ScalarType t) {
  if (auto d = to_dtype(t)) return std::string(dtype_name(*d));
  switch (t) {
    case c10::ScalarType::ComplexHalf:
      return "complex32";
    case c10::ScalarType::ComplexFloat:
      return "complex64";
    case c10::ScalarType::ComplexDouble:
      return "complex128";
    default:
      return c10::toString(t);
  }
}

namespace {

// ---- storage: one ChipExecutor buffer per storage -------------------------------------

void delete_buffer(void *ctx) {
  if (ctx && Runtime::initialized()) Runtime::get().free(pointer_buffer(ctx));
}

// A byte range of a buffer as a device tensor the executor copies.
compiler::TensorHandle bytes_of(uint64_t buffer, int64_t offset, int64_t bytes) {
  compiler::TensorHandle h;
  h.buffer = buffer;
  h.dtype = DType::UInt8;
  h.sizes = {bytes};
  h.strides = {1};
  h.storage_offset = offset;
  return h;
}

struct DeviceAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t bytes) override {
    const c10::Device device(kDeviceType, 0);
    if (bytes == 0) return {nullptr, nullptr, &delete_buffer, device};
    TORCH_CHECK(bytes < (size_t(1) << 32), "opforge: a storage of ", bytes,
                " bytes is over the device's 4 GiB per storage");
    uint64_t id = 0;
    try {
      id = runtime().allocate(static_cast<int64_t>(bytes));
    } catch (const Error &e) {
      TORCH_CHECK_WITH(OutOfMemoryError, false, e.what());
    }
    void *p = buffer_pointer(id);
    return {p, p, &delete_buffer, device};
  }
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
  void copy_data(void *dest, const void *src, std::size_t count) const override {
    if (count == 0) return;
    auto mask = [](const void *p) { return int64_t(reinterpret_cast<uintptr_t>(p) & 0xffffffffu); };
    runtime().executor().copy(bytes_of(pointer_buffer(dest), mask(dest), int64_t(count)),
                              bytes_of(pointer_buffer(src), mask(src), int64_t(count)));
  }
};

DeviceAllocator g_allocator;

// ---- the device guard: one device, one stream ------------------------------------------

struct DeviceGuard final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kDeviceType; }
  c10::Device exchangeDevice(c10::Device) const override { return {kDeviceType, 0}; }
  c10::Device getDevice() const override { return {kDeviceType, 0}; }
  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.index() <= 0, "opforge: there is one device, opforge:0 (asked for ", d, ")");
  }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const override { return s; }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, DeviceGuard);

// What ATen asks an accelerator (the autograd engine: hasPrimaryContext). Random
// ops run on the CPU (fallback), so the device's generator is the CPU's.
struct Hooks final : at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return true; }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return Runtime::initialized(); }
  c10::DeviceIndex deviceCount() const override { return 1; }
  c10::DeviceIndex getCurrentDevice() const override { return 0; }
  at::Device getDeviceFromPtr(void *) const override { return {kDeviceType, 0}; }
  const at::Generator &getDefaultGenerator(c10::DeviceIndex) const override {
    return at::detail::getDefaultCPUGenerator();
  }
};

const bool g_hooks_registered = [] {
  at::RegisterPrivateUse1HooksInterface(new Hooks);
  return true;
}();

// ---- copies --------------------------------------------------------------------------

// The storage elements a view reaches: [0, last + 1) (strides are non-negative).
int64_t view_extent(const at::Tensor &t) {
  int64_t last = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) == 0) return 0;
    last += (t.size(d) - 1) * t.stride(d);
  }
  return last + 1;
}

uint64_t buffer_of(const at::Tensor &t) { return pointer_buffer(t.storage().data()); }

// The first `elems` elements of t's storage as a CPU tensor.
at::Tensor download_storage(const at::Tensor &t, int64_t elems) {
  const int64_t item = int64_t(t.element_size());
  at::Tensor flat = at::empty({elems}, t.options().device(c10::kCPU));
  if (elems == 0) return flat;
  HostTensor h = runtime().executor().copy_out(bytes_of(buffer_of(t), 0, elems * item));
  std::memcpy(flat.data_ptr(), h.storage_data(), size_t(elems * item));
  return flat;
}

void upload_storage(const at::Tensor &flat_cpu, const at::Tensor &t) {
  const int64_t bytes = flat_cpu.numel() * int64_t(flat_cpu.element_size());
  if (bytes == 0) return;
  auto data = std::make_shared<std::vector<uint8_t>>(size_t(bytes));
  std::memcpy(data->data(), flat_cpu.data_ptr(), size_t(bytes));
  runtime().executor().copy_in(bytes_of(buffer_of(t), 0, bytes),
                               HostTensor(DType::UInt8, {bytes}, {1}, 0, data));
}

at::Tensor copy_from(const at::Tensor &self, const at::Tensor &dst, bool non_blocking);

}  // namespace

c10::Storage buffer_storage(uint64_t buffer, size_t bytes, bool owning) {
  void *p = buffer_pointer(buffer);
  c10::DataPtr data(p, p, owning ? &delete_buffer : nullptr, c10::Device(kDeviceType, 0));
  return c10::Storage(c10::Storage::use_byte_size_t(), bytes, std::move(data), device_allocator(),
                      /*resizable=*/owning);
}

at::Tensor tensor_over(c10::Storage storage, const compiler::TensorHandle &h) {
  at::Tensor t = at::detail::make_tensor<c10::TensorImpl>(
      std::move(storage), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::scalarTypeToTypeMeta(to_scalar_type(h.dtype)));
  t.unsafeGetTensorImpl()->set_sizes_and_strides(h.sizes, h.strides, h.storage_offset);
  return t;
}

c10::Allocator *device_allocator() { return &g_allocator; }

compiler::TensorHandle handle_of(const at::Tensor &t) {
  auto d = to_dtype(t.scalar_type());
  TORCH_CHECK(d, "opforge: dtype ", dtype_label(t.scalar_type()), " cannot be held by the chip");
  compiler::TensorHandle h;
  h.buffer = buffer_of(t);
  h.dtype = *d;
  h.sizes = t.sizes().vec();
  h.strides = t.strides().vec();
  h.storage_offset = t.storage_offset();
  return h;
}

at::Tensor download(const at::Tensor &src) {
  at::Tensor flat = download_storage(src, view_extent(src));
  if (src.numel() == 0) return at::empty(src.sizes(), flat.options());
  return flat.as_strided(src.sizes(), src.strides(), src.storage_offset()).clone();
}

void upload(const at::Tensor &src, const at::Tensor &dst) {
  if (dst.numel() == 0) return;
  at::Tensor host = src.to(dst.scalar_type()).expand(dst.sizes()).contiguous();
  if (dst.is_contiguous()) {
    // Only the view's bytes: [offset, offset + numel) of the storage.
    const int64_t item = int64_t(dst.element_size());
    const int64_t bytes = dst.numel() * item;
    auto data = std::make_shared<std::vector<uint8_t>>(size_t(bytes));
    std::memcpy(data->data(), host.data_ptr(), size_t(bytes));
    runtime().executor().copy_in(bytes_of(buffer_of(dst), dst.storage_offset() * item, bytes),
                                 HostTensor(DType::UInt8, {bytes}, {1}, 0, data));
    return;
  }
  // A strided view: read the storage it reaches, write the view on the host, write back.
  at::Tensor flat = download_storage(dst, view_extent(dst));
  flat.as_strided(dst.sizes(), dst.strides(), dst.storage_offset()).copy_(host);
  upload_storage(flat, dst);
}

namespace {

at::Tensor copy_from(const at::Tensor &self, const at::Tensor &dst, bool non_blocking) {
  (void)non_blocking;  // the host link is synchronous
  if (dst.numel() == 0) return dst;
  const bool src_dev = self.device().type() == kDeviceType;
  const bool dst_dev = dst.device().type() == kDeviceType;
  if (src_dev && !dst_dev) {
    dst.copy_(download(self));
  } else if (!src_dev && dst_dev) {
    upload(self, dst);
  } else if (src_dev && dst_dev) {
    at::Tensor src = self.expand(dst.sizes());
    if (to_dtype(src.scalar_type()) && to_dtype(dst.scalar_type()))
      runtime().executor().copy(handle_of(dst), handle_of(src));
    else
      upload(download(src), dst);
  } else {
    TORCH_CHECK(false, "opforge: _copy_from between ", self.device(), " and ", dst.device());
  }
  return dst;
}

// copy_ with an opforge tensor on either side (ATen's own copy_ knows CPU and CUDA).
at::Tensor &copy_(at::Tensor &self, const at::Tensor &src, bool non_blocking) {
  copy_from(src, self, non_blocking);
  return self;
}

at::Tensor copy_from_and_resize(const at::Tensor &self, const at::Tensor &dst) {
  if (dst.sizes() != self.sizes()) dst.resize_(self.sizes());
  return copy_from(self, dst, false);
}

at::Tensor empty_memory_format(c10::IntArrayRef size, std::optional<c10::ScalarType> dtype,
                               std::optional<c10::Layout> layout, std::optional<c10::Device> device,
                               std::optional<bool> pin,
                               std::optional<c10::MemoryFormat> memory_format) {
  (void)layout, (void)device, (void)pin;
  runtime();  // a clear error before init
  return at::detail::empty_generic(size, &g_allocator,
                                   c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         std::optional<c10::ScalarType> dtype, std::optional<c10::Layout> layout,
                         std::optional<c10::Device> device, std::optional<bool> pin) {
  (void)layout, (void)device, (void)pin;
  runtime();
  return at::detail::empty_strided_generic(size, stride, &g_allocator,
                                           c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                           c10::dtype_or_default(dtype));
}

const at::Tensor &resize(const at::Tensor &self, c10::IntArrayRef size,
                         std::optional<c10::MemoryFormat> memory_format) {
  (void)memory_format;
  c10::TensorImpl *impl = self.unsafeGetTensorImpl();
  int64_t numel = 1;
  for (int64_t s : size) numel *= s;
  const size_t needed = size_t(self.storage_offset() + numel) * self.element_size();
  c10::StorageImpl *storage = self.storage().unsafeGetStorageImpl();
  if (needed > storage->nbytes()) {
    c10::DataPtr fresh = g_allocator.allocate(needed);
    const size_t old = storage->nbytes();
    if (old > 0 && storage->data()) g_allocator.copy_data(fresh.get(), storage->data(), old);
    storage->set_data_ptr_noswap(std::move(fresh));
    storage->set_nbytes(needed);
  }
  impl->set_sizes_contiguous(size);
  return self;
}

at::Scalar local_scalar_dense(const at::Tensor &self) { return download(self).item(); }

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("copy_", copy_);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("resize_", resize);
  m.impl("_local_scalar_dense", local_scalar_dense);
  // Views: ATen's own metadata handling over the same storage.
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
  m.impl("unfold", at::native::unfold);
}

// ---- the opforge:: ops of the Python package ------------------------------------------

template <typename F>
auto translating(F f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error &e) {
    TORCH_CHECK(false, e.what());
  }
}

void init(std::string arch, std::string timing, std::vector<std::string> sets, std::string library,
          std::vector<std::string> kernel_sets) {
  Config c;
  c.arch = std::move(arch);
  c.timing = std::move(timing);
  c.sets = std::move(sets);
  c.library = std::move(library);
  c.kernel_sets = std::move(kernel_sets);
  Runtime &rt = translating([&]() -> Runtime & { return Runtime::init(c); });
  register_library_overloads(rt.library_overloads());
}

std::string stats() {
  return translating([] { return runtime().stats_json(); });
}
void profile_start() {
  translating([] { runtime().profile_start(); });
}
std::string profile_stop() {
  return translating([] { return runtime().profile_stop(); });
}
void profile_save(std::string path) {
  translating([&] { runtime().profile_save(path); });
}

TORCH_LIBRARY(opforge, m) {
  m.def("init(str arch, str timing, str[] sets, str library, str[] kernel_sets) -> ()", init);
  m.def("stats() -> str", stats);
  m.def("profile_start() -> ()", profile_start);
  m.def("profile_stop() -> str", profile_stop);
  m.def("profile_save(str path) -> ()", profile_save);
}

}  // namespace
}  // namespace opforge::pydev
