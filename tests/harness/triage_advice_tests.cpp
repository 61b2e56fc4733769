// triage_advice_tests.cpp - the advice of `opforge triage` names the cause the counters show.
//
// Each case is a point's counters as the chip model reports them, shaped like
// the wrong advice of issue 22: a non-local-load stall blamed on local-memory
// banks, "add DMA engines" for engines that are busy but never full, an
// issue-bound verdict far below the issue roof, and memory-port/NoC limits
// missing from the roofline.
#include <gtest/gtest.h>

#include <string>

#include "opforge/harness/results.h"

using namespace opforge;

namespace {

constexpr uint64_t kCycles = 10000;

// A 2x2 grid of mtia-2i-like PEs with no activity; cases add counters.
harness::PointResult idle_point(const std::string &sram_mode = "cache") {
  harness::PointResult r;
  r.status = "ok";
  r.cycles = kCycles;
  r.instructions = 4000;
  r.config = {
      {"clock_ghz", 1.0},
      {"pe_grid", {{"rows", 2}, {"cols", 2}}},
      {"pe",
       {{"dma", {{"engines", 1}, {"outstanding", 8}}},
        {"dpe", {{"queue_depth", 4}, {"macs_per_cycle", {{"fp32", 256}}}}},
        {"local_mem", {{"banks", 16}, {"bandwidth_gbps", 1000.0}}},
        {"vector", {{"vlen_bits", 512}, {"lanes", 16}}},
        {"icache", {{"size_bytes", 32768}}}}},
      {"noc", {{"link_bandwidth_gbps", 64.0}, {"hop_latency_cycles", 2}, {"mem_ports_per_row", 1}}},
      {"sram",
       {{"mode", sram_mode},
        {"banks", 32},
        {"bandwidth_gbps", 2700.0},
        {"latency_cycles", 30},
        {"line_bytes", 64}}},
      {"dram", {{"channels", 4}, {"bandwidth_gbps", 64.0}, {"latency_ns", 100.0}}}};
  for (int pe = 0; pe < 4; ++pe) {
    std::string p = "pe[" + std::to_string(pe / 2) + "][" + std::to_string(pe % 2) + "].";
    for (const char *n : {"core.cycles", "core.instret", "dma.busy_cycles", "dpe.busy_cycles",
                          "sfu.busy_cycles", "lmem.conflict_cycles", "stall.mem_cycles",
                          "stall.dma_wait_cycles", "stall.dma_queue_cycles",
                          "stall.dpe_wait_cycles", "stall.dpe_queue_cycles", "stall.ifetch_cycles"})
      r.counters.emplace_back(p + n, 0);
  }
  return r;
}

void set_per_pe(harness::PointResult &r, const std::string &suffix, uint64_t v) {
  for (auto &[n, x] : r.counters)
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      x = v;
}

std::string all(const std::vector<std::string> &suggestions) {
  std::string s;
  for (const auto &x : suggestions) s += x + "\n";
  return s;
}

// 48% of the PE cycles stalled on non-local loads (DRAM, the SRAM being in
// scratch mode); local-memory bank conflicts are 0.4%.
TEST(TriageAdvice, NonLocalLoadStallSuggestsCacheModeNotLocalBanks) {
  harness::PointResult r = idle_point("scratch");
  set_per_pe(r, ".core.cycles", 9000);
  set_per_pe(r, ".stall.mem_cycles", 4800);
  set_per_pe(r, ".lmem.conflict_cycles", 40);
  r.counters.emplace_back("dram.ch[0].bytes_read", 200000);
  r.counters.emplace_back("dram.ch[0].accesses", 3000);
  r.counters.emplace_back("dram.ch[0].busy_cycles", 3000);
  r.counters.emplace_back("noc.hops", 6000);
  harness::PointAnalysis a = harness::analyze_point(r);
  std::string s = all(a.suggestions);
  ASSERT_FALSE(a.suggestions.empty());
  EXPECT_EQ(s.find("local-memory bank"), std::string::npos) << s;
  EXPECT_EQ(s.find("pe.local_mem.banks"), std::string::npos) << s;
  EXPECT_EQ(a.suggestions.front().rfind("sram.mode=cache", 0), 0u) << s;
}

// DMA engines busy (the counter even reads over 100%) but cores never wait
// for a free engine: more engines cannot help (1 -> 2 engines measured the
// same cycles in issue 22).
TEST(TriageAdvice, BusyDmaEnginesWithoutQueueStallsDoNotSuggestMoreEngines) {
  harness::PointResult r = idle_point();
  set_per_pe(r, ".core.cycles", 9500);
  set_per_pe(r, ".dma.busy_cycles", 30000);
  set_per_pe(r, ".stall.dma_wait_cycles", 3000);
  r.counters.emplace_back("dram.ch[0].bytes_read", 500000);
  r.counters.emplace_back("dram.ch[0].accesses", 2000);
  r.counters.emplace_back("dram.ch[0].busy_cycles", 8000);
  harness::PointAnalysis a = harness::analyze_point(r);
  std::string s = all(a.suggestions);
  EXPECT_EQ(s.find("engines"), std::string::npos) << s;
  // With cores waiting for a free engine, more engines are suggested.
  set_per_pe(r, ".stall.dma_queue_cycles", 6000);
  s = all(harness::analyze_point(r).suggestions);
  EXPECT_NE(s.find("pe.dma.engines=2"), std::string::npos) << s;
}

// Cores "busy" 92% of the time (stalls count as busy) but issuing at 22% of
// the issue roof: not issue-bound.
TEST(TriageAdvice, BusyCoresFarBelowTheIssueRoofAreNotIssueBound) {
  harness::PointResult r = idle_point();
  set_per_pe(r, ".core.cycles", 9200);
  r.instructions = 4 * 2200;  // 22% of one instruction per PE per cycle
  harness::PointAnalysis a = harness::analyze_point(r);
  std::string s = all(a.suggestions);
  EXPECT_EQ(s.find("issue"), std::string::npos) << s;
  EXPECT_EQ(s.find("vlen"), std::string::npos) << s;
  // At 80% of the issue roof it is.
  r.instructions = 4 * 8000;
  s = all(harness::analyze_point(r).suggestions);
  EXPECT_NE(s.find("pe.vector.vlen_bits=1024"), std::string::npos) << s;
}

// The busiest memory port is busy 51% of the cycles and is the tightest roof;
// DRAM and issue are far from theirs.
TEST(TriageAdvice, MemoryPortAndNocLinksAreRoofsAndBottlenecks) {
  harness::PointResult r = idle_point();
  set_per_pe(r, ".core.cycles", 9000);
  set_per_pe(r, ".stall.mem_cycles", 3300);
  r.counters.emplace_back("noc.link[0][0].mem.busy_cycles", 5100);
  r.counters.emplace_back("noc.link[1][0].mem.busy_cycles", 4000);
  r.counters.emplace_back("noc.link[0][1].west.busy_cycles", 2000);
  r.counters.emplace_back("noc.stall_cycles", 40000);
  r.counters.emplace_back("noc.hops", 4000);
  r.counters.emplace_back("dram.ch[0].bytes_read", 50000);
  r.counters.emplace_back("dram.ch[0].accesses", 800);
  r.counters.emplace_back("dram.ch[0].busy_cycles", 800);
  harness::PointAnalysis a = harness::analyze_point(r);
  EXPECT_EQ(a.bound, "mem_port");
  EXPECT_NEAR(a.roofline_cycles, 5100, 1e-9);
  EXPECT_NEAR(a.roofline_fraction, 0.51, 1e-9);
  std::string s = all(a.suggestions);
  // One memory port per row: a second one (the real field) is the first suggestion.
  ASSERT_FALSE(a.suggestions.empty());
  EXPECT_EQ(a.suggestions.front().rfind("noc.mem_ports_per_row=2", 0), 0u) << s;
}

}  // namespace
