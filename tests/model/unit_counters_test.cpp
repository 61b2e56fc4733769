//===- unit_counters_test.cpp - the hierarchical counter registry ---------===//
#include <gtest/gtest.h>

#include "opforge/model/counters.h"
#include "opforge/support/error.h"

namespace opforge::model {
namespace {

TEST(Counters, RegisterCountSnapshotAndDelta) {
  CounterRegistry r;
  uint64_t &a = r.add("pe[0][0].core.instret");
  uint64_t &b = r.add("dram.ch[1].busy_cycles");
  a += 5;
  CounterSnapshot before = r.snapshot();
  a += 2;
  b += 9;
  CounterSnapshot d = CounterRegistry::delta(before, r.snapshot());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0], (std::pair<std::string, uint64_t>{"pe[0][0].core.instret", 2}));
  EXPECT_EQ(d[1].second, 9u);
  EXPECT_EQ(r.value("pe[0][0].core.instret"), 7u);
  r.reset();
  EXPECT_EQ(r.value("dram.ch[1].busy_cycles"), 0u);
}

TEST(Counters, DuplicateAndUnknownNamesAreErrors) {
  CounterRegistry r;
  r.add("x");
  EXPECT_THROW(r.add("x"), Error);
  EXPECT_THROW(r.value("y"), Error);
}

TEST(Counters, GlobSelectsInRegistrationOrder) {
  CounterRegistry r;
  for (int i = 0; i < 3; ++i) r.add("pe[0][" + std::to_string(i) + "].core.instret");
  r.add("pe[0][0].core.cycles");
  auto m = r.match("pe[*].core.instret");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(r.name_at(m[2]), "pe[0][2].core.instret");
  EXPECT_TRUE(r.match("nothing*").empty());
}

}  // namespace
}  // namespace opforge::model
