//===- flat_memory.cpp - MemoryIf over one host byte array -----------------===//
#include "opforge/isa/flat_memory.h"

#include <cstring>
#include <string>

#include "opforge/support/error.h"

namespace opforge::isa {

FlatMemory::FlatMemory(uint64_t base, uint64_t size_bytes) : base_(base), size_(size_bytes) {
  if (size_bytes == 0 || base + size_bytes < base)
    throw Error("flat memory: bad range (base 0x" + std::to_string(base) + ", size " +
                std::to_string(size_bytes) + ")");
  data_.reset(new uint8_t[size_bytes]());
}

bool FlatMemory::load(uint64_t addr, void *dst, size_t len) {
  if (!contains(addr, len)) return false;
  std::memcpy(dst, data_.get() + (addr - base_), len);
  return true;
}

bool FlatMemory::store(uint64_t addr, const void *src, size_t len) {
  if (!contains(addr, len)) return false;
  std::memcpy(data_.get() + (addr - base_), src, len);
  return true;
}

DmiRegion FlatMemory::dmi(uint64_t addr) {
  if (!contains(addr, 1)) return {};
  return DmiRegion{data_.get(), base_, size_, true};
}

}  // namespace opforge::isa
