//===- unit_params_test.cpp - the model's parameters come from ArchConfig -===//
#include <gtest/gtest.h>

#include "opforge/model/memory_map.h"
#include "opforge/model/pe.h"
#include "opforge/support/error.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(Params, PresetsLoadWithThePublicFigures) {
  ChipParams p = load_params("mtia-2i");
  EXPECT_EQ(p.name, "mtia-2i");
  EXPECT_EQ(p.num_pes(), 64u);
  EXPECT_DOUBLE_EQ(p.clock.freq_ghz, 1.35);
  EXPECT_EQ(p.local_mem.size_bytes, 384u * 1024);
  EXPECT_NEAR(p.dram.channels * p.dram.channel_gbps, 204.8, 1e-9);
  // 177 TFLOPS bf16 and 354 TOPS int8 over 64 PEs at 1.35 GHz.
  EXPECT_NEAR(2.0 * p.dpe.macs_per_cycle_bf16 * 64 * 1.35e9 / 1e12, 177, 177 * 0.01);
  EXPECT_NEAR(2.0 * p.dpe.macs_per_cycle_int8 * 64 * 1.35e9 / 1e12, 354, 354 * 0.01);
  EXPECT_EQ(load_params("tiny").num_pes(), 4u);
  EXPECT_EQ(load_params("mtia-v1").local_mem.size_bytes, 128u * 1024);
}

TEST(Params, BandwidthsBecomeBytesPerCycleOfTheArchConfig) {
  ArchConfig a = ArchConfig::load("mtia-2i");
  ChipParams p = params_from(a);
  EXPECT_DOUBLE_EQ(p.local_mem.bank_bytes_per_cycle * p.local_mem.banks,
                   a.pe.local_mem.bandwidth_gbps / a.clock_ghz);
  EXPECT_DOUBLE_EQ(p.sram.bank_bytes_per_cycle * p.sram.banks, a.sram.bandwidth_gbps / a.clock_ghz);
  EXPECT_DOUBLE_EQ(p.dma.bytes_per_cycle, a.pe.dma.bandwidth_gbps / a.clock_ghz);
  EXPECT_DOUBLE_EQ(p.noc.link_bytes_per_cycle, a.noc.link_bandwidth_gbps / a.clock_ghz);
  EXPECT_DOUBLE_EQ(p.dram.channel_gbps * p.dram.channels, a.dram.bandwidth_gbps);
  EXPECT_EQ(p.cp.program_start_cycles, a.command_processor.dispatch_latency_cycles);
  EXPECT_EQ(p.map.dram_base, a.memory_map.dram_base);
  EXPECT_EQ(p.dma.burst_bytes, a.pe.dma.burst_bytes);
  // The resolved config the model writes beside results is ArchConfig's.
  EXPECT_EQ(p.arch.to_json(), a.to_json());
}

TEST(Params, OverridesUseArchConfigNames) {
  ChipParams p = load_params("tiny", {"dram.channels=4", "pe.dma.engines=3",
                                      "simulation.timing_mode=functional", "pe_grid.rows=3"});
  EXPECT_EQ(p.dram.channels, 4u);
  EXPECT_EQ(p.dma.engines, 3u);
  EXPECT_EQ(p.sim.timing, TimingMode::Functional);
  EXPECT_EQ(p.grid.rows, 3u);
  EXPECT_THROW(load_params("tiny", {"dram.nope=3"}), Error);
  EXPECT_THROW(load_params("tiny", {"novalue"}), Error);
  EXPECT_THROW(load_params("no-such-preset"), Error);
}

TEST(Params, ErrorsNameTheField) {
  auto expect_error = [](const std::vector<std::string> &sets, const std::string &path) {
    try {
      load_params("tiny", sets);
      ADD_FAILURE() << "accepted " << sets.front();
    } catch (const Error &e) {
      EXPECT_EQ(e.context().path, path) << e.what();
      EXPECT_NE(e.context().file.find("tiny"), std::string::npos) << e.what();
    }
  };
  // A bad --set value names the key it came from.
  for (const char *set : {"sram.mode=magic", "clock_ghz=-1"}) {
    try {
      load_params("tiny", {set});
      ADD_FAILURE() << "accepted " << set;
    } catch (const Error &e) {
      std::string key = std::string(set).substr(0, std::string(set).find('='));
      EXPECT_NE(std::string(e.what()).find("key '" + key + "'"), std::string::npos) << e.what();
    }
  }
  expect_error({"memory_map.local_alias_base=536870912", "memory_map.dram_base=536870912"},
               "/memory_map/dram_base");
  expect_error({"memory_map.local_window_stride_bytes=4096"},
               "/memory_map/local_window_stride_bytes");
  expect_error({"pe.local_mem.interleave_bytes=48"}, "/pe/local_mem/interleave_bytes");
  // Windows that cannot fit in the guest address space (unit_memory_layout_test has more).
  expect_error({"pe_grid.rows=256", "pe_grid.cols=256", "pe.local_mem.size_bytes=1TiB"},
               "/pe/local_mem/size_bytes");
  try {
    load_params("tiny", {"pe.vector.vlen_bits=64", "pe.vector.lanes=2"});
    ADD_FAILURE() << "accepted VLEN 64";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "/pe/vector/vlen_bits") << e.what();
  }
}

TEST(Params, IssCostTableComesFromTheTimingClasses) {
  ChipParams p = load_params(
      "mtia-2i", {"pe.scalar_timing.int_div_cycles=33", "pe.vector_timing.fp_div_cycles=7",
                  "pe.vector_timing.startup_cycles=3"});
  isa::CostModel m = Pe::cost_model(p);
  EXPECT_EQ(m.div_cycles, 33u);
  EXPECT_EQ(m.vec_fdiv_beat_cycles, 7u);
  EXPECT_EQ(m.vec_issue_cycles, 3u);
  EXPECT_EQ(m.vec_datapath_bits, p.arch.pe.vector.lanes * 32);
  EXPECT_EQ(m.load_cycles, p.arch.pe.scalar_timing.load_cycles);
  // Functional mode: one cycle per instruction, whatever the config says.
  ChipParams f = load_params("mtia-2i", {"simulation.timing_mode=functional"});
  EXPECT_EQ(Pe::cost_model(f).div_cycles, 1u);
}

TEST(Params, MemoryMapDecodesEveryWindowAndTheAlias) {
  ChipParams p = testing::preset("tiny", {"sram.mode=scratch"});
  MemoryMap m(p);
  const MemoryMap::Range *r =
      m.decode(p.map.local_window_base + 2 * p.map.local_window_stride + 8, 8);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->kind, MemoryMap::Kind::Local);
  EXPECT_EQ(r->pe, 2u);
  EXPECT_EQ(m.decode(p.map.sram_base, 4)->kind, MemoryMap::Kind::Sram);
  EXPECT_EQ(m.decode(p.map.dram_base + 5, 4)->kind, MemoryMap::Kind::Dram);
  EXPECT_EQ(m.decode(p.map.local_window_base + p.local_mem.size_bytes, 1), nullptr);  // gap
  EXPECT_EQ(m.decode(p.map.local_window_base + p.local_mem.size_bytes - 4, 8),
            nullptr);  // straddles
  EXPECT_EQ(m.translate(3, p.map.local_alias_base + 16), m.local_window(3) + 16);
  EXPECT_EQ(m.translate(3, p.map.dram_base), p.map.dram_base);
}

}  // namespace
}  // namespace opforge::model
