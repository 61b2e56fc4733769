//===- memory_if.h - how the ISS reaches memory ----------------------------===//
//
// The ISS knows nothing of SystemC. It reads and writes guest memory through
// MemoryIf; the chip model adapts it to TLM-2.0 sockets (and charges time),
// the ISS's own tests use a flat memory. A failed access returns false and
// the ISS raises an access-fault trap with the PC and address.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

namespace opforge::isa {

// A directly addressable host range for guest [base, base + size).
struct DmiRegion {
  uint8_t *host = nullptr;  // nullptr: no direct access for this address
  uint64_t base = 0;
  uint64_t size = 0;
  bool writable = false;
  bool contains(uint64_t addr, uint64_t len) const {
    return host && addr >= base && addr - base + len <= size;
  }
};

class MemoryIf {
 public:
  virtual ~MemoryIf() = default;
  // Copy len bytes; false if any byte is unmapped (or not writable for store).
  virtual bool load(uint64_t addr, void *dst, size_t len) = 0;
  virtual bool store(uint64_t addr, const void *src, size_t len) = 0;
  // Instruction fetch (the ISS calls it when it decodes an instruction it has
  // not cached); a timed memory can charge an instruction-cache model here.
  virtual bool fetch(uint64_t addr, void *dst, size_t len) { return load(addr, dst, len); }
  // Fast path: the direct region holding addr, or an empty region. The ISS
  // caches regions and must call invalidate hooks only through
  // Hart::invalidate_dmi().
  virtual DmiRegion dmi(uint64_t /*addr*/) { return {}; }
};

}  // namespace opforge::isa
