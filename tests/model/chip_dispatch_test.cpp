//===- chip_dispatch_test.cpp - grids of program instances on the tiny chip ===//
#include <gtest/gtest.h>

#include <cstring>

#include "opforge/model/device.h"
#include "opforge/support/error.h"
#include "test_util.h"

namespace opforge::model {
namespace {

struct Record {
  uint64_t pid_x, pid_y, pid_z, pe_id, nprog_x, grid_rows, grid_cols, stack_value;
};

LaunchResult run_pid_store(Device &dev, Grid3 grid, uint64_t &out) {
  out = dev.alloc(grid.count() * sizeof(Record));
  KernelLaunch k;
  k.image = read_elf_file(std::string(MODEL_KERNEL_DIR) + "/pid_store.elf");
  k.args.resize(8);
  std::memcpy(k.args.data(), &out, 8);
  k.grid = grid;
  return dev.launch(k);
}

void expect_records(Device &dev, uint64_t out, Grid3 grid, const ChipParams &p, bool round_robin) {
  std::vector<Record> recs(grid.count());
  dev.copy_out(out, recs.data(), recs.size() * sizeof(Record));
  uint64_t i = 0;
  for (uint32_t z = 0; z < grid.z; ++z)
    for (uint32_t y = 0; y < grid.y; ++y)
      for (uint32_t x = 0; x < grid.x; ++x, ++i) {
        const Record &r = recs[i];
        EXPECT_EQ(r.pid_x, x);
        EXPECT_EQ(r.pid_y, y);
        EXPECT_EQ(r.pid_z, z);
        EXPECT_EQ(r.nprog_x, grid.x);
        EXPECT_EQ(r.grid_rows, p.grid.rows);
        EXPECT_EQ(r.grid_cols, p.grid.cols);
        EXPECT_EQ(r.stack_value, p.grid.cols);
        if (round_robin)
          EXPECT_EQ(r.pe_id, i % p.num_pes()) << "instance " << i;
        else
          EXPECT_LT(r.pe_id, p.num_pes());
      }
}

TEST(ChipDispatch, RoundRobinGridRunsEveryInstanceOnItsPe) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  Grid3 grid{3, 2, 2};
  uint64_t out = 0;
  LaunchResult r = run_pid_store(dev, grid, out);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  EXPECT_EQ(r.instances.size(), grid.count());
  expect_records(dev, out, grid, p, true);
  EXPECT_GT(r.cycles, p.cp.launch_latency_cycles);
  uint64_t programs = 0;
  for (const auto &a : r.pe_activity) {
    EXPECT_EQ(a.programs, 3u) << "pe " << a.pe;  // 12 instances over 4 PEs
    programs += a.programs;
  }
  EXPECT_EQ(programs, grid.count());
}

TEST(ChipDispatch, FirstFreePolicyRunsEveryInstance) {
  ChipParams p = testing::preset("tiny", {"command_processor.dispatch_policy=first_free"});
  Device dev(p);
  Grid3 grid{7, 1, 1};
  uint64_t out = 0;
  LaunchResult r = run_pid_store(dev, grid, out);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  expect_records(dev, out, grid, p, false);
}

TEST(ChipDispatch, FunctionalModeRunsTheSameProgram) {
  ChipParams p = testing::preset("tiny", {"simulation.timing_mode=functional"});
  Device dev(p);
  Grid3 grid{4, 1, 1};
  uint64_t out = 0;
  LaunchResult r = run_pid_store(dev, grid, out);
  ASSERT_TRUE(r.ok()) << r.traps.front();
  expect_records(dev, out, grid, p, true);
}

TEST(ChipDispatch, SecondDeviceInOneProcessIsAClearError) {
  Device dev(testing::preset("tiny"));
  try {
    Device again(testing::preset("tiny"));
    FAIL() << "a second Device was created";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("one Device per process"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::model
