//===- icache.h - per-PE instruction cache model (tags and LRU, no data) --===//
//
// The timing side of a PE's instruction cache: which lines are resident.
// A set-associative array of tags with LRU replacement within a set; the
// instruction bytes themselves are always read from memory, so stores to
// code stay visible. Pe asks lookup() whenever the ISS (re)fills a decoded
// instruction from global memory; a miss installs the line and the PE then
// fetches the whole line through its bus socket (docs/model/fetch.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

namespace opforge::model {

class ICacheModel {
 public:
  // size_bytes must be a whole number of ways x line_bytes sets; line_bytes
  // a power of two (ArchConfig::check enforces both).
  ICacheModel(uint64_t size_bytes, uint32_t line_bytes, uint32_t ways);

  uint32_t line_bytes() const { return line_bytes_; }
  uint64_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  // First byte of the line holding addr.
  uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t(line_bytes_ - 1); }

  // True if the line holding addr is resident (and marks it most recently
  // used); false if not, after installing it in place of its set's least
  // recently used way (evicted: that way's line address, UINT64_MAX if it
  // was empty).
  bool lookup(uint64_t addr, uint64_t &evicted);
  // Whether the line holding addr is resident, touching nothing.
  bool resident(uint64_t addr) const;
  // Drop every line (new code may be loaded at the same addresses).
  void invalidate();

 private:
  struct Way {
    uint64_t line = UINT64_MAX;  // line number (addr / line_bytes); UINT64_MAX = empty
    uint64_t used = 0;           // LRU stamp: larger = more recent
  };
  uint32_t line_bytes_;
  uint32_t line_shift_;
  uint32_t ways_;
  uint64_t sets_;
  uint64_t clock_ = 0;
  std::vector<Way> ways_by_set_;  // sets_ x ways_
};

}  // namespace opforge::model
