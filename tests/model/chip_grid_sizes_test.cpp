//===- chip_grid_sizes_test.cpp - corner grids and local memories run -----===//
//
// Issue 22: grids over 64 PEs failed at load (fixed local-memory windows ran
// into DRAM). The corner configs of a 1x1..32x32, 64 KiB..4 MiB sweep build a
// device and run a program on every PE (DMA through its local memory) and a
// DMA from PE 0 into the last PE's window, in functional timing.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using testing::CmdList;

struct Corner {
  const char *name;
  const char *preset;
  std::vector<std::string> sets;
};

class ChipGridSizes : public ::testing::TestWithParam<Corner> {};

TEST_P(ChipGridSizes, EveryPeRunsAndTheLastPeWindowIsReachable) {
  std::vector<std::string> sets = GetParam().sets;
  sets.push_back("simulation.timing_mode=functional");
  ChipParams p = testing::preset(GetParam().preset, sets);
  Device dev(p);
  const uint64_t n = 256;
  auto in = testing::pattern(n, 7);
  uint64_t src = dev.alloc(n), dst = dev.alloc(n), back = dev.alloc(n);
  dev.copy_in(src, in.data(), n);

  // Every PE: DRAM -> its own local memory (top of the alias) -> DRAM.
  uint64_t local = p.map.local_alias_base + p.local_mem.size_bytes - 4096;
  CmdList all;
  all.dma({src, local, n, 1, 0, 0, 1}).dma_wait(1).dma({local, dst, n, 1, 0, 0, 2}).dma_wait(2);
  LaunchResult r = dev.launch(all.launch({p.num_pes(), 1, 1}));
  ASSERT_TRUE(r.ok()) << r.traps.front();
  std::vector<uint8_t> out(n);
  dev.copy_out(dst, out.data(), n);
  EXPECT_EQ(out, in);
  const uint32_t last = p.num_pes() - 1;
  const std::string last_pe = pe_prefix(last / p.grid.cols, last % p.grid.cols);
  EXPECT_EQ(dev.counter(last_pe + ".core.programs"), 1u);
  EXPECT_EQ(dev.counter(last_pe + ".dma.bytes_read"), 2 * n);

  // PE 0 -> the last PE's window (its last bytes) -> DRAM; the host reads it too.
  uint64_t remote = p.map.local_window_base + uint64_t(last) * p.map.local_window_stride +
                    p.local_mem.size_bytes - n;
  CmdList one;
  one.dma({src, remote, n, 1, 0, 0, 3}).dma_wait(3).dma({remote, back, n, 1, 0, 0, 4}).dma_wait(4);
  r = dev.launch(one.launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  dev.copy_out(back, out.data(), n);
  EXPECT_EQ(out, in);
  std::vector<uint8_t> direct(n);
  dev.copy_out(remote, direct.data(), n);
  EXPECT_EQ(direct, in);
}

INSTANTIATE_TEST_SUITE_P(
    Corners, ChipGridSizes,
    ::testing::Values(Corner{"Grid1x1", "tiny", {"pe_grid.rows=1", "pe_grid.cols=1"}},
                      Corner{"Grid8x16", "mtia-2i", {"pe_grid.rows=8", "pe_grid.cols=16"}},
                      Corner{"Grid32x32", "tiny", {"pe_grid.rows=32", "pe_grid.cols=32"}},
                      Corner{"Local64KiB", "mtia-2i", {"pe.local_mem.size_bytes=64KiB"}},
                      Corner{"Local4MiB", "mtia-2i", {"pe.local_mem.size_bytes=4MiB"}},
                      Corner{
                          "Grid32x32Local4MiB",
                          "mtia-2i",
                          {"pe_grid.rows=32", "pe_grid.cols=32", "pe.local_mem.size_bytes=4MiB"}},
                      Corner{"Grid1x1Local4MiBScratchSram",
                             "tiny",
                             {"pe_grid.rows=1", "pe_grid.cols=1", "pe.local_mem.size_bytes=4MiB",
                              "sram.mode=scratch"}}),
    [](const ::testing::TestParamInfo<Corner> &i) { return std::string(i.param.name); });

}  // namespace
}  // namespace opforge::model
