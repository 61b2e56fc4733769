//===- unit_sram_test.cpp - SRAM cache behaviour, bank conflicts, scratch -===//
#include <gtest/gtest.h>

#include <set>

#include "opforge/model/dram.h"
#include "opforge/model/sram.h"
#include "test_util.h"

namespace opforge::model {
namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
};

struct SramFixture {
  explicit SramFixture(const ChipParams &params, const std::string &tag)
      : p(params), dram(("dram_" + tag).c_str(), p, c), sram(("sram_" + tag).c_str(), p, c) {
    sram.dram_socket.bind(dram.socket);
  }
  ChipParams p;
  CounterRegistry c;
  DramTarget dram;
  SramTarget sram;
};

TEST(Sram, CacheMissThenHitAndLruEviction) {
  SramFixture f(testing::preset("tiny"), "lru");
  const ChipParams &p = f.p;
  const uint64_t line = p.sram.line_bytes;
  const uint64_t set_stride = p.sram.size_bytes / p.sram.ways;  // same set, next tag
  double miss = f.sram.cache_access(0, 8, false, 0);
  EXPECT_EQ(f.c.value("sram.misses"), 1u);
  EXPECT_TRUE(f.sram.contains(0));
  double t = 10000;
  double hit = f.sram.cache_access(8, 8, false, t) - t;
  EXPECT_EQ(f.c.value("sram.hits"), 1u);
  EXPECT_LT(hit, miss);  // a hit does not go to DRAM
  EXPECT_EQ(f.c.value("dram.ch[0].accesses") + f.c.value("dram.ch[1].accesses"), 1u);
  // Fill the set: ways lines in total, then one more evicts the LRU (line 0
  // was used last at t=10000, line 1*stride is the oldest after the refresh).
  for (uint32_t w = 1; w < p.sram.ways; ++w)
    f.sram.cache_access(w * set_stride, 8, w == 1, 20000 + w);
  f.sram.cache_access(0, 8, false, 30000);  // touch line 0 again
  f.sram.cache_access(p.sram.ways * set_stride, 8, false, 40000);
  EXPECT_EQ(f.c.value("sram.evictions"), 1u);
  EXPECT_TRUE(f.sram.contains(0));
  EXPECT_FALSE(f.sram.contains(1 * set_stride));  // oldest, and dirty
  EXPECT_EQ(f.c.value("sram.writebacks"), 1u);
  (void)line;
}

TEST(Sram, FullLineWriteAllocatesWithoutFetch) {
  SramFixture f(testing::preset("tiny"), "wfull");
  f.sram.cache_access(0, f.p.sram.line_bytes, true, 0);
  EXPECT_EQ(f.c.value("sram.misses"), 1u);
  EXPECT_EQ(f.c.value("dram.ch[0].accesses") + f.c.value("dram.ch[1].accesses"), 0u);
}

TEST(Sram, HostWriteDropsCachedLinesOfItsRangeOnly) {
  SramFixture f(testing::preset("tiny"), "hostw");
  const uint64_t lb = f.p.sram.line_bytes, base = f.p.map.dram_base;
  for (uint64_t i = 0; i < 4; ++i) f.sram.cache_access(i * lb, 8, true, double(i));
  f.sram.host_wrote(base + lb + 1, lb);  // touches lines 1 and 2
  EXPECT_TRUE(f.sram.contains(0));
  EXPECT_FALSE(f.sram.contains(lb));
  EXPECT_FALSE(f.sram.contains(2 * lb));
  EXPECT_TRUE(f.sram.contains(3 * lb));
  // A copy larger than the whole cache takes the tag-scan path.
  f.sram.host_wrote(base, f.p.sram.size_bytes * 2);
  EXPECT_FALSE(f.sram.contains(0));
  EXPECT_FALSE(f.sram.contains(3 * lb));
  // The next read of line 0 misses and goes to DRAM again.
  f.sram.cache_access(0, 8, false, 100);
  EXPECT_EQ(f.c.value("sram.misses"), 5u);
}

