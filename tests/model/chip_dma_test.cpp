//===- chip_dma_test.cpp - DMA descriptors run by a kernel on the tiny chip ===//
#include <gtest/gtest.h>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using testing::CmdList;

TEST(ChipDma, TwoDimensionalStridedCopyThroughLocalMemory) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  const uint64_t rows = 7, row_bytes = 200, src_stride = 256, dst_stride = 320;
  uint64_t src = dev.alloc(rows * src_stride), dst = dev.alloc(rows * dst_stride);
  auto in = testing::pattern(rows * src_stride, 1);
  auto fill = testing::pattern(rows * dst_stride, 2);  // gaps must survive
  dev.copy_in(src, in.data(), in.size());
  dev.copy_in(dst, fill.data(), fill.size());
  uint64_t local = p.map.local_alias_base + 1024;
  CmdList cl;
  cl.dma({src, local, row_bytes, rows, int64_t(src_stride), int64_t(row_bytes), 1})
      .dma_wait(1)
      .dma({local, dst, row_bytes, rows, int64_t(row_bytes), int64_t(dst_stride), 2})
      .dma_wait(2);
  LaunchResult r = dev.launch(cl.launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  std::vector<uint8_t> out(rows * dst_stride);
  dev.copy_out(dst, out.data(), out.size());
  for (uint64_t row = 0; row < rows; ++row)
    for (uint64_t b = 0; b < dst_stride; ++b) {
      uint8_t want = b < row_bytes ? in[row * src_stride + b] : fill[row * dst_stride + b];
      ASSERT_EQ(out[row * dst_stride + b], want) << "row " << row << " byte " << b;
    }
  EXPECT_EQ(dev.counter("pe[0][0].dma.commands"), 2u);
  EXPECT_EQ(dev.counter("pe[0][0].dma.bytes_read"), 2 * rows * row_bytes);
  // The engine is busy at least the bytes over its bandwidth, and the launch
  // lasts at least that long.
  uint64_t min_cycles = 2 * rows * row_bytes / p.dma.bytes_per_cycle;
  EXPECT_GE(dev.counter("pe[0][0].dma.busy_cycles"), min_cycles);
  EXPECT_GE(r.cycles, min_cycles + p.cp.launch_latency_cycles);
  EXPECT_GT(dev.counter("dram.ch[0].bytes_read") + dev.counter("dram.ch[1].bytes_read"), 0u);
}

TEST(ChipDma, RemotePeLocalMemoryIsReachableOverTheNoc) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  auto in = testing::pattern(512, 3);
  uint64_t src = dev.alloc(512), dst = dev.alloc(512);
  dev.copy_in(src, in.data(), in.size());
  // PE 0 copies into PE 3's local memory window, then back out of it.
  uint64_t remote = p.map.local_window_base + 3 * p.map.local_window_stride + 4096;
  CmdList cl;
  cl.dma({src, remote, 512, 1, 0, 0, 0})
      .dma_wait(0)
      .dma({remote, dst, 512, 1, 0, 0, 1})
      .dma_wait(1);
  LaunchResult r = dev.launch(cl.launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  std::vector<uint8_t> out(512);
  dev.copy_out(dst, out.data(), out.size());
  EXPECT_EQ(out, in);
  EXPECT_EQ(dev.counter("pe[1][1].lmem.bytes_written"), 512u);
  // XY route from (0,0) to (1,1): east then south.
  EXPECT_GT(dev.counter("noc.link[0][0].east.busy_cycles"), 0u);
  EXPECT_GT(dev.counter("noc.link[0][1].south.busy_cycles"), 0u);
  EXPECT_EQ(dev.counter("noc.link[0][0].south.busy_cycles"), 0u);
}

TEST(ChipDma, UnmappedSourceIsATrapNamingTheAddress) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  uint64_t dst = dev.alloc(64);
  CmdList cl;
  cl.dma({0x40, dst, 64, 1, 0, 0, 0}).dma_wait(0);
  LaunchResult r = dev.launch(cl.launch());
  ASSERT_EQ(r.traps.size(), 1u);
  EXPECT_NE(r.traps[0].find("pe[0][0]"), std::string::npos) << r.traps[0];
  EXPECT_NE(r.traps[0].find("DMA descriptor"), std::string::npos) << r.traps[0];
  EXPECT_EQ(r.instances[0].addr, 0x40u);
  EXPECT_EQ(dev.counter("pe[0][0].dma.bad_descriptors"), 1u);
}

TEST(ChipDma, EmptyAndOverrunningDescriptorsAreTraps) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  uint64_t buf = dev.alloc(4096);
  // rows = 0
  LaunchResult r1 = dev.launch(CmdList().dma({buf, buf + 64, 64, 0, 0, 0, 0}).launch());
  ASSERT_EQ(r1.traps.size(), 1u);
  EXPECT_NE(r1.traps[0].find("empty transfer"), std::string::npos) << r1.traps[0];
  // The last row of a 2-D destination runs past the end of local memory.
  uint64_t local_end = p.map.local_alias_base + p.local_mem.size_bytes;
  LaunchResult r2 = dev.launch(CmdList().dma({buf, local_end - 256, 128, 3, 128, 128, 0}).launch());
  ASSERT_EQ(r2.traps.size(), 1u);
  EXPECT_NE(r2.traps[0].find("destination row 2"), std::string::npos) << r2.traps[0];
}

}  // namespace
}  // namespace opforge::model
