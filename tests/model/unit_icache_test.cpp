//===- unit_icache_test.cpp - ICacheModel: sets, ways, LRU, invalidation --===//
#include <gtest/gtest.h>

#include "opforge/model/icache.h"
#include "opforge/model/params.h"
#include "opforge/support/error.h"

namespace opforge::model {
namespace {

TEST(ICacheModel, GeometryFollowsSizeLineAndWays) {
  ICacheModel c(32 * 1024, 64, 4);
  EXPECT_EQ(c.sets(), 128u);
  EXPECT_EQ(c.line_of(0x80000047), 0x80000040u);
}

TEST(ICacheModel, AMissInstallsTheLineAndEveryWordOfItHitsAfter) {
  ICacheModel c(1024, 64, 2);
  uint64_t ev = 0;
  EXPECT_FALSE(c.lookup(0x1000, ev));
  EXPECT_EQ(ev, UINT64_MAX) << "the way was empty";
  for (uint64_t a = 0x1000; a < 0x1040; a += 4) EXPECT_TRUE(c.lookup(a, ev)) << a;
  EXPECT_FALSE(c.lookup(0x1040, ev)) << "the next line is another line";
}

TEST(ICacheModel, LeastRecentlyUsedWayOfTheSetIsEvicted) {
  ICacheModel c(1024, 64, 2);  // 8 sets: lines 512 bytes apart share a set
  const uint64_t a = 0x0, b = 0x200, d = 0x400;
  uint64_t ev = 0;
  EXPECT_FALSE(c.lookup(a, ev));
  EXPECT_FALSE(c.lookup(b, ev));
  EXPECT_TRUE(c.lookup(a, ev));   // a is now the most recent
  EXPECT_FALSE(c.lookup(d, ev));  // evicts b, the least recent
  EXPECT_EQ(ev, b);
  EXPECT_TRUE(c.resident(a));
  EXPECT_FALSE(c.resident(b));
  EXPECT_TRUE(c.lookup(0x40, ev) == false && ev == UINT64_MAX) << "other sets are untouched";
}

TEST(ICacheModel, InvalidateDropsEveryLine) {
  ICacheModel c(1024, 64, 2);
  uint64_t ev = 0;
  c.lookup(0x80, ev);
  ASSERT_TRUE(c.resident(0x80));
  c.invalidate();
  EXPECT_FALSE(c.resident(0x80));
  EXPECT_FALSE(c.lookup(0x80, ev));
}

TEST(ICacheModel, ABadGeometryIsAnErrorNamingTheField) {
  try {
    (void)load_params("tiny", {"pe.icache.line_bytes=48"});
    FAIL() << "a 48-byte line was accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("/pe/icache/line_bytes"), std::string::npos) << e.what();
  }
  try {
    (void)load_params("tiny", {"pe.icache.ways=3"});
    FAIL() << "32 KiB in 3 ways of 64-byte lines was accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("/pe/icache/ways"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::model
