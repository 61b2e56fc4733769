//===- chip_vec_busy_test.cpp - vec.busy_cycles and stalls via hpmcounters ===//
#include <gtest/gtest.h>

#include <cstring>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(ChipVecBusy, VectorBeatsAreCountedAndReadableByTheGuest) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  const uint64_t iters = 100, dma_bytes = 4096;
  uint64_t out = dev.alloc(24), src = dev.alloc(dma_bytes);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("vec_busy"));
  uint64_t args[4] = {out, iters, src, dma_bytes};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  LaunchResult r = dev.launch(k);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  uint64_t got[3] = {};
  dev.copy_out(out, got, sizeof got);
  // e32/m8: VLMAX = 8 * VLEN / 32 elements in beats of lanes x 32 bits.
  const uint64_t vlmax = 8 * p.core.vlen_bits / 32;
  const uint64_t beats = vlmax / p.core.vec_lanes;
  const uint64_t per_insn = beats * p.arch.pe.vector_timing.fp_add_cycles;
  EXPECT_EQ(got[0], iters * per_insn) << "guest-visible vec.busy_cycles over the loop";
  // Two vmv.v.i before the loop (integer ALU class) plus the loop.
  const uint64_t total = iters * per_insn + 2 * beats * p.arch.pe.vector_timing.int_alu_cycles;
  EXPECT_EQ(got[2], total);
  EXPECT_EQ(dev.counter("pe[0][0].vec.busy_cycles"), total);
  // The DMA wait stalled the core for at least the transfer at DRAM bandwidth,
  // and the guest saw exactly the stall the registry counted.
  const double dram_bytes_per_cycle = p.arch.dram.bandwidth_gbps / p.clock.freq_ghz;
  EXPECT_GE(double(got[1]), dma_bytes / dram_bytes_per_cycle);
  EXPECT_EQ(got[1], dev.counter("pe[0][0].stall.dma_wait_cycles"));
  // Other PEs did nothing.
  EXPECT_EQ(dev.counter("pe[1][1].vec.busy_cycles"), 0u);
}

TEST(ChipVecBusy, FunctionalModeCountsNoBusyTime) {
  ChipParams p = testing::preset("tiny", {"simulation.timing_mode=functional"});
  Device dev(p);
  uint64_t out = dev.alloc(24), src = dev.alloc(256);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("vec_busy"));
  uint64_t args[4] = {out, 10, src, 256};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  LaunchResult r = dev.launch(k);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  EXPECT_EQ(dev.counter("pe[0][0].vec.busy_cycles"), 0u);
  EXPECT_EQ(dev.counter("pe[0][0].stall.dma_wait_cycles"), 0u);
}

}  // namespace
}  // namespace opforge::model
