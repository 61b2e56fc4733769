//===- energy_config_test.cpp - energy/area config fields, units and sums -===//
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opforge/support/arch_config.h"
#include "opforge/support/error.h"
#include "opforge/support/units.h"

namespace {

using namespace opforge;
using nlohmann::json;
using units::Dimension;

std::string document_error(const json &doc) {
  try {
    ArchConfig::from_document(doc, "bad.json");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

std::string load_error(const std::vector<std::string> &overrides) {
  try {
    ArchConfig::load("tiny", overrides);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(EnergyUnits, ParseIntoPicojoulesMilliwattsAndSquareMillimetres) {
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Energy, "0.9 pJ"), 0.9);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Energy, "1.3nJ"), 1300);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Energy, "40fJ"), 0.04);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Energy, "2.5"), 2.5);  // bare: pJ
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Power, "12 mW"), 12);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Power, "1.5W"), 1500);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Power, "250uW"), 0.25);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Area, "0.05 mm2"), 0.05);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Area, "0.05mm^2"), 0.05);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Area, "500um2"), 0.0005);
  EXPECT_DOUBLE_EQ(units::parse_in_canonical_unit(Dimension::Area, "1cm2"), 100);
  EXPECT_EQ(units::format_canonical(Dimension::Energy, 0.3), "0.3pJ");
  EXPECT_EQ(units::format_canonical(Dimension::Power, 12), "12mW");
  EXPECT_EQ(units::format_canonical(Dimension::Area, 2.2), "2.2mm2");
}

TEST(EnergyUnits, WrongUnitsAreRejectedNamingTheUnit) {
  EXPECT_THROW(units::parse_in_canonical_unit(Dimension::Energy, "12 mW"), Error);
  EXPECT_THROW(units::parse_in_canonical_unit(Dimension::Power, "0.9 pJ"), Error);
  EXPECT_THROW(units::parse_in_canonical_unit(Dimension::Area, "3 MiB"), Error);
  EXPECT_THROW(units::parse_in_canonical_unit(Dimension::Energy, "-1pJ"), Error);
  try {
    units::parse_in_canonical_unit(Dimension::Energy, "12 mW");
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("unknown unit 'mW'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pJ"), std::string::npos) << e.what();
  }
}

