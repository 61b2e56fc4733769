//===- flat_memory.h - MemoryIf over one host byte array -------------------===//
//
// Guest range [base, base + size_bytes) backed by a zero-initialized host
// buffer, with a direct-pointer (DMI) region for the ISS's fast path.
// Accesses outside the range fail (the ISS raises an access fault).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>

#include "opforge/isa/memory_if.h"

namespace opforge::isa {

class FlatMemory : public MemoryIf {
 public:
  FlatMemory(uint64_t base, uint64_t size_bytes);

  bool load(uint64_t addr, void *dst, size_t len) override;
  bool store(uint64_t addr, const void *src, size_t len) override;
  DmiRegion dmi(uint64_t addr) override;

  uint64_t base() const { return base_; }
  uint64_t size_bytes() const { return size_; }
  bool contains(uint64_t addr, uint64_t len) const {
    return addr >= base_ && addr - base_ <= size_ && len <= size_ - (addr - base_);
  }
  // Host pointer for guest addr (nullptr outside the range).
  uint8_t *host(uint64_t addr) {
    return contains(addr, 1) ? data_.get() + (addr - base_) : nullptr;
  }

 private:
  uint64_t base_;
  uint64_t size_;
  std::unique_ptr<uint8_t[]> data_;
};

}  // namespace opforge::isa
