//===- timing.h - cycle arithmetic shared by the timed units --------------===//
//
// Units keep time in absolute core-clock cycles as doubles (fractional
// cycles let bandwidths like 9.48 bytes/cycle add up exactly enough over a
// long stream; the same operations in the same order give the same bits, so
// runs stay deterministic). A Resource is a loosely-timed occupancy model:
// one next-free time; a request waits for it, then holds it for its busy time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace opforge::model {

struct Resource {
  double free_at = 0;
  // Start time of a request arriving at t that holds the resource for busy.
  double occupy(double t, double busy) {
    double start = std::max(t, free_at);
    free_at = start + busy;
    return start;
  }
};

// A 64-bit counter fed with fractional amounts: it holds the whole part of
// the running sum. Reset-safe: it adds only the change of the whole part.
class FracCounter {
public:
  FracCounter() = default;
  explicit FracCounter(uint64_t &target) : target_(&target) {}
  void add(double amount) {
    double before = std::floor(sum_);
    sum_ += amount;
    *target_ += static_cast<uint64_t>(std::floor(sum_) - before);
  }

private:
  uint64_t *target_ = nullptr;
  double sum_ = 0;
};

}  // namespace opforge::model
