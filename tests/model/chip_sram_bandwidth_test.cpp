//===- chip_sram_bandwidth_test.cpp - SRAM streams stay within their bounds ===//
//
// Every PE of the tiny chip streams from the SRAM scratch window into its
// local memory. However the bursts interleave, the stream can never beat the
// configured SRAM bandwidth nor any row's memory port (each port carries the
// read data of its row), and the bank and port busy counters account for
// exactly the bytes they carried.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using testing::CmdList;

// Per PE: kChunks rows of kChunkBytes (long enough that the stream, not the
// program's start, fills most of the run).
constexpr uint64_t kChunkBytes = 8192, kChunks = 16;

struct StreamRun {
  ChipParams p;
  LaunchResult r;
  double span_cycles = 0;                  // first instance start to last end
  std::vector<uint64_t> port_busy_cycles;  // per row
  uint64_t bank_busy_total_cycles = 0, bank_busy_max_cycles = 0;
  uint64_t bytes_read = 0;
};

StreamRun stream_from_sram(std::vector<std::string> sets) {
  sets.push_back("sram.mode=scratch");
  StreamRun s;
  s.p = testing::preset("tiny", sets);
  Device dev(s.p);
  CmdList cl;
  // One command (the test kernel reads each command from DRAM): kChunks rows
  // of the SRAM window, all into the same local buffer.
  cl.dma({s.p.map.sram_base, s.p.map.local_alias_base, kChunkBytes, kChunks, int64_t(kChunkBytes),
          0, 1});
  cl.dma_wait(1);
  s.r = dev.launch(cl.launch({s.p.num_pes(), 1, 1}));
  EXPECT_TRUE(s.r.ok()) << (s.r.traps.empty() ? "" : s.r.traps.front());
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto &i : s.r.instances) {
    first = std::min(first, i.start_cycle);
    last = std::max(last, i.end_cycle);
  }
  s.span_cycles = double(last - first);
  for (uint32_t row = 0; row < s.p.grid.rows; ++row)
    s.port_busy_cycles.push_back(
        dev.counter("noc.link[" + std::to_string(row) + "][0].mem.busy_cycles"));
  for (uint32_t b = 0; b < s.p.sram.banks; ++b) {
    uint64_t busy = dev.counter("sram.bank[" + std::to_string(b) + "].busy_cycles");
    s.bank_busy_total_cycles += busy;
    s.bank_busy_max_cycles = std::max(s.bank_busy_max_cycles, busy);
  }
  s.bytes_read = dev.counter("sram.bytes_read");
  return s;
}

// The bounds every run must respect, and the counters that prove the
// traffic went where the bounds apply.
void expect_within_bounds(const StreamRun &s) {
  const uint64_t per_pe = kChunkBytes * kChunks;
  const uint64_t total = per_pe * s.p.num_pes(), per_port = per_pe * s.p.grid.cols;
  const double sram_bytes_per_cycle = s.p.sram.bank_bytes_per_cycle * s.p.sram.banks;
  const double port_bytes_per_cycle = s.p.noc.link_bytes_per_cycle;
  ASSERT_EQ(s.bytes_read, total);
  // Time: no faster than the SRAM, no faster than any port.
  EXPECT_GE(s.span_cycles, double(total) / sram_bytes_per_cycle);
  EXPECT_GE(s.span_cycles, double(per_port) / port_bytes_per_cycle);
  // Occupancy: the banks were busy for exactly the bytes over their rate and
  // no bank longer than the run; each port carried its row's stream (plus
  // the instances' few code and argument bytes) within the run.
  const double bank_cycles = double(total) / s.p.sram.bank_bytes_per_cycle;
  EXPECT_NEAR(double(s.bank_busy_total_cycles), bank_cycles, s.p.sram.banks);
  EXPECT_LE(double(s.bank_busy_max_cycles), s.span_cycles);
  const double port_cycles = double(per_port) / port_bytes_per_cycle;
  for (uint64_t busy : s.port_busy_cycles) {
    EXPECT_GE(double(busy), port_cycles - 1);
    EXPECT_LE(double(busy), port_cycles * 1.05);
    EXPECT_LE(double(busy), s.span_cycles);
  }
}

TEST(ChipSramBandwidth, StreamNeverBeatsSramOrPortsWhenTheyAreEven) {
  // tiny: 2 ports x 32 GB/s = the SRAM's 64 GB/s.
  expect_within_bounds(stream_from_sram({}));
}

TEST(ChipSramBandwidth, NarrowPortsBoundTheStream) {
  // 2 ports x 16 GB/s < the SRAM's 64 GB/s: the ports set the pace.
  StreamRun s = stream_from_sram({"noc.link_bandwidth_gbps=16"});
  expect_within_bounds(s);
  const double port_cycles = double(kChunkBytes * kChunks * s.p.grid.cols) / s.p.noc.link_bytes_per_cycle;
  EXPECT_GE(s.span_cycles, port_cycles);
}

TEST(ChipSramBandwidth, WidePortsLeaveTheSramAsTheBound) {
  // 2 ports x 128 GB/s > the SRAM's 64 GB/s; PEs' DMA engines at 128 GB/s.
  StreamRun s = stream_from_sram({"noc.link_bandwidth_gbps=128", "pe.dma.bandwidth_gbps=128"});
  expect_within_bounds(s);
  const double sram_cycles = double(kChunkBytes * kChunks * s.p.num_pes()) /
                             (s.p.sram.bank_bytes_per_cycle * s.p.sram.banks);
  EXPECT_GE(s.span_cycles, sram_cycles);
  // Faster than the 16 GB/s ports of the narrow run could carry: the wide
  // ports are used.
  const double narrow_port_bytes_per_cycle = 16.0 / s.p.clock.freq_ghz;
  EXPECT_LT(s.span_cycles,
            double(kChunkBytes * kChunks * s.p.grid.cols) / narrow_port_bytes_per_cycle);
}

// Runs in a child process (one Device per process): the stream with the
// quantum in MODEL_SRAM_QUANTUM, its cycles and busy counters to
// MODEL_SRAM_OUT. Skipped when run directly.
TEST(ChipSramBandwidthChild, Stream) {
  const char *q = std::getenv("MODEL_SRAM_QUANTUM"), *out = std::getenv("MODEL_SRAM_OUT");
  if (!q || !out) GTEST_SKIP() << "child of TimingDoesNotDependOnTheQuantum";
  StreamRun s = stream_from_sram({std::string("simulation.quantum_cycles=") + q});
  std::ofstream f(out);
  f << s.r.cycles << " " << s.span_cycles << " " << s.bank_busy_total_cycles;
  for (uint64_t b : s.port_busy_cycles) f << " " << b;
  f << "\n";
}

std::string run_child(const std::string &quantum) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string file = ::testing::TempDir() + "sram_quantum_" + quantum + ".txt";
  std::string cmd = "MODEL_SRAM_QUANTUM=" + quantum + " MODEL_SRAM_OUT=" + file + " " +
                    std::string(buf, size_t(n)) +
                    " --gtest_filter=ChipSramBandwidthChild.Stream >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return "";
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Loosely timed: PEs book the ports and banks in the order their quanta run,
// so the quantum may move the timing a little, never past the bounds.
TEST(ChipSramBandwidth, QuantumMovesTheTimingByLittle) {
  std::string a = run_child("1000"), b = run_child("7919");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  double ca = std::stod(a), cb = std::stod(b);
  EXPECT_LT(std::abs(ca - cb), 0.1 * std::min(ca, cb)) << a << " vs " << b;
}

}  // namespace
}  // namespace opforge::model
