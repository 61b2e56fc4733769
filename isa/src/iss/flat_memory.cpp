//===- flat_memory.cpp - MemoryIf over one host byte array -----------------===//
#include "opforge/isa/flat_memory.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "opforge/support/error.h"

namespace opforge::isa {

FlatMemory::FlatMemory(uint64_t base, uint64_t size_bytes) : base_(base), size_(size_bytes) {
  if (size_bytes == 0 || base + size_bytes < base) {
    char base_hex[24];
    std::snprintf(base_hex, sizeof base_hex, "%#llx", static_cast<unsigned long long>(base));
    throw Error(std::string("flat memory: bad range (base ") + base_hex + ", size " +
                std::to_string(size_bytes) + " bytes" +
                (size_bytes == 0 ? std::string(")") : std::string(": it wraps past 2^64)")));
  }
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
