//===- icache.cpp - per-PE instruction cache model: set lookup, LRU -------===//
#include "opforge/model/icache.h"

#include <bit>

namespace opforge::model {

ICacheModel::ICacheModel(uint64_t size_bytes, uint32_t line_bytes, uint32_t ways)
    : line_bytes_(line_bytes ? line_bytes : 1),
      line_shift_(uint32_t(std::countr_zero(line_bytes_))),
      ways_(ways ? ways : 1),
      sets_(size_bytes / (uint64_t{line_bytes_} * ways_)) {
  if (sets_ == 0) sets_ = 1;
  ways_by_set_.resize(sets_ * ways_);
}

bool ICacheModel::lookup(uint64_t addr, uint64_t &evicted) {
  const uint64_t line = addr >> line_shift_;
  Way *set = &ways_by_set_[(line % sets_) * ways_];
  Way *victim = set;
  ++clock_;
  evicted = UINT64_MAX;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (set[w].line == line) {
      set[w].used = clock_;
      return true;
    }
    // Empty ways have stamp 0, so they are taken before any used one.
    if (set[w].used < victim->used) victim = &set[w];
  }
  evicted = victim->line == UINT64_MAX ? UINT64_MAX : victim->line << line_shift_;
  victim->line = line;
  victim->used = clock_;
  return false;
}

bool ICacheModel::resident(uint64_t addr) const {
  const uint64_t line = addr >> line_shift_;
  const Way *set = &ways_by_set_[(line % sets_) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w].line == line) return true;
  return false;
}

void ICacheModel::invalidate() {
  for (Way &w : ways_by_set_) w = Way{};
}

}  // namespace opforge::model
