//===- memory.cpp - the interpreter's device memory: mapped host buffers ---===//
#include <sstream>

#include "opforge/compiler/interp.h"
#include "opforge/support/error.h"

namespace opforge::ttir {

uint64_t InterpMemory::map(const std::shared_ptr<std::vector<uint8_t>> &storage) {
  if (!storage) throw Error("interpreter: cannot map a tensor without storage");
  for (auto &[base, b] : buffers_)
    if (b.storage == storage) return base;
  uint64_t base = next_base_;
  // Leave a wide unmapped gap after every buffer so overruns fault.
  uint64_t span = (storage->size() + 0xFFFFFFull) & ~0xFFFFFFull;
  next_base_ += span + 0x1000000ull;
  buffers_[base] = Buffer{storage};
  return base;
}

uint64_t InterpMemory::address_of(const HostTensor &t) {
  return map(t.storage()) + static_cast<uint64_t>(t.storage_offset()) * t.element_size();
}

void InterpMemory::unmap(uint64_t base) { buffers_.erase(base); }

uint8_t *InterpMemory::find(uint64_t addr, uint64_t bytes) {
  auto it = buffers_.upper_bound(addr);
  if (it == buffers_.begin()) return nullptr;
  --it;
  uint64_t off = addr - it->first;
  if (off + bytes > it->second.storage->size() || off + bytes < off) return nullptr;
  return it->second.storage->data() + off;
}

std::string InterpMemory::describe(uint64_t addr) const {
  std::ostringstream os;
  os << "0x" << std::hex << addr;
  auto it = buffers_.upper_bound(addr);
  if (it != buffers_.begin()) {
    --it;
    os << std::dec << " (buffer at 0x" << std::hex << it->first << std::dec << " of "
       << it->second.storage->size() << " bytes, offset " << static_cast<int64_t>(addr - it->first)
       << ")";
  } else {
    os << " (below every buffer)";
  }
  return os.str();
}

}  // namespace opforge::ttir
