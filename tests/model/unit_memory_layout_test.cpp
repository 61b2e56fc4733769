//===- unit_memory_layout_test.cpp - the memory map derived from the config ===//
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opforge/model/memory_map.h"
#include "opforge/support/error.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using ::testing::HasSubstr;

std::string load_error(const std::string &preset, const std::vector<std::string> &sets,
                       std::string *path = nullptr) {
  try {
    load_params(preset, sets);
  } catch (const Error &e) {
    if (path) *path = e.context().path;
    return e.what();
  }
  return "";
}

// Every range of the map (the alias included) is disjoint from every other
// and ends below the guest address limit; the alias is where sp points.
void expect_disjoint(const ChipParams &p, const std::string &what) {
  MemoryMap m(p);
  struct R {
    uint64_t base, end;
  };
  std::vector<R> rs{{p.map.local_alias_base, p.map.local_alias_base + p.local_mem.size_bytes}};
  // The PE windows as one region (the guard gaps belong to it).
  rs.push_back({p.map.local_window_base,
                p.map.local_window_base + uint64_t(p.num_pes()) * p.map.local_window_stride});
  for (const auto &r : m.ranges())
    if (r.kind != MemoryMap::Kind::Local) rs.push_back({r.base, r.base + r.size});
  for (size_t i = 0; i < rs.size(); ++i) {
    EXPECT_LE(rs[i].end, kGuestAddressLimit) << what;
    for (size_t j = i + 1; j < rs.size(); ++j)
      EXPECT_TRUE(rs[i].end <= rs[j].base || rs[j].end <= rs[i].base)
          << what << ": ranges " << i << " and " << j << " overlap";
  }
  EXPECT_GE(p.map.local_window_stride, p.local_mem.size_bytes) << what;
  // The last PE's window decodes to that PE, its first byte past the end does not.
  const uint32_t last = p.num_pes() - 1;
  const MemoryMap::Range *r = m.decode(m.local_window(last) + p.local_mem.size_bytes - 8, 8);
  ASSERT_NE(r, nullptr) << what;
  EXPECT_EQ(r->kind, MemoryMap::Kind::Local) << what;
  EXPECT_EQ(r->pe, last) << what;
  EXPECT_EQ(m.decode(m.local_window(last) + p.local_mem.size_bytes, 1), nullptr) << what;
  EXPECT_EQ(m.decode(p.map.dram_base, 8)->kind, MemoryMap::Kind::Dram) << what;
}

// Issue 22: every 8x16 point failed with "/memory_map/dram_base: window
// overlaps /memory_map/local_window_base" (fixed 16 MiB windows from 0x20000000).
TEST(MemoryLayout, AnyGridFrom1x1To32x32AndLocalMemoryFrom64KiBTo4MiBLoads) {
  for (const char *preset : {"mtia-2i", "tiny"})
    for (auto [rows, cols] : {std::pair{1, 1}, {8, 16}, {16, 16}, {32, 32}, {1, 32}})
      for (const char *local : {"64KiB", "384KiB", "1MiB", "4MiB"})
        for (const char *mode : {"cache", "scratch"}) {
          std::vector<std::string> sets{
              "pe_grid.rows=" + std::to_string(rows), "pe_grid.cols=" + std::to_string(cols),
              std::string("pe.local_mem.size_bytes=") + local, std::string("sram.mode=") + mode};
          std::string what = std::string(preset) + " " + std::to_string(rows) + "x" +
                             std::to_string(cols) + " " + local + " " + mode;
          std::string err = load_error(preset, sets);
          ASSERT_EQ(err, "") << what;
          expect_disjoint(load_params(preset, sets), what);
        }
}

