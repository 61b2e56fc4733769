//===- unit_timing_test.cpp - SharedResource: capacity with out-of-order use ===//
#include <gtest/gtest.h>

#include <cmath>
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
