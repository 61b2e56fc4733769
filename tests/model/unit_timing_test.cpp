//===- unit_timing_test.cpp - SharedResource: capacity with out-of-order use ===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <iterator>
#include <map>
#include <random>

#include "opforge/model/timing.h"

namespace opforge::model {
namespace {

TEST(SharedResource, InOrderRequestsQueueLikeOneServer) {
  SharedResource r(1000);
  EXPECT_DOUBLE_EQ(r.occupy(0, 10), 0);
  EXPECT_DOUBLE_EQ(r.occupy(5, 10), 10);   // waits for the first
  EXPECT_DOUBLE_EQ(r.occupy(50, 10), 50);  // idle resource: no wait
  EXPECT_DOUBLE_EQ(r.occupy(55, 0), 55);   // nothing to hold
}

TEST(SharedResource, AnEarlierRequestBookedLaterFillsTheGapBeforeLaterWork) {
  SharedResource r(1000);
  EXPECT_DOUBLE_EQ(r.occupy(900, 50), 900);  // a PE that ran ahead
  EXPECT_DOUBLE_EQ(r.occupy(100, 50), 100);  // another PE, earlier in time
  // 60 cycles from 880: 20 before the booked work, the rest after it.
  EXPECT_DOUBLE_EQ(r.occupy(880, 60), 950 + 40 - 60);
}

TEST(SharedResource, ABurstArrivingLateNeverRunsFasterThanTheResource) {
  // 1000 requests of 4 cycles, all arriving from t = 5000 on (late in any
  // accounting window): the last finishes no earlier than 5000 + 4000.
  SharedResource r(1000);
  double finish = 0;
  for (int i = 0; i < 1000; ++i) finish = std::max(finish, r.occupy(5000 + i * 0.5, 4) + 4);
  EXPECT_GE(finish, 9000 - 1e-9);
  EXPECT_LE(finish, 9000 + 1e-9);  // and it never idles while work waits
}

TEST(SharedResource, SameRequestsSameTimes) {
  auto run = [] {
    SharedResource r(100);
    double sum = 0;
    for (int i = 0; i < 20000; ++i) sum += r.occupy(double((i * 7919) % 50000), 1.5 + i % 3);
    return sum;
  };
  EXPECT_EQ(run(), run());
}

// Issue 22: a request split over gaps got a start an ulp below its arrival
// (t = 175.89224402004876, start 175.89224402004874), so start - t, counted
// as a conflict wait, was negative and FracCounter wrapped lmem conflict
// cycles to 2^64 - 1.
TEST(SharedResource, ARequestNeverStartsBeforeItArrives) {
  std::mt19937_64 g(1);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 20000; ++trial) {
    SharedResource r(1000);
    const double t0 = 1000 * u(g);
    double x = t0;
    for (int i = 0, k = 1 + int(g() % 4); i < k; ++i) {
      x += 10 * u(g);
      r.occupy(x, 3 * u(g));
      x += 3;
    }
    const double busy = 20 * u(g), t = t0 + 0.1 * u(g);
    ASSERT_GE(r.occupy(t, busy), t) << "trial " << trial;
  }
}

// The definition SharedResource implements, on a std::map (start -> end):
// a request takes the first free time from its arrival, split over gaps,
// merged with the intervals it touches; intervals that ended before the
// horizon are forgotten, and past kMaxIntervals the oldest half too.
class MapResource {
 public:
  explicit MapResource(double horizon) : horizon_(16 * horizon) {}
  double occupy(double t, double busy) {
    t = std::max(t, floor_);
    latest_ = std::max(latest_, t);
    if (!(busy > 0)) return t;
    double cur = t, remaining = busy;
    while (remaining > 0) {
      auto next = busy_.upper_bound(cur);
      if (next != busy_.begin() && std::prev(next)->second > cur) {
        cur = std::prev(next)->second;
        continue;
      }
      const bool bounded = next != busy_.end();
      const double gap = bounded ? next->first - cur : remaining;
      const bool fills = gap <= remaining;
      const double end = fills && bounded ? next->first : cur + remaining;
      remaining = fills ? remaining - gap : 0;
      auto prev = next == busy_.begin() ? busy_.end() : std::prev(next);
      if (prev != busy_.end() && prev->second == cur)
        prev->second = end;
      else
        prev = busy_.emplace_hint(next, cur, end);
      if (bounded && next->first == end) {
        prev->second = next->second;
        busy_.erase(next);
      }
      cur = end;
    }
    const double bound = latest_ - horizon_;
    for (auto it = busy_.begin(); it != busy_.end() && it->second < bound;) {
      floor_ = std::max(floor_, it->second);
      it = busy_.erase(it);
    }
    if (busy_.size() > (1u << 14)) {
      size_t dropped = 0;
      for (auto it = busy_.begin();
           it != busy_.end() && (it->second < bound || dropped < busy_.size() / 2); ++dropped) {
        floor_ = std::max(floor_, it->second);
        it = busy_.erase(it);
      }
    }
    return std::max(t, cur - busy);
  }

 private:
  double horizon_, floor_ = 0, latest_ = 0;
  std::map<double, double> busy_;
};

// The flat-array SharedResource gives every request the same start, to the
// bit, as the map definition: in-order streams, requests arriving out of
// order (filling and splitting over gaps, touching neighbours), intervals
// falling behind the horizon, and more than kMaxIntervals live intervals.
TEST(SharedResource, MatchesTheIntervalMapDefinition) {
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const double horizon = trial % 4 == 0 ? 1e9 : 10 + 1000 * u(g);
    SharedResource flat(horizon);
    MapResource def(horizon);
    double clock = 0;
    const int n = trial % 4 == 0 ? 40000 : 5000;
    for (int i = 0; i < n; ++i) {
      // Several initiators: some behind, some ahead; whole and fractional
      // times so that requests often touch booked intervals exactly.
      clock += (g() % 3) * 0.5;
      double t = clock + double(int64_t(g() % 400) - 200) * (g() % 2 ? 1.0 : 0.25);
      if (trial % 4 == 0) t = 3.0 * i + (g() % 2);  // disjoint: grows past kMaxIntervals
      const double busy = g() % 8 == 0 ? 0 : (g() % 2 ? double(1 + g() % 5) : 4 * u(g));
      const double a = flat.occupy(t, busy), b = def.occupy(t, busy);
      ASSERT_EQ(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b))
          << "trial " << trial << " request " << i << " t " << t << " busy " << busy;
    }
  }
}

TEST(FracCounter, NeverDecreases) {
  uint64_t c = 0;
  FracCounter f(c);
  f.add(-2.8e-14);  // a rounding-error "wait"
  EXPECT_EQ(c, 0u);
  f.add(2.5);
  f.add(-1);
  f.add(std::nan(""));
  EXPECT_EQ(c, 2u);
  f.add(0.5);
  EXPECT_EQ(c, 3u);
}

}  // namespace
}  // namespace opforge::model