TEST(MemoryLayout, PresetsKeepTheAliasAndDramWherePrograms) {
  for (const char *preset : {"mtia-2i", "mtia-v1", "tiny"}) {
    ChipParams p = load_params(preset);
    EXPECT_EQ(p.map.local_alias_base, 0x1000'0000u) << preset;  // kernels' own local memory
    EXPECT_EQ(p.map.dram_base, 0x8000'0000u) << preset;         // ELF text
    EXPECT_EQ(p.map.local_window_base, 0x2000'0000u) << preset;
    // The smallest power of two above the local memory: a guard gap after each window.
    EXPECT_GT(p.map.local_window_stride, p.local_mem.size_bytes) << preset;
    EXPECT_LE(p.map.local_window_stride, 2 * p.local_mem.size_bytes) << preset;
    expect_disjoint(p, preset);
  }
  // Windows that do not fit below DRAM go above it.
  ChipParams big = load_params(
      "mtia-2i", {"pe_grid.rows=32", "pe_grid.cols=32", "pe.local_mem.size_bytes=4MiB"});
  EXPECT_GE(big.map.local_window_base, big.map.dram_base + big.dram.capacity_bytes);
  EXPECT_EQ(big.map.local_alias_base, 0x1000'0000u);
}

TEST(MemoryLayout, ExplicitValuesAreKeptWhenTheyFit) {
  ChipParams p = load_params("tiny", {"memory_map.local_window_base=1073741824",
                                      "memory_map.local_window_stride_bytes=16MiB",
                                      "memory_map.local_alias_base=805306368", "sram.mode=scratch",
                                      "memory_map.sram_base=1610612736"});
  EXPECT_EQ(p.map.local_window_base, 0x4000'0000u);
  EXPECT_EQ(p.map.local_window_stride, 16u << 20);
  EXPECT_EQ(p.map.local_alias_base, 0x3000'0000u);
  EXPECT_EQ(p.map.sram_base, 0x6000'0000u);
  expect_disjoint(p, "explicit");
  // A derived window steers around an explicit one.
  ChipParams q = load_params("tiny", {"memory_map.local_window_base=268435456"});
  EXPECT_EQ(q.map.local_window_base, 0x1000'0000u);
  EXPECT_NE(q.map.local_alias_base, 0x1000'0000u);
  expect_disjoint(q, "steered");
  // The config written beside results keeps derived fields as 0 (derived again
  // for whatever grid a rerun or a sweep gives it).
  EXPECT_EQ(load_params("tiny").arch.to_json()["memory_map"]["local_window_base"], 0);
}

TEST(MemoryLayout, CollidingExplicitValuesNameTheFieldsAndRanges) {
  std::string path;
  // The hand-set layout, on a grid too big for it.
  std::string err = load_error("mtia-2i",
                               {"pe_grid.cols=16", "memory_map.local_window_base=536870912",
                                "memory_map.local_window_stride_bytes=16MiB"},
                               &path);
  EXPECT_EQ(path, "/memory_map/dram_base") << err;
  EXPECT_THAT(err, HasSubstr("window overlaps /memory_map/local_window_base"));
  EXPECT_THAT(err, HasSubstr("the 128 PE windows (128 x 16 MiB stride) at [0x20000000, +2 GiB)"));
  EXPECT_THAT(err, HasSubstr("DRAM (128 GiB) at [0x80000000, +128 GiB)"));
  err = load_error("tiny", {"memory_map.local_window_stride_bytes=4096"}, &path);
  EXPECT_EQ(path, "/memory_map/local_window_stride_bytes") << err;
  // DRAM (64 MiB) from 2^52 - 32 MiB.
  err = load_error("tiny", {"memory_map.dram_base=4503599593816064"}, &path);
  EXPECT_EQ(path, "/memory_map/dram_base") << err;
  EXPECT_THAT(err, HasSubstr("ends past the guest address limit 0x10000000000000 (4 PiB)"));
}

TEST(MemoryLayout, ImpossibleConfigsAreRejectedBeforeSimulationWithTheLimit) {
  std::string path;
  // 65536 PEs x 1 TiB windows cannot fit in 2^52 bytes of address space.
  std::string err = load_error(
      "tiny", {"pe_grid.rows=256", "pe_grid.cols=256", "pe.local_mem.size_bytes=1TiB"}, &path);
  EXPECT_EQ(path, "/pe/local_mem/size_bytes") << err;
  EXPECT_THAT(err, HasSubstr("the 65536 PE windows (65536 x 2 TiB stride) need 128 PiB"));
  EXPECT_THAT(err, HasSubstr("guest address limit 0x10000000000000 (4 PiB)"));
  EXPECT_THAT(err, HasSubstr("keep the local memory below 32 GiB"));
  // A field past its hard limit names the field and the range.
  err = load_error("tiny", {"pe_grid.rows=300"});
  EXPECT_THAT(err, HasSubstr("pe_grid.rows"));
  EXPECT_THAT(err, HasSubstr("256"));
}

}  // namespace
}  // namespace opforge::model