TEST(Sram, SameBankConflictsAndDifferentBanksDoNot) {
  SramFixture f(testing::preset("tiny"), "banks");
  const ChipParams &p = f.p;
  const uint64_t line = p.sram.line_bytes;
  // Another line of bank 0 (line 0's), and line 1 in bank 1.
  uint64_t same = 1;
  while (f.sram.bank_of(same) != 0) ++same;
  ASSERT_EQ(f.sram.bank_of(1), 1u);
  // Warm two lines in bank 0 and one in bank 1.
  f.sram.cache_access(0, line, true, 0);
  f.sram.cache_access(same * line, line, true, 0);
  f.sram.cache_access(line, line, true, 0);
  uint64_t before0 = f.c.value("sram.bank[0].conflict_cycles");
  uint64_t before1 = f.c.value("sram.bank[1].conflict_cycles");
  double t = 1e6;
  f.sram.cache_access(0, line, false, t);
  f.sram.cache_access(line, line, false, t);         // bank 1: free
  f.sram.cache_access(same * line, line, false, t);  // bank 0 again: waits
  EXPECT_EQ(f.c.value("sram.bank[1].conflict_cycles"), before1);
  EXPECT_EQ(f.c.value("sram.bank[0].conflict_cycles") - before0,
            line / p.sram.bank_bytes_per_cycle);
}

// Each aligned group of `banks` lines visits every bank once, and the rows of
// a tile with a power-of-two row stride (4 KiB: a 2048-wide bf16 matrix)
// spread over the banks instead of all falling in the same one.
TEST(Sram, PowerOfTwoStridesSpreadOverTheBanks) {
  SramFixture f(testing::preset("mtia-2i"), "hash");
  const uint64_t n = f.p.sram.banks, line = f.p.sram.line_bytes;
  for (uint64_t group : {0, 1, 33, 100000}) {
    std::set<uint32_t> seen;
    for (uint64_t i = 0; i < n; ++i) seen.insert(f.sram.bank_of(group * n + i));
    EXPECT_EQ(seen.size(), n) << "group " << group;
  }
  for (uint64_t stride : {uint64_t(n * line), uint64_t(4096), uint64_t(8192)}) {
    std::set<uint32_t> seen;
    for (uint64_t r = 0; r < 128; ++r) seen.insert(f.sram.bank_of((r * stride + 128) / line));
    EXPECT_GE(seen.size(), n / 2) << "stride " << stride;
  }
  // The bank counters follow bank_of: a line of the same bank conflicts.
  const uint64_t a = 5 * n * line;
  f.sram.cache_access(a, line, true, 0);
  uint32_t b = f.sram.bank_of(a / line);
  uint64_t busy = f.c.value("sram.bank[" + std::to_string(b) + "].busy_cycles");
  EXPECT_GT(busy, 0u);
}

TEST(Sram, ScratchModeIsAnAddressableWindow) {
  SramFixture f(testing::preset("tiny", {"sram.mode=scratch"}), "scratch");
  const ChipParams &p = f.p;
  Initiator init("init_scratch");
  init.socket.bind(f.sram.socket);
  uint8_t data[8] = {9, 8, 7, 6, 5, 4, 3, 2}, back[8] = {};
  tlm::tlm_generic_payload tr;
  tr.set_command(tlm::TLM_WRITE_COMMAND);
  tr.set_address(p.map.sram_base + 100);
  tr.set_data_ptr(data);
  tr.set_data_length(8);
  tr.set_streaming_width(8);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  init.socket->b_transport(tr, d);
  EXPECT_TRUE(tr.is_response_ok());
  tr.set_command(tlm::TLM_READ_COMMAND);
  tr.set_data_ptr(back);
  init.socket->b_transport(tr, d);
  EXPECT_EQ(std::memcmp(back, data, 8), 0);
  tr.set_address(p.map.sram_base + p.sram.size_bytes - 4);
  init.socket->b_transport(tr, d);
  EXPECT_EQ(tr.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(f.c.value("sram.misses"), 0u);
}

}  // namespace
}  // namespace opforge::model
