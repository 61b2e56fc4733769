//===- arch_config_test.cpp - the chip parameter set and its presets ------===//
#include "opforge/support/arch_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "opforge/support/config.h"
#include "opforge/support/error.h"

using namespace opforge;
using nlohmann::json;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

std::string load_error(const std::string &name, const std::vector<std::string> &overrides = {}) {
  try {
    ArchConfig::load(name, overrides);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(ArchPresets, AllPresetsLoadAndValidate) {
  for (const char *name : {"mtia-2i", "mtia-v1", "tiny"}) {
    ArchConfig c = ArchConfig::load(name);
    EXPECT_EQ(c.name, name);
    // The resolved config is itself a valid document that reads back the same.
    json resolved = c.to_json();
    EXPECT_EQ(ArchConfig::from_document(resolved, name).to_json(), resolved) << name;
  }
}

TEST(ArchPresets, PresetDirectoryHasTheThreePresets) {
  auto names = list_presets(arch_search_dirs());
  for (const char *name : {"mtia-2i", "mtia-v1", "tiny"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(ArchPresets, Mtia2iMatchesPublicFigures) {
  ArchConfig c = ArchConfig::load("mtia-2i");
  EXPECT_DOUBLE_EQ(c.clock_ghz, 1.35);
  EXPECT_EQ(c.num_pes(), 64u);
  EXPECT_EQ(c.pe.local_mem.size_bytes, 384u * 1024);
  EXPECT_EQ(c.sram.size_bytes, 256ull << 20);
  EXPECT_DOUBLE_EQ(c.sram.bandwidth_gbps, 2700);
  EXPECT_EQ(c.dram.capacity_bytes, 128ull << 30);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth_gbps, 204.8);
  EXPECT_EQ(c.dram.channels, 16u);
  // 177 TFLOPS dense bf16/fp16, 354 TOPS int8, 2.76 TFLOPS fp32 vector, within 1%.
  EXPECT_NEAR(c.dpe_peak_flops(DType::BFloat16) / 1e12, 177, 1.77);
  EXPECT_NEAR(c.dpe_peak_flops(DType::Float16) / 1e12, 177, 1.77);
  EXPECT_NEAR(c.dpe_peak_flops(DType::Int8) / 1e12, 354, 3.54);
  EXPECT_NEAR(c.vector_peak_fp32_flops() / 1e12, 2.76, 0.0276);
  EXPECT_NEAR(c.dram_bytes_per_cycle(), 204.8 / 1.35, 1e-9);
  EXPECT_EQ(c.dpe_peak_flops(DType::Bool), 0);
}

TEST(ArchPresets, MtiaV1MatchesPublicFigures) {
  ArchConfig c = ArchConfig::load("mtia-v1");
  EXPECT_DOUBLE_EQ(c.clock_ghz, 0.8);
  EXPECT_EQ(c.num_pes(), 64u);
  EXPECT_EQ(c.pe.local_mem.size_bytes, 128u * 1024);
  EXPECT_EQ(c.sram.size_bytes, 128ull << 20);
  EXPECT_DOUBLE_EQ(c.sram.bandwidth_gbps, 800);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth_gbps, 176);
  EXPECT_NEAR(c.dpe_peak_flops(DType::Float16) / 1e12, 51.2, 0.512);
  EXPECT_NEAR(c.dpe_peak_flops(DType::Int8) / 1e12, 102.4, 1.024);
  // Inherited from mtia-2i where v1 says nothing.
  EXPECT_EQ(c.pe.scalar_timing.int_div_cycles,
            ArchConfig::load("mtia-2i").pe.scalar_timing.int_div_cycles);
}

TEST(ArchPresets, TinyIsSmall) {
  ArchConfig c = ArchConfig::load("tiny");
  EXPECT_EQ(c.pe_grid.rows, 2u);
  EXPECT_EQ(c.pe_grid.cols, 2u);
  EXPECT_LE(c.sram.size_bytes, 1ull << 20);
  EXPECT_LE(c.dram.capacity_bytes, 64ull << 20);
  EXPECT_LE(c.pe.local_mem.size_bytes, 64ull << 10);
}

TEST(ArchPresets, EveryPresetCitesSourcesAndNamesAssumptions) {
  for (const char *name : {"mtia-2i", "mtia-v1", "tiny"}) {
    json doc = load_json_file(resolve_config_path(name, arch_search_dirs()));
    ASSERT_TRUE(doc.contains("comment")) << name;
    ASSERT_TRUE(doc.contains("sources")) << name;
    EXPECT_TRUE(doc["sources"].contains("assumptions")) << name;
  }
  json v2 = load_json_file(resolve_config_path("mtia-2i", arch_search_dirs()));
  for (const char *field : {"clock_ghz", "pe_grid", "pe.local_mem.size_bytes", "sram.size_bytes",
                            "dram", "pe.dpe.macs_per_cycle", "pe.vector.lanes"})
    EXPECT_TRUE(v2["sources"].contains(field)) << field;
}

TEST(ArchConfig, DefaultArchIsMtia2i) {
  EXPECT_EQ(ArchConfig::load().to_json(), ArchConfig::load("mtia-2i").to_json());
  // The schema defaults are the mtia-2i values: an empty document is mtia-2i.
  json from_defaults = ArchConfig::from_document(json::object(), "empty").to_json();
  json preset = ArchConfig::load("mtia-2i").to_json();
  from_defaults.erase("name");
  preset.erase("name");
  EXPECT_EQ(from_defaults, preset);
}

TEST(ArchConfig, OverridesApply) {
  ArchConfig c = ArchConfig::load(
      "tiny", {"pe_grid.rows=4", "sram.size=128MiB", "sram.mode=scratch", "pe.dpe.impl=lockstep",
               "simulation.timing_mode=functional", "dram.latency=0.1us", "clock=2GHz"});
  EXPECT_EQ(c.pe_grid.rows, 4u);
  EXPECT_EQ(c.sram.size_bytes, 128ull << 20);
  EXPECT_EQ(c.sram.mode, SramMode::Scratch);
  EXPECT_EQ(c.pe.dpe.impl, UnitImpl::Lockstep);
  EXPECT_EQ(c.simulation.timing_mode, TimingMode::Functional);
  EXPECT_DOUBLE_EQ(c.dram.latency_ns, 100);
  EXPECT_DOUBLE_EQ(c.clock_ghz, 2);
}

TEST(ArchConfig, BadOverridesAndValuesAreNamed) {
  EXPECT_THAT(load_error("tiny", {"pe_grid.rowz=4"}),
              HasSubstr("unknown key 'pe_grid.rowz' (did you mean 'rows'?)"));
  EXPECT_THAT(load_error("tiny", {"pe.dpe.impl=verilog"}),
              HasSubstr("expected one of tlm, rtl, lockstep"));
  EXPECT_THAT(load_error("tiny", {"pe_grid.rows=0"}), HasSubstr("out of range"));
  EXPECT_THAT(load_error("tiny", {"pe.vector.vlen_bits=384"}),
              HasSubstr("/pe/vector/vlen_bits: VLEN 384 is not a power of two"));
}

TEST(ArchConfig, CrossFieldChecksNameTheField) {
  EXPECT_THAT(
      load_error("tiny", {"pe.vector.lanes=8"}),
      HasSubstr("tiny.json: /pe/vector/lanes: 8 32-bit lanes are wider than VLEN 128 bits"));
  EXPECT_THAT(
      load_error("tiny", {"pe.local_mem.banks=3"}),
      HasSubstr("/pe/local_mem/banks: size 65536 bytes does not divide into 3 equal banks"));
  EXPECT_THAT(load_error("tiny", {"sram.line_bytes=48"}),
              HasSubstr("/sram/line_bytes: line size 48 is not a power of two"));
  EXPECT_THAT(load_error("tiny", {"sram.ways=3"}),
              HasSubstr("/sram/ways: size 1048576 bytes is not a whole number of 3-way sets"));
  EXPECT_EQ(load_error("tiny", {"sram.ways=3", "sram.mode=scratch"}),
            "");  // no sets in scratch mode
  EXPECT_THAT(load_error("tiny", {"dram.interleave=384"}),
              HasSubstr("/dram/interleave_bytes: interleave 384 bytes is not a power of two"));
  EXPECT_THAT(
      load_error("tiny", {"dram.channels=3"}),
      HasSubstr(
          "/dram/capacity_bytes: capacity 67108864 bytes is not a whole number of 3 channels"));
  EXPECT_THAT(load_error("tiny", {"sram.mode=scratch", "memory_map.sram_base=2147483648"}),
              HasSubstr("/memory_map/dram_base: window overlaps /memory_map/sram_base"));
  EXPECT_EQ(load_error("tiny", {"memory_map.sram_base=2147483648"}),
            "");  // no SRAM window in cache mode
  EXPECT_THAT(
      load_error("tiny", {"memory_map.local_window_stride_bytes=4096"}),
      HasSubstr("/memory_map/local_window_stride_bytes: stride 4096 bytes is smaller than the "
                "local memory (65536 bytes)"));
  EXPECT_THAT(load_error("tiny", {"memory_map.code_reserved_bytes=64MiB"}),
              HasSubstr("/memory_map/code_reserved_bytes: reserves all of DRAM"));
  EXPECT_THAT(load_error("tiny", {"pe.local_mem.interleave_bytes=48"}),
              HasSubstr("/pe/local_mem/interleave_bytes: interleave 48 bytes"));
  EXPECT_THAT(load_error("tiny", {"pe.dpe.macs_per_cycle.bf16=0", "pe.dpe.macs_per_cycle.fp16=0",
                                  "pe.dpe.macs_per_cycle.fp32=0", "pe.dpe.macs_per_cycle.int8=0"}),
              HasSubstr("/pe/dpe/macs_per_cycle: the DPE supports no dtype"));
  EXPECT_EQ(ArchConfig::from_document(json::object(), "x").name, "");
  try {
    ArchConfig::from_document({{"sram", {{"line_bytes", 100}}}}, "doc.json");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(), HasSubstr("doc.json: /sram/line_bytes"));
  }
}

// Values the model cannot run with (a divide by zero, a cache whose tags
// would not fit in host memory, a sampling period past SystemC's time range)
// are errors at load, naming the field.
TEST(ArchConfig, ValuesTheModelCannotRunAreRejectedAtLoad) {
  EXPECT_THAT(load_error("tiny", {"sram.size_bytes=0"}),
              HasSubstr("sram.size_bytes': value 0 bytes out of range"));
  EXPECT_THAT(load_error("tiny", {"sram.size_bytes=0", "sram.mode=scratch"}),
              HasSubstr("sram.size_bytes': value 0 bytes out of range"));
  try {
    ArchConfig::from_document({{"sram", {{"size_bytes", 0}}}}, "doc.json");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(), HasSubstr("doc.json: /sram/size_bytes: value 0 bytes out of range"));
  }
  EXPECT_THAT(load_error("tiny", {"sram.size_bytes=16TiB"}),
              HasSubstr("/sram/size_bytes: a cache of 274877906944 lines"));
  EXPECT_EQ(load_error("tiny", {"sram.size_bytes=1GiB"}), "");
  EXPECT_EQ(load_error("tiny", {"sram.size_bytes=16TiB", "sram.mode=scratch",
                                "memory_map.dram_base=35184372088832"}),
            "");
  EXPECT_THAT(load_error("tiny", {"simulation.sample_interval_cycles=1000000000000000000"}),
              HasSubstr("simulation.sample_interval_cycles': value"));
}

TEST(ArchConfig, EveryFieldRoundTripsThroughJson) {
  // Give every leaf a value different from its default, then check that
  // from_json/to_json carry each one: no field can be forgotten by either.
  json doc = ArchConfig::load("mtia-2i").to_json();
  const Schema &schema = arch_schema();
  int changed = 0;
  for (const auto &leaf : schema.leaves()) {
    const FieldSpec &f = *leaf.spec;
    std::string ptr = "/" + leaf.dotted_path;
    for (auto &ch : ptr)
      if (ch == '.') ch = '/';
    json::json_pointer p(ptr);
    if (f.kind == FieldSpec::Kind::Metadata) continue;
    json &v = doc[p];
    switch (f.kind) {
      case FieldSpec::Kind::String:
        v = "renamed";
        break;
      case FieldSpec::Kind::Enum:
        if (f.choices.size() < 2) continue;
        v = f.choices[(std::find(f.choices.begin(), f.choices.end(), v.get<std::string>()) -
                       f.choices.begin() + 1) %
                      f.choices.size()];
        break;
      case FieldSpec::Kind::Bool:
        v = !v.get<bool>();
        break;
      default: {
        double x = v.get<double>();
        double y = (f.max && x + 1 > *f.max) ? x - 1 : x + 1;
        if (leaf.dotted_path == "pe.vector.vlen_bits") y = x * 2;
        if (f.is_whole())
          v = static_cast<uint64_t>(y);
        else
          v = y + 0.25;
      }
    }
    ++changed;
  }
  EXPECT_GT(changed, 70);
  json normalized = schema.normalize(doc, "perturbed");
  ArchConfig c = ArchConfig::from_json(normalized);
  EXPECT_EQ(c.to_json(), normalized);
  EXPECT_EQ(c.name, "renamed");
}

TEST(ArchConfig, SchemaDocumentsEveryField) {
  for (const auto &leaf : arch_schema().leaves()) {
    EXPECT_FALSE(leaf.spec->doc.empty()) << leaf.dotted_path;
    if (leaf.spec->kind == FieldSpec::Kind::Integer ||
        leaf.spec->kind == FieldSpec::Kind::Quantity) {
      EXPECT_FALSE(leaf.spec->unit_label.empty()) << leaf.dotted_path;
    }
  }
}

TEST(ArchConfig, UnitSuffixesMatchFieldUnits) {
  for (const auto &leaf : arch_schema().leaves()) {
    const FieldSpec &f = *leaf.spec;
    if (f.kind != FieldSpec::Kind::Quantity) continue;
    const std::string &n = f.name;
    switch (f.dimension) {
      case units::Dimension::Size:
        EXPECT_TRUE(n.ends_with("_bytes")) << n;
        break;
      case units::Dimension::Frequency:
        EXPECT_TRUE(n.ends_with("_ghz")) << n;
        break;
      case units::Dimension::Bandwidth:
        EXPECT_TRUE(n.ends_with("_gbps")) << n;
        break;
      case units::Dimension::Time:
        EXPECT_TRUE(n.ends_with("_ns")) << n;
        break;
      case units::Dimension::Count:
        break;
      case units::Dimension::Energy:
        EXPECT_NE(n.find("_pj"), std::string::npos) << n;
        break;
      case units::Dimension::Power:
        EXPECT_NE(n.find("_mw"), std::string::npos) << n;
        break;
      case units::Dimension::Area:
        EXPECT_NE(n.find("_mm2"), std::string::npos) << n;
        break;
    }
  }
}

TEST(ArchConfig, VectorCostScalesWithVlAndLanes) {
  ArchConfig c = ArchConfig::load("mtia-2i", {"pe.vector_timing.startup_cycles=2"});  // 16 lanes
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::FpFma, 16, 32), 2u + 1);
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::FpFma, 17, 32), 2u + 2);
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::FpFma, 64, 16), 2u + 2);  // 32 fp16 per cycle
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::FpDiv, 32, 32), 2u + 2 * 4);
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::Indexed, 10, 32), 2u + 10);
  EXPECT_EQ(c.vector_op_cycles(VectorOpClass::Reduction, 16, 32), 2u + 1 + 4);
  ArchConfig t = ArchConfig::load("tiny", {"pe.vector_timing.startup_cycles=2"});  // 4 lanes
  EXPECT_EQ(t.vector_op_cycles(VectorOpClass::IntAlu, 16, 32), 2u + 4);
}

TEST(ArchConfig, EnvironmentDirectoryIsSearchedFirst) {
  fs::path dir = fs::path(::testing::TempDir()) / "opforge_arch_env";
  fs::create_directories(dir);
  std::ofstream(dir / "mine.json") << R"({"extends": "tiny", "pe_grid": {"cols": 3}})";
  std::ofstream(dir / "broken.json") << "{\"pe_grid\": {\"rows\": 2,,}}";
  ::setenv("OPFORGE_ARCH_DIR", dir.c_str(), 1);
  ArchConfig c = ArchConfig::load("mine");
  std::string broken = load_error("broken");
  ::unsetenv("OPFORGE_ARCH_DIR");
  fs::remove_all(dir);
  EXPECT_EQ(c.pe_grid.cols, 3u);
  EXPECT_EQ(c.pe_grid.rows, 2u);  // from tiny
  EXPECT_EQ(c.name, "tiny");      // inherited name field
  EXPECT_THAT(broken, HasSubstr("broken.json:1:24: malformed JSON"));
}

}  // namespace
