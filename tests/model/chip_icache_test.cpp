//===- chip_icache_test.cpp - per-PE instruction cache: misses, LRU, stalls ===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

// Launch kernels/<name>.elf on one PE with one u64 argument.
LaunchResult run(Device &dev, const std::string &name, uint64_t arg) {
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel(name));
  k.args.resize(8);
  std::memcpy(k.args.data(), &arg, 8);
  return dev.launch(k);
}

uint64_t delta(const LaunchResult &r, const std::string &name) {
  for (const auto &[n, v] : r.counter_deltas)
    if (n == name) return v;
  ADD_FAILURE() << "no counter " << name << " in the launch's deltas";
  return 0;
}

const std::string kPe = "pe[0][0].";

TEST(ChipICache, StraightLineCodeMissesOncePerLineAndEachMissIsOneLineFill) {
  // Scratch SRAM: code comes straight from DRAM, so every line fill costs the
  // same whatever ran before, and two launches can be compared.
  ChipParams p = testing::preset("tiny", {"sram.mode=scratch"});
  ASSERT_EQ(p.arch.pe.icache.line_bytes, 64u) << "ifetch_sled.S assumes 64-byte lines";
  Device dev(p);
  const uint64_t short_lines = 8, long_lines = 40;
  LaunchResult a = run(dev, "ifetch_sled", short_lines);
  ASSERT_TRUE(a.ok()) << a.traps.front();
  LaunchResult b = run(dev, "ifetch_sled", long_lines);
  ASSERT_TRUE(b.ok()) << b.traps.front();
  // The prologue's line, the sled lines run, and the line of the final done.
  EXPECT_EQ(delta(a, kPe + "icache.misses"), short_lines + 2);
  EXPECT_EQ(delta(b, kPe + "icache.misses"), long_lines + 2);
  // Every other instruction came from a line already fetched: one fetch each.
  EXPECT_EQ(delta(a, kPe + "icache.misses") + delta(a, kPe + "icache.hits"), a.instructions);
  EXPECT_EQ(delta(b, kPe + "icache.misses") + delta(b, kPe + "icache.hits"), b.instructions);
  // Each miss stalls the core for one line fill: at least the DRAM latency,
  // and the same for every line (one PE alone, nothing to contend with).
  const double dram_latency_cycles = p.arch.dram.latency_ns * p.clock.freq_ghz;
  const double per_miss_a = double(delta(a, kPe + "stall.ifetch_cycles")) / double(short_lines + 2);
  const double per_miss_b = double(delta(b, kPe + "stall.ifetch_cycles")) / double(long_lines + 2);
  EXPECT_GE(per_miss_a, dram_latency_cycles);
  EXPECT_NEAR(per_miss_b, per_miss_a, 0.05 * per_miss_a);
  // The stall is time the launch took: the 32 extra lines cost 32 line fills
  // plus their 512 one-cycle addi.
  const double extra_cycles = double(b.cycles) - double(a.cycles);
  const double expect_extra = double(long_lines - short_lines) * (per_miss_b + 16);
  EXPECT_NEAR(extra_cycles, expect_extra, 0.05 * expect_extra);
}

TEST(ChipICache, ALoopRunAgainCostsNoFurtherMisses) {
  // Eight ways hold the five blocks of ifetch_stride.S and its first line.
  ChipParams p = testing::preset("tiny", {"pe.icache.ways=8", "sram.mode=scratch"});
  Device dev(p);
  LaunchResult once = run(dev, "ifetch_stride", 1);
  ASSERT_TRUE(once.ok()) << once.traps.front();
  LaunchResult many = run(dev, "ifetch_stride", 100);
  ASSERT_TRUE(many.ok()) << many.traps.front();
  // The second launch starts cold again (the launch invalidates the cache)
  // and its 99 further iterations add no miss and no fetch stall.
  EXPECT_EQ(delta(once, kPe + "icache.misses"), 6u);
  EXPECT_EQ(delta(many, kPe + "icache.misses"), 6u);
  EXPECT_EQ(delta(many, kPe + "stall.ifetch_cycles"), delta(once, kPe + "stall.ifetch_cycles"));
  EXPECT_GT(delta(once, kPe + "stall.ifetch_cycles"), 0u);
}

TEST(ChipICache, BlocksConflictingInOneSetBeyondItsWaysMissEveryIteration) {
  ChipParams p = testing::preset("tiny");
  ASSERT_EQ(p.arch.pe.icache.size_bytes, 32u * 1024) << "ifetch_stride.S assumes 128 sets";
  ASSERT_EQ(p.arch.pe.icache.ways, 4u);
  Device dev(p);
  const uint64_t iters = 20;
  LaunchResult r = run(dev, "ifetch_stride", iters);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  // Five blocks in one 4-way set under LRU: each evicts the one needed next,
  // so every block misses on every iteration (plus the first line once).
  EXPECT_EQ(delta(r, kPe + "icache.misses"), 1 + 5 * iters);
  EXPECT_GE(delta(r, kPe + "stall.ifetch_cycles"),
            (1 + 5 * iters) * uint64_t(p.arch.sram.latency_cycles));
}

TEST(ChipICache, CountersAreInTheRegistryAndTheHdf5Snapshot) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  LaunchResult r = run(dev, "ifetch_sled", 4);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  const uint64_t misses = dev.counter(kPe + "icache.misses");
  const uint64_t stall = dev.counter(kPe + "stall.ifetch_cycles");
  EXPECT_EQ(misses, 6u);
  EXPECT_GT(stall, 0u);
  EXPECT_EQ(dev.counter("pe[1][1].icache.misses"), 0u) << "the other PEs ran nothing";
  std::string path = ::testing::TempDir() + "model_icache_counters.h5";
  dev.write_counters_h5(path, &r);
  std::string py = path + ".py";
  std::ofstream(py) << "import h5py, sys\n"
                       "f = h5py.File(sys.argv[1], 'r')\n"
                       "names = [n.decode() if isinstance(n, bytes) else n for n in "
                       "f['counters/names'][:]]\n"
                       "vals = dict(zip(names, f['counters/values'][:]))\n"
                       "assert vals['pe[0][0].icache.misses'] == "
                    << misses
                    << "\n"
                       "assert vals['pe[0][0].stall.ifetch_cycles'] == "
                    << stall
                    << "\n"
                       "assert 'pe[1][1].icache.hits' in vals\n";
  std::string cmd = std::string(MODEL_PYTHON3) + " " + py + " " + path;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(ChipICache, FunctionalModeFetchesWithoutTheCacheModel) {
  ChipParams p = testing::preset("tiny", {"simulation.timing_mode=functional"});
  Device dev(p);
  LaunchResult r = run(dev, "ifetch_stride", 5);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  EXPECT_EQ(dev.counter(kPe + "icache.misses"), 0u);
  EXPECT_EQ(dev.counter(kPe + "icache.hits"), 0u);
  EXPECT_EQ(dev.counter(kPe + "stall.ifetch_cycles"), 0u);
}

}  // namespace
}  // namespace opforge::model
