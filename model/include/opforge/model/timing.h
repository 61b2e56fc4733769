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
#include <vector>

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
// later one; instead the resource keeps its busy intervals (merged where
// they touch) and a request arriving at t takes the first free time from t
// on, filling gaps that later-booked work left (split over several gaps when
// one is too short). Work never overlaps, so the resource never carries more
// than its capacity, and it idles only while nothing booked wants it.
// Intervals older than `horizon` cycles before the latest arrival are
// forgotten; a request arriving before that point is handled as arriving at
// it (bookkeeping bound; horizon is several quanta, which no PE runs behind).
// They are forgotten as soon as they fall behind it (not only when the bound of
// kMaxIntervals is reached): a chip launching small kernels again and again
// would otherwise keep up to kMaxIntervals intervals a resource, ~1 KB of heap
// a launch on `tiny` (test ChipLaunchLeak.ThousandsOfLaunchesKeepTheHeapFlat).
class SharedResource {
 public:
  explicit SharedResource(double horizon = 1) : horizon_(16 * horizon) {}
  // Start time (finish - busy) of a request arriving at t holding busy cycles.
  double occupy(double t, double busy) {
    t = std::max(t, floor_);
    latest_ = std::max(latest_, t);
    if (!(busy > 0)) return t;
    double cur = t, remaining = busy;
    while (remaining > 0) {
      size_t next = upper_bound(cur);                    // first interval starting after cur
      if (next != head_ && busy_[next - 1].end > cur) {  // cur is inside a busy interval: skip it
        cur = busy_[next - 1].end;
        continue;
      }
      const bool bounded = next != busy_.size();
      const double gap = bounded ? busy_[next].start - cur : remaining;
      const bool fills = gap <= remaining;
      const double end = fills && bounded ? busy_[next].start : cur + remaining;
      remaining = fills ? remaining - gap : 0;
      // Book [cur, end), merged with the neighbours it touches.
      size_t prev;
      if (next != head_ && busy_[next - 1].end == cur) {
        prev = next - 1;
        busy_[prev].end = end;
      } else {
        busy_.insert(busy_.begin() + std::ptrdiff_t(next), Interval{cur, end});
        prev = next++;
      }
      if (bounded && busy_[next].start == end) {
        busy_[prev].end = busy_[next].end;
        busy_.erase(busy_.begin() + std::ptrdiff_t(next));
      }
      cur = end;
    }
    forget_old();
    if (busy_.size() - head_ > kMaxIntervals) prune();
    // finish - busy is >= t in exact arithmetic, but cur summed the pieces
    // (gap by gap), so in doubles it can come out an ulp below t: callers
    // count start - t as a wait, and a wait of -3e-14 cycles once wrapped a
    // 64-bit conflict counter to 2^64 - 1 (issue 22).
    return std::max(t, cur - busy);
  }

 private:
  struct Interval {
    double start, end;
  };
  // Index of the first live interval starting after t (busy_.size() if none);
  // requests mostly arrive at or after the last one.
  size_t upper_bound(double t) const {
    size_t i = busy_.size();
    if (i == head_ || busy_[i - 1].start <= t) return i;
    // busy_[i - 1] starts after t. A late request mostly lands among the
    // last few: look at them before searching.
    --i;
    for (int step = 0; step < 8 && i > head_; ++step, --i)
      if (busy_[i - 1].start <= t) return i;
    auto it =
        std::upper_bound(busy_.begin() + std::ptrdiff_t(head_), busy_.begin() + std::ptrdiff_t(i),
                         t, [](double v, const Interval &iv) { return v < iv.start; });
    return size_t(it - busy_.begin());
  }
  // Drops the intervals that ended before the horizon (oldest first; amortised O(1)).
  void forget_old() {
    const double bound = latest_ - horizon_;
    while (head_ != busy_.size() && busy_[head_].end < bound) {
      floor_ = std::max(floor_, busy_[head_].end);
      ++head_;
    }
    compact();
  }
  void prune() {
    // Forget what ended before the horizon; if that is not enough, the
    // oldest half. Requests before the forgotten point start at it.
    double bound = latest_ - horizon_;
    size_t dropped = 0;
    while (head_ != busy_.size() &&
           (busy_[head_].end < bound || dropped < (busy_.size() - head_) / 2)) {
      floor_ = std::max(floor_, busy_[head_].end);
      ++head_;
      ++dropped;
    }
    compact();
  }
  // Forgotten intervals stay in front of head_ until they are half the vector.
  void compact() {
    if (head_ == busy_.size()) {
      busy_.clear();
      head_ = 0;
    } else if (head_ >= 32 && 2 * head_ >= busy_.size()) {
      busy_.erase(busy_.begin(), busy_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }

  static constexpr size_t kMaxIntervals = 1u << 14;  // bookkeeping bound, not timing
  double horizon_;
  double floor_ = 0, latest_ = 0;
  // Busy intervals [head_, size), sorted by start, disjoint, not touching
  // (a flat array: most requests append or extend the last one).
  std::vector<Interval> busy_;
  size_t head_ = 0;
};

// A 64-bit counter fed with fractional amounts: it holds the whole part of
// the running sum. Reset-safe: it adds only the change of the whole part.
// Amounts are waits and busy times, never negative: a negative or NaN one
// adds nothing (it would lower the whole part and wrap the unsigned counter),
// so the counter only ever grows.
class FracCounter {
 public:
  FracCounter() = default;
  explicit FracCounter(uint64_t &target) : target_(&target) {}
  void add(double amount) {
    if (!(amount > 0)) return;
    sum_ += amount;
    const double whole = whole_part(sum_);
    *target_ += static_cast<uint64_t>(whole - whole_);
    whole_ = whole;
  }

 private:
  // floor(x) for the running sum (never negative): a truncating conversion
  // below 2^52, where it is exact and cheaper than floor on a baseline x86-64.
  static double whole_part(double x) {
    return x < 0x1p52 ? static_cast<double>(static_cast<int64_t>(x)) : std::floor(x);
  }
  uint64_t *target_ = nullptr;
  double sum_ = 0;
  double whole_ = 0;  // whole_part(sum_), the part already added to *target_
};

}  // namespace opforge::model