TEST(EnergyConfig, WrongUnitsInAFileNameTheField) {
  std::string e = document_error({{"energy", {{"sram_pj_per_byte", "3 mW"}}}});
  EXPECT_NE(e.find("bad.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/energy/sram_pj_per_byte"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown unit 'mW'"), std::string::npos) << e;

  e = document_error({{"energy", {{"static_power", {{"core_mw", "8pJ"}}}}}});
  EXPECT_NE(e.find("/energy/static_power/core_mw"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown unit 'pJ'"), std::string::npos) << e;

  e = document_error({{"area", {{"dpe_mm2", "2.2 mW"}}}});
  EXPECT_NE(e.find("/area/dpe_mm2"), std::string::npos) << e;

  e = document_error({{"area", {{"sram_mm2_per_mib", -0.3}}}});
  EXPECT_NE(e.find("/area/sram_mm2_per_mib"), std::string::npos) << e;
  EXPECT_NE(e.find("negative"), std::string::npos) << e;

  e = document_error({{"energy", {{"dram_pj_per_byte", true}}}});
  EXPECT_NE(e.find("/energy/dram_pj_per_byte"), std::string::npos) << e;

  e = document_error({{"energy", {{"mac_fp8_pj", "0.1pJ"}}}});
  EXPECT_NE(e.find("/energy/mac_fp8_pj"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown field"), std::string::npos) << e;
}

TEST(EnergyConfig, WrongUnitsInAnOverrideNameTheKey) {
  std::string e = load_error({"energy.dram_pj_per_byte=40mm2"});
  EXPECT_NE(e.find("energy.dram_pj_per_byte"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown unit 'mm2'"), std::string::npos) << e;
  e = load_error({"area.other_mm2=3W"});
  EXPECT_NE(e.find("area.other_mm2"), std::string::npos) << e;
  e = load_error({"energy.static_power.other_mw=1J"});
  EXPECT_NE(e.find("energy.static_power.other_mw"), std::string::npos) << e;
  // Units convert: 1 nJ is 1000 pJ, 2 W is 2000 mW; the unit suffix may be dropped.
  ArchConfig c = ArchConfig::load(
      "tiny", {"energy.dram_pj_per_byte=1nJ", "energy.static_power.other=2W", "area.dpe=50um2"});
  EXPECT_DOUBLE_EQ(c.energy.dram_pj_per_byte, 1000);
  EXPECT_DOUBLE_EQ(c.energy.static_power.other_mw, 2000);
  EXPECT_DOUBLE_EQ(c.area.dpe_mm2, 5e-5);
}

TEST(EnergyConfig, ResolvedConfigRoundTripsTheNewSections) {
  ArchConfig c = ArchConfig::load("mtia-v1");
  json j = c.to_json();
  EXPECT_DOUBLE_EQ(j["energy"]["mac_fp16_pj"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(j["energy"]["static_power"]["other_mw"].get<double>(), 1500);
  EXPECT_DOUBLE_EQ(j["area"]["sram_mm2_per_mib"].get<double>(), 0.41);
  EXPECT_EQ(ArchConfig::from_json(j).to_json(), j);
  EXPECT_DOUBLE_EQ(c.mac_energy_pj(DType::Int8), 0.06);
  EXPECT_DOUBLE_EQ(c.mac_energy_pj(DType::Float32), 0.92);
}

TEST(EnergyConfig, AreaAndStaticPowerAreTheHandComputedSums) {
  // tiny: 2x2 PEs, 1 DMA engine, 64 KiB local memory, 1 MiB SRAM, 2 DRAM channels.
  ArchConfig c = ArchConfig::load("tiny", {"area.pe_core_mm2=1",
                                           "area.vector_mm2=2",
                                           "area.dpe_mm2=4",
                                           "area.sfu_mm2=8",
                                           "area.dma_engine_mm2=16",
                                           "area.local_mem_mm2_per_kib=0.001",
                                           "area.sram_mm2_per_mib=0.5",
                                           "area.noc_router_mm2=32",
                                           "area.dram_ctrl_mm2=64",
                                           "area.other_mm2=100",
                                           "energy.static_power.core_mw=1",
                                           "energy.static_power.vector_mw=2",
                                           "energy.static_power.dpe_mw=4",
                                           "energy.static_power.sfu_mw=8",
                                           "energy.static_power.dma_engine_mw=16",
                                           "energy.static_power.local_mem_mw_per_kib=0.5",
                                           "energy.static_power.sram_mw_per_mib=3",
                                           "energy.static_power.noc_router_mw=32",
                                           "energy.static_power.dram_phy_mw=64",
                                           "energy.static_power.other_mw=1W"});
  ASSERT_EQ(c.num_pes(), 4u);
  ASSERT_EQ(c.pe.dma.engines, 1u);
  ASSERT_EQ(c.pe.local_mem.size_bytes, 64u << 10);
  ASSERT_EQ(c.sram.size_bytes, 1u << 20);
  ASSERT_EQ(c.dram.channels, 2u);
  EXPECT_NEAR(c.area_mm2(), 4 * (1 + 2 + 4 + 8 + 16 + 0.064 + 32) + 0.5 + 2 * 64 + 100, 1e-9);
  EXPECT_NEAR(c.static_power_mw(), 4 * (1 + 2 + 4 + 8 + 16 + 32 + 32) + 3 + 2 * 64 + 1000, 1e-9);
  // Memory sizes scale their share.
  ArchConfig big = ArchConfig::load("tiny", {"sram.size_bytes=2MiB", "area.sram_mm2_per_mib=0.5"});
  ArchConfig small = ArchConfig::load("tiny", {"area.sram_mm2_per_mib=0.5"});
  EXPECT_NEAR(big.area_mm2() - small.area_mm2(), 0.5, 1e-9);
}

TEST(EnergyConfig, PresetsMatchThePublishedDieAreaAndStayUnderTdp) {
  // Calibration targets cited in the presets' sources (meta-blog-2024 spec table).
  ArchConfig two_i = ArchConfig::load("mtia-2i");
  EXPECT_NEAR(two_i.area_mm2(), 421, 421 * 0.01);
  EXPECT_LT(two_i.static_power_mw(), 90e3 * 0.3);  // well under the 90 W TDP
  ArchConfig v1 = ArchConfig::load("mtia-v1");
  EXPECT_NEAR(v1.area_mm2(), 373, 373 * 0.01);
  EXPECT_LT(v1.static_power_mw(), 25e3 * 0.35);  // 25 W TDP
  // The schema defaults are the mtia-2i figures.
  ArchConfig defaults;
  EXPECT_DOUBLE_EQ(defaults.area_mm2(), two_i.area_mm2());
  EXPECT_DOUBLE_EQ(defaults.static_power_mw(), two_i.static_power_mw());
  EXPECT_DOUBLE_EQ(defaults.energy.sram_pj_per_byte, two_i.energy.sram_pj_per_byte);
  // Every energy and area field of every preset is set and not negative.
  for (const char *preset : {"mtia-2i", "mtia-v1", "tiny"}) {
    json j = ArchConfig::load(preset).to_json();
    for (const char *section : {"energy", "area"}) {
      json flat = j[section].flatten();
      EXPECT_GE(flat.size(), 10u) << preset << " " << section;
      for (const auto &leaf : flat.items())
        EXPECT_GE(leaf.value().get<double>(), 0) << preset << " " << section << leaf.key();
    }
  }
}

}  // namespace
