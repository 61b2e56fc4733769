// runner_energy_tests.cpp - energy_j, avg_power_w, perf_per_w and area_mm2 of sweep points:
// the hand-computed sum over a real ELF point's counters, proportionality along a pJ axis,
// the results file round trip, the report, and bad units naming the field.
#include <cmath>
#include <map>

#include "opforge/harness/results.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using harness::PointResult;
using nlohmann::json;

namespace {

class RunnerEnergy : public runner_test::RunnerDir {
 protected:
  static json spin(int n) {
    return {{"name", "spin"},
            {"kind", "asm"},
            {"path", std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels/spin.S"},
            {"grid", "per_pe"},
            {"args", {n}}};
  }
  // Sweep a one-workload scenario on tiny; returns the exit status.
  int run(const json &overrides, const json &sweep, const std::string &out = "r.h5", int n = 300) {
    json doc = {
        {"name", "energy"}, {"arch", "tiny"}, {"overrides", overrides}, {"workloads", {spin(n)}}};
    if (!sweep.is_null()) doc["sweep"] = sweep;
    auto sc = write_json("s.json", doc);
    return opforge("sweep " + sc.string() + " --jobs 2 --out " + (dir_ / out).string());
  }
  // Every per-event energy and static power set to 0 except those in `keep`.
  static json zero_except(const json &keep) {
    json o = json::object();
    for (const char *f :
         {"mac_fp32_pj", "mac_bf16_pj", "mac_fp16_pj", "mac_int8_pj", "instruction_pj",
          "vector_pj_per_lane_cycle", "sfu_pj_per_element", "local_mem_pj_per_byte",
          "sram_pj_per_byte", "noc_pj_per_byte_hop", "dram_pj_per_byte"})
      o[std::string("energy.") + f] = 0;
    for (const char *f :
         {"core_mw", "vector_mw", "dpe_mw", "sfu_mw", "dma_engine_mw", "local_mem_mw_per_kib",
          "sram_mw_per_mib", "noc_router_mw", "dram_phy_mw", "other_mw"})
      o[std::string("energy.static_power.") + f] = 0;
    for (auto it = keep.begin(); it != keep.end(); ++it) o[it.key()] = it.value();
    return o;
  }
};

// Sum of the counters named PREFIX...SUFFIX.
double total(const PointResult &r, const std::string &prefix, const std::string &suffix) {
  double t = 0;
  for (const auto &[n, v] : r.counters)
    if (n.starts_with(prefix) && n.ends_with(suffix) && n.size() >= prefix.size() + suffix.size())
      t += double(v);
  return t;
}

TEST_F(RunnerEnergy, InstructionsAndStaticPowerAloneGiveTheHandComputedEnergy) {
  // 1 pJ per instruction, 1 W of static power, nothing else: energy = instructions x 1 pJ +
  // 1 W x cycles / 1 GHz (tiny's clock).
  ASSERT_EQ(
      run(zero_except({{"energy.instruction_pj", "1pJ"}, {"energy.static_power.other_mw", "1W"}}),
          nullptr),
      0)
      << err_;
  PointResult r = harness::read_result_point(dir_ / "r.h5", 0);
  ASSERT_EQ(r.status, "ok") << r.reason;
  // spin.S on 4 PEs: a load, 300 iterations of addi + bgtz, the end-of-program instruction.
  ASSERT_EQ(r.instructions, 4u * (1 + 2 * 300 + 1));
  EXPECT_EQ(total(r, "pe[", ".core.instret"), double(r.instructions));
  double seconds = double(r.cycles) / 1e9;
  double expect = double(r.instructions) * 1e-12 + 1.0 * seconds;
  EXPECT_NEAR(r.energy_j, expect, expect * 1e-12);
  EXPECT_NEAR(r.avg_power_w, expect / seconds, expect / seconds * 1e-12);
  EXPECT_NEAR(r.perf_per_w, 1 / expect, 1 / expect * 1e-12);
  ASSERT_TRUE(r.energy_breakdown_j.is_object());
  EXPECT_NEAR(r.energy_breakdown_j["static"].get<double>(), seconds, seconds * 1e-12);
  EXPECT_NEAR(r.energy_breakdown_j["instructions"].get<double>(), double(r.instructions) * 1e-12,
              1e-24);
  EXPECT_EQ(r.energy_breakdown_j["dram"].get<double>(), 0.0);
}

TEST_F(RunnerEnergy, DpeMacsAreChargedAtTheirDtypesEnergy) {
  // bench/micro/dpe_loop.S issues its descriptor 3 times per PE: 16x16x16 tiles in local memory,
  // bf16 (dtype 0) or int8 (dtype 3), accumulating. 4 PEs x 3 x 4096 MACs, nothing else charged.
  auto dpe = [](const char *name, uint64_t dtype) {
    return json{{"name", name},
                {"kind", "asm"},
                {"path", std::string(OPFORGE_SOURCE_DIR) + "/bench/micro/dpe_loop.S"},
                {"grid", "per_pe"},
                {"args",
                 {3,
                  {{"local_base", 0}},
                  {{"local_base", 16384}},
                  {{"local_base", 32768}},
                  16 | (uint64_t{16} << 32),
                  16 | (uint64_t{16} << 32),
                  16 | (uint64_t{16} << 32),
                  dtype | (1 << 8),
                  0,
                  0}}};
  };
  json doc = {
      {"name", "dpe"},
      {"arch", "tiny"},
      {"overrides", zero_except({{"energy.mac_bf16_pj", "2pJ"}, {"energy.mac_int8_pj", "4pJ"}})},
      {"workloads", {dpe("bf16", 0), dpe("int8", 3)}}};
  auto sc = write_json("dpe.json", doc);
  ASSERT_EQ(opforge("sweep " + sc.string() + " --jobs 2 --out " + (dir_ / "d.h5").string()), 0)
      << err_;
  const double macs = 4.0 * 3 * 16 * 16 * 16;
  PointResult bf16 = harness::read_result_point(dir_ / "d.h5", 0);
  PointResult int8 = harness::read_result_point(dir_ / "d.h5", 1);
  ASSERT_EQ(bf16.status, "ok") << bf16.reason;
  ASSERT_EQ(int8.status, "ok") << int8.reason;
  EXPECT_EQ(total(bf16, "pe[", ".dpe.macs_bf16"), macs);
  EXPECT_EQ(total(bf16, "pe[", ".dpe.macs_int8"), 0);
  EXPECT_EQ(total(int8, "pe[", ".dpe.macs_int8"), macs);
  EXPECT_EQ(total(int8, "pe[", ".dpe.macs"), macs);
  EXPECT_NEAR(bf16.energy_j, macs * 2e-12, macs * 2e-24);
  EXPECT_NEAR(int8.energy_j, macs * 4e-12, macs * 4e-24);
  EXPECT_NEAR(int8.energy_breakdown_j["mac"].get<double>(), int8.energy_j, 1e-24);
}

TEST_F(RunnerEnergy, PointEnergyIsTheSumOfCountedEventsTimesTheirEnergies) {
  // Distinct round energies for every term; tiny's own static powers.
  json o = {{"energy.mac_fp32_pj", "1pJ"},        {"energy.mac_bf16_pj", "2pJ"},
            {"energy.mac_fp16_pj", "3pJ"},        {"energy.mac_int8_pj", "4pJ"},
            {"energy.instruction_pj", "5pJ"},     {"energy.vector_pj_per_lane_cycle", "6pJ"},
            {"energy.sfu_pj_per_element", "7pJ"}, {"energy.local_mem_pj_per_byte", "8pJ"},
            {"energy.sram_pj_per_byte", "9pJ"},   {"energy.noc_pj_per_byte_hop", "10pJ"},
            {"energy.dram_pj_per_byte", "0.1nJ"}};
  ASSERT_EQ(run(o, nullptr), 0) << err_;
  PointResult r = harness::read_result_point(dir_ / "r.h5", 0);
  ASSERT_EQ(r.status, "ok") << r.reason;
  ArchConfig tiny = ArchConfig::load("tiny");
  // The ELF point reaches the memory system: code and its argument come from DRAM
  // through the NoC and the SRAM.
  double instret = total(r, "pe[", ".core.instret");
  double sram = total(r, "sram.bytes_read", "") + total(r, "sram.bytes_written", "");
  double dram = total(r, "dram.ch[", ".bytes_read") + total(r, "dram.ch[", ".bytes_written");
  double noc_busy = total(r, "noc.link[", ".busy_cycles");
  EXPECT_GT(instret, 0);
  EXPECT_GT(sram, 0);
  EXPECT_GT(dram, 0);
  EXPECT_GT(noc_busy, 0);
  double lmem = total(r, "pe[", ".lmem.bytes_read") + total(r, "pe[", ".lmem.bytes_written");
  double link_bytes_per_cycle = 32.0 / 1.0;  // tiny: 32 GB/s links at 1 GHz
  double pj = 1 * total(r, "pe[", ".dpe.macs_fp32") + 2 * total(r, "pe[", ".dpe.macs_bf16") +
              3 * total(r, "pe[", ".dpe.macs_fp16") + 4 * total(r, "pe[", ".dpe.macs_int8") +
              5 * instret + 6 * total(r, "pe[", ".vec.busy_cycles") * 4 /* lanes */ +
              7 * total(r, "pe[", ".sfu.elements") + 8 * lmem + 9 * sram +
              10 * noc_busy * link_bytes_per_cycle + 100 * dram;
  double seconds = double(r.cycles) / 1e9;
  double static_j = tiny.static_power_mw() * 1e-3 * seconds;
  EXPECT_NEAR(tiny.static_power_mw(), 561.3, 1e-9);  // tiny's preset (docs/config.md)
  double expect = pj * 1e-12 + static_j;
  EXPECT_NEAR(r.energy_j, expect, expect * 1e-12);
  EXPECT_NEAR(r.area_mm2, tiny.area_mm2(), 1e-12);
  double sum = 0;
  for (auto it = r.energy_breakdown_j.begin(); it != r.energy_breakdown_j.end(); ++it)
    sum += it.value().get<double>();
  EXPECT_NEAR(sum, r.energy_j, r.energy_j * 1e-12);
}

TEST_F(RunnerEnergy, APicojouleAxisScalesEnergyProportionally) {
  json axis = json::parse(R"([{"field": "energy.sram_pj_per_byte", "values": ["1pJ", "2pJ", 4]}])");
  ASSERT_EQ(run(zero_except({{"energy.sram_pj_per_byte", 1}}), axis), 0) << err_;
  h5::File f = h5::File::open(dir_ / "r.h5");
  auto energy = f.read_double_column("/summary", "energy_j");
  auto cycles = f.read_int_column("/summary", "cycles");
  ASSERT_EQ(energy.size(), 3u);
  ASSERT_GT(energy[0], 0);
  EXPECT_EQ(cycles[0], cycles[1]);  // energy fields never change the timing
  EXPECT_EQ(cycles[0], cycles[2]);
  EXPECT_NEAR(energy[1] / energy[0], 2.0, 1e-12);
  EXPECT_NEAR(energy[2] / energy[0], 4.0, 1e-12);
  PointResult r = harness::read_result_point(dir_ / "r.h5", 0);
  double sram = total(r, "sram.bytes_read", "") + total(r, "sram.bytes_written", "");
  EXPECT_NEAR(energy[0], sram * 1e-12, energy[0] * 1e-12);
  // With static power the energy is affine in the field: equal steps, equal differences.
  ASSERT_EQ(run(zero_except({{"energy.static_power.other_mw", "1W"}}),
                json::parse(R"([{"field": "energy.dram_pj_per_byte", "values": [10, 20, 30]}])"),
                "r2.h5"),
            0)
      << err_;
  h5::File g = h5::File::open(dir_ / "r2.h5");
  auto e2 = g.read_double_column("/summary", "energy_j");
  ASSERT_EQ(e2.size(), 3u);
  EXPECT_GT(e2[1] - e2[0], 0);
  EXPECT_NEAR(e2[2] - e2[1], e2[1] - e2[0], (e2[1] - e2[0]) * 1e-9);
}

TEST_F(RunnerEnergy, ResultsFileRoundTripsTheEnergyColumns) {
  // A shard written and read back.
  harness::PointResult p;
  p.index = 0;
  p.workload = "w";
  p.status = "ok";
  p.cycles = 1000;
  p.energy_j = 1.25e-6;
  p.avg_power_w = 1250;
  p.perf_per_w = 800000;
  p.area_mm2 = 421.35;
  p.energy_breakdown_j = {{"dram", 1e-6}, {"static", 0.25e-6}};
  fs::path shard = dir_ / "point-0.h5";
  harness::write_shard(shard, p);
  harness::PointResult q = harness::read_shard(shard);
  EXPECT_EQ(q.energy_j, p.energy_j);
  EXPECT_EQ(q.avg_power_w, p.avg_power_w);
  EXPECT_EQ(q.perf_per_w, p.perf_per_w);
  EXPECT_EQ(q.area_mm2, p.area_mm2);
  EXPECT_EQ(q.energy_breakdown_j, p.energy_breakdown_j);
  // A point without energies keeps NaN.
  harness::PointResult none;
  none.status = "failed";
  harness::write_shard(shard, none);
  EXPECT_TRUE(std::isnan(harness::read_shard(shard).energy_j));

  // A real sweep: /summary columns equal the points' attributes; h5py reads them by name.
  ASSERT_EQ(run(json::object(), json::parse(R"([{"field": "pe.dma.engines", "values": [1, 2]}])")),
            0)
      << err_;
  h5::File f = h5::File::open(dir_ / "r.h5");
  std::map<std::string, std::vector<double>> cols;
  for (const char *c : {"energy_j", "avg_power_w", "perf_per_w", "area_mm2"})
    cols[c] = f.read_double_column("/summary", c);
  for (size_t i = 0; i < 2; ++i) {
    PointResult r = harness::read_result_point(dir_ / "r.h5", i);
    EXPECT_GT(r.energy_j, 0);
    EXPECT_EQ(cols["energy_j"][i], r.energy_j);
    EXPECT_EQ(cols["avg_power_w"][i], r.avg_power_w);
    EXPECT_EQ(cols["perf_per_w"][i], r.perf_per_w);
    EXPECT_EQ(cols["area_mm2"][i], r.area_mm2);
    EXPECT_NEAR(r.avg_power_w, r.energy_j / (double(r.cycles) / 1e9), r.avg_power_w * 1e-12);
  }
  // One more DMA engine per PE: 4 x area.dma_engine_mm2 more silicon.
  EXPECT_NEAR(cols["area_mm2"][1] - cols["area_mm2"][0], 4 * 0.15, 1e-9);
  if (python("import h5py, sys\n"
             "s = h5py.File(sys.argv[1], 'r')['summary'][:]\n"
             "print(' '.join('%.17g' % v for v in s['energy_j']), list(s.dtype.names))\n",
             (dir_ / "r.h5").string()) == 0) {
    EXPECT_NE(py_.find("'energy_j', 'avg_power_w', 'perf_per_w', 'area_mm2'"), std::string::npos)
        << py_;
  }
}

TEST_F(RunnerEnergy, ReportShowsEnergyPowerPerfPerWattAndArea) {
  ASSERT_EQ(run(json::object(), nullptr), 0) << err_;
  ASSERT_EQ(opforge("report " + (dir_ / "r.h5").string()), 0) << err_;
  for (const char *col : {"energy_j", "avg_power_w", "perf_per_w", "area_mm2", "static"})
    EXPECT_NE(out_.find(col), std::string::npos) << col << "\n" << out_;
  PointResult r = harness::read_result_point(dir_ / "r.h5", 0);
  char area[32];
  std::snprintf(area, sizeof area, "%.4g", r.area_mm2);
  EXPECT_NE(out_.find(area), std::string::npos) << area << "\n" << out_;
}

TEST_F(RunnerEnergy, WrongUnitsOnAnEnergyAxisFailThePointNamingTheField) {
  json axis = json::parse(R"([{"field": "energy.dram_pj_per_byte", "values": ["40pJ", "40mW"]}])");
  EXPECT_EQ(run(json::object(), axis), 1) << err_;
  h5::File f = h5::File::open(dir_ / "r.h5");
  auto status = f.read_string_column("/summary", "status");
  auto reason = f.read_string_column("/summary", "reason");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], "ok") << reason[0];
  EXPECT_EQ(status[1], "failed");
  EXPECT_NE(reason[1].find("/energy/dram_pj_per_byte"), std::string::npos) << reason[1];
  EXPECT_NE(reason[1].find("unknown unit 'mW'"), std::string::npos) << reason[1];
  // `opforge config show --set` with a wrong unit is a usage error naming the key.
  EXPECT_EQ(opforge("config show --arch tiny --set area.dpe_mm2=2pJ"), 2);
  EXPECT_NE(err_.find("area.dpe_mm2"), std::string::npos) << err_;
}

}  // namespace
