//===- timing.h - cycle arithmetic shared by the timed units --------------===//
//
// Units keep time in absolute core-clock cycles as doubles (fractional
// cycles let bandwidths like 9.48 bytes/cycle add up exactly enough over a
// long stream; the same operations in the same order give the same bits, so
// runs stay deterministic). A Resource is a loosely-timed occupancy model:
// one next-free time; a request waits for it, then holds it for its busy time
// (for a unit used by one initiator in time order). SharedResource is the
// out-of-order-tolerant version for units many PEs share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>

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

// A resource shared by initiators whose local times differ (loosely timed:
// each PE runs ahead for up to a quantum, so requests arrive out of time
// order). A single next-free time would make an early request wait behind a
// later one; instead the time line is cut into windows of `window` cycles,
// each able to carry `window` busy cycles. A request takes capacity from
// its arrival window onward (spilling into later windows when full) and
// finishes at the later of t + busy and where its window's packed work ends.
class SharedResource {
 public:
  explicit SharedResource(double window = 1) : window_(window) {}
  // Start time (finish - busy) of a request arriving at t holding busy cycles.
  double occupy(double t, double busy) {
    int64_t b = int64_t(std::floor(t / window_));
    double remaining = busy, finish = t + busy;
    bool first = true;
    while (remaining > 0) {
      double &used = used_[b];
      double bucket_start = double(b) * window_;
      double avail = window_ - used;
      if (first) avail = std::min(avail, bucket_start + window_ - t);
      if (avail > 0) {
        double take = std::min(avail, remaining);
        used += take;
        remaining -= take;
        finish = std::max(finish, bucket_start + used);
      }
      first = false;
      ++b;
    }
    if (used_.size() > kMaxWindows)
      used_.erase(used_.begin(), std::next(used_.begin(), kMaxWindows / 2));
    return finish - busy;
  }

 private:
  static constexpr size_t kMaxWindows = 1u << 16;  // bookkeeping bound, not timing
  double window_;
  std::map<int64_t, double> used_;
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
