//===- unit_local_mem_test.cpp - local-memory banks, bandwidth, DMI ------===//
#include <gtest/gtest.h>

#include "opforge/model/local_mem.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(LocalMem, InterleavedBanksServeInParallelAndOneBankSerialises) {
  ChipParams p = testing::preset("tiny");
  CounterRegistry c;
  LocalMemTarget lm("lmem_banks", p, 0, c);
  const uint64_t g = p.local_mem.interleave_bytes;
  const double busy = double(g) / p.local_mem.bank_bytes_per_cycle;
  const double lat = p.local_mem.latency_cycles;
  // One granule: its bank's busy time plus the latency.
  EXPECT_DOUBLE_EQ(lm.access(0, g, false, 100), 100 + busy + lat);
  // A whole stripe over every bank at once finishes as fast as one granule.
  double t = 1000;
  EXPECT_DOUBLE_EQ(lm.access(0, g * p.local_mem.banks, false, t), t + busy + lat);
  EXPECT_EQ(c.value("pe[0][0].lmem.conflict_cycles"), 0u);
  // Two granules of the same bank at the same time: the second waits.
  t = 5000;
  lm.access(0, g, true, t);
  double second = lm.access(g * p.local_mem.banks, g, true, t);
  EXPECT_DOUBLE_EQ(second, t + 2 * busy + lat);
  EXPECT_GE(c.value("pe[0][0].lmem.conflict_cycles"), uint64_t(busy));
  EXPECT_EQ(c.value("pe[0][0].lmem.bytes_written"), 2 * g);
  EXPECT_EQ(c.value("pe[0][0].lmem.bytes_read"), g + g * p.local_mem.banks);
}

TEST(LocalMem, BandwidthIsTheConfiguredTotal) {
  ChipParams p = testing::preset("tiny");
  CounterRegistry c;
  LocalMemTarget lm("lmem_bw", p, 0, c);
  // 32 KiB in one access: every bank moves its share at its rate.
  const uint64_t bytes = 32768;
  double done = lm.access(0, bytes, false, 0) - p.local_mem.latency_cycles;
  double bytes_per_cycle = double(bytes) / done;
  double configured = p.arch.pe.local_mem.bandwidth_gbps / p.arch.clock_ghz;
  EXPECT_NEAR(bytes_per_cycle, configured, configured * 0.01);
}

TEST(LocalMem, WindowAndDmiCoverExactlyThePeMemory) {
  ChipParams p = testing::preset("tiny");
  CounterRegistry c;
  LocalMemTarget lm("lmem_win", p, 3, c);
  EXPECT_EQ(lm.base(), p.map.local_window_base + 3 * p.map.local_window_stride);
  EXPECT_EQ(lm.size_bytes(), p.local_mem.size_bytes);
  EXPECT_TRUE(lm.contains(lm.base() + p.local_mem.size_bytes - 8, 8));
  EXPECT_FALSE(lm.contains(lm.base() + p.local_mem.size_bytes - 4, 8));
  EXPECT_FALSE(lm.contains(lm.base() - 1, 1));
}

}  // namespace
}  // namespace opforge::model
