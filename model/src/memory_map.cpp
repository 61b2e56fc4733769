//===- memory_map.cpp - address ranges from the configuration -------------===//
#include "opforge/model/memory_map.h"

namespace opforge::model {

MemoryMap::MemoryMap(const ChipParams &p)
    : alias_base_(p.map.local_alias_base),
      local_bytes_(p.local_mem.size_bytes),
      win_base_(p.map.local_window_base),
      win_stride_(p.map.local_window_stride),
      num_pes_(p.num_pes()) {
  for (uint32_t i = 0; i < p.num_pes(); ++i)
    ranges_.push_back({local_window(i), p.local_mem.size_bytes, Kind::Local, i});
  if (p.sram.mode == SramMode::Scratch)
    ranges_.push_back({p.map.sram_base, p.sram.size_bytes, Kind::Sram, 0});
  ranges_.push_back({p.map.dram_base, p.dram.capacity_bytes, Kind::Dram, 0});
}

const MemoryMap::Range *MemoryMap::decode(uint64_t addr, uint64_t len) const {
  if (addr >= win_base_ && (addr - win_base_) / win_stride_ < num_pes_) {
    const Range &r = ranges_[(addr - win_base_) / win_stride_];
    if (addr - r.base < r.size) return len <= r.size - (addr - r.base) ? &r : nullptr;
    return nullptr;  // the guard gap after a window (no other range lies inside)
  }
  for (size_t i = num_pes_; i < ranges_.size(); ++i) {
    const Range &r = ranges_[i];
    if (addr >= r.base && addr - r.base < r.size)
      return len <= r.size - (addr - r.base) ? &r : nullptr;
  }
  return nullptr;
}

}  // namespace opforge::model
