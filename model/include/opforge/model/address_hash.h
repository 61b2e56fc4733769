//===- address_hash.h - which SRAM bank / DRAM channel an address unit maps to ===//
//
// Interleaved memories (the SRAM's banks, the DRAM's channels) pick a unit
// for each interleave granule (a line, an interleave_bytes block). Taking the
// granule index modulo the unit count sends every power-of-two stride that
// is a multiple of units x granule to one unit: the rows of a 2048-wide bf16
// matrix (4 KiB apart) all fall in one DRAM channel of 16 x 256 B and in the
// same two SRAM banks of 32 x 64 B, so a tile's transfer queues on one unit
// while the others idle. Memory controllers and sliced caches hash instead;
// here the granule index's base-n digits are combined (XOR for a power-of-two
// n, i.e. bits [0, log n) ^ [log n, 2 log n) ^ ..., sum modulo n otherwise).
// Within each aligned group of n granules the mapping is still a permutation,
// so a sequential stream visits every unit once per group, as with modulo.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace opforge::model {

// The unit (0 .. n-1) that granule `g` maps to among `n` >= 1 units.
inline uint32_t hashed_unit(uint64_t g, uint32_t n) {
  if (n <= 1) return 0;
  uint64_t h = 0;
  if ((n & (n - 1)) == 0) {
    for (; g; g /= n) h ^= g % n;
    return uint32_t(h);
  }
  for (; g; g /= n) h += g % n;
  return uint32_t(h % n);
}

}  // namespace opforge::model
