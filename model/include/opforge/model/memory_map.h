//===- memory_map.h - the guest physical memory map derived from config ---===//
//
// docs/model/memory-map.md describes it. Ranges (all from MemoryMapParams):
//   local alias   [local_alias_base, + local_mem.size)  each PE's own memory
//   PE i window   [local_window_base + i*stride, + local_mem.size)
//   SRAM          [sram_base, + sram.size)               scratch mode only
//   DRAM          [dram_base, + dram.capacity)
// The alias is resolved by the PE (translate) before anything reaches the bus.
// The bases come from ArchConfig::memory_layout() (derived unless set), so
// they never overlap; decode() finds a PE window by arithmetic (O(1) for any
// grid), the few other ranges by search.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

#include "opforge/model/params.h"

namespace opforge::model {

class MemoryMap {
 public:
  enum class Kind { Local, Sram, Dram };
  struct Range {
    uint64_t base, size;
    Kind kind;
    uint32_t pe;  // owner, for Kind::Local
  };
  explicit MemoryMap(const ChipParams &p);

  // The range holding all of [addr, addr + len), or nullptr.
  const Range *decode(uint64_t addr, uint64_t len) const;
  // PE windows first (ranges()[i] is PE i's), then SRAM (scratch mode), then DRAM.
  const std::vector<Range> &ranges() const { return ranges_; }
  uint64_t local_window(uint32_t pe) const { return win_base_ + uint64_t(pe) * win_stride_; }
  // Alias -> PE `pe`'s window; other addresses unchanged.
  uint64_t translate(uint32_t pe, uint64_t addr) const {
    return addr - alias_base_ < local_bytes_ ? local_window(pe) + (addr - alias_base_) : addr;
  }
  uint64_t alias_base() const { return alias_base_; }
  uint64_t local_bytes() const { return local_bytes_; }

 private:
  std::vector<Range> ranges_;
  uint64_t alias_base_, local_bytes_, win_base_, win_stride_;
  uint32_t num_pes_;
};

}  // namespace opforge::model
