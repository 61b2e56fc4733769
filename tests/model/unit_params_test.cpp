//===- unit_params_test.cpp - presets, overrides and config errors --------===//
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "opforge/model/memory_map.h"
#include "opforge/support/error.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(Params, PresetsLoadWithThePublicFigures) {
  ChipParams p = load_chip_params("mtia-2i");
  EXPECT_EQ(p.num_pes(), 64u);
  EXPECT_DOUBLE_EQ(p.clock.freq_ghz, 1.35);
  EXPECT_EQ(p.local_mem.size_bytes, 384u * 1024);
  EXPECT_NEAR(p.dram.channels * p.dram.channel_gbps, 204.8, 1e-9);
  // 177 TFLOPS bf16 and 354 TOPS int8 over 64 PEs at 1.35 GHz.
  EXPECT_NEAR(2.0 * p.dpe.macs_per_cycle_bf16 * 64 * 1.35e9 / 1e12, 177, 177 * 0.01);
  EXPECT_NEAR(2.0 * p.dpe.macs_per_cycle_int8 * 64 * 1.35e9 / 1e12, 354, 354 * 0.01);
  EXPECT_EQ(load_chip_params("tiny").num_pes(), 4u);
  EXPECT_EQ(load_chip_params("mtia-v1").local_mem.size_bytes, 128u * 1024);
}

TEST(Params, ErrorsNameTheField) {
  nlohmann::json doc = nlohmann::json::parse(
      std::ifstream(std::string(OPFORGE_SOURCE_DIR) + "/model/presets/tiny.json"));
  auto expect_error = [&](nlohmann::json d, const std::string &path) {
    try {
      chip_params_from_json(d, "x.json");
      ADD_FAILURE() << "accepted " << path;
    } catch (const Error &e) {
      EXPECT_EQ(e.context().path, path) << e.what();
      EXPECT_EQ(e.context().file, "x.json");
    }
  };
  auto d1 = doc;
  d1["dram"].erase("channels");
  expect_error(d1, "/dram/channels");
  auto d2 = doc;
  d2["sram"]["mode"] = "magic";
  expect_error(d2, "/sram/mode");
  auto d3 = doc;
  d3["clock"]["freq_ghz"] = -1;
  expect_error(d3, "/clock/freq_ghz");
  auto d4 = doc;
  d4["memory_map"]["dram_base"] = doc["memory_map"]["local_window_base"];
  expect_error(d4, "/memory_map/dram_base");
  EXPECT_THROW(apply_override(doc, "dram.nope=3"), Error);
  EXPECT_THROW(apply_override(doc, "novalue"), Error);
  apply_override(doc, "dram.channels=4");
  EXPECT_EQ(chip_params_from_json(doc).dram.channels, 4u);
  EXPECT_THROW(load_chip_params("no-such-preset"), Error);
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
