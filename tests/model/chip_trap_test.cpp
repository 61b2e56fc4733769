//===- chip_trap_test.cpp - guest faults and hung kernels are reported ----===//
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "opforge/model/device.h"
#include "opforge/support/error.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(ChipTrap, UnmappedLoadReportsPePcAndAddress) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("oob_load"));
  const uint64_t bad = 0x7000000000ull;  // between the SRAM window and DRAM: unmapped
  k.args.resize(8);
  std::memcpy(k.args.data(), &bad, 8);
  k.grid = {2, 1, 1};
  LaunchResult r = dev.launch(k);
  ASSERT_EQ(r.traps.size(), 2u);
  ASSERT_EQ(r.instances.size(), 2u);
  for (const InstanceRecord &rec : r.instances) {
    EXPECT_EQ(rec.status, InstanceStatus::Trap);
    EXPECT_EQ(rec.cause, 5u);  // load access fault
    EXPECT_EQ(rec.addr, bad);
    EXPECT_EQ(rec.pc, k.image.entry + 8);  // ld, nop, then the faulting load
  }
  std::ostringstream pc;
  pc << std::hex << (k.image.entry + 8);
  bool found_pe1 = false;
  for (const auto &t : r.traps) {
    EXPECT_NE(t.find(pc.str()), std::string::npos) << t;
    EXPECT_NE(t.find("7000000000"), std::string::npos) << t;
    found_pe1 |= t.find("pe[0][1]") != std::string::npos;
  }
  EXPECT_TRUE(found_pe1);
  EXPECT_EQ(dev.counter("pe[0][0].core.traps"), 1u);
}

TEST(ChipTrap, WatchdogStopsAKernelThatNeverEnds) {
  ChipParams p = testing::preset("tiny", {"simulation.watchdog_cycles=20000"});
  Device dev(p);
  KernelLaunch k;
  k.image = read_elf_file(testing::kernel("spin"));
  k.grid = {6, 1, 1};  // 4 start, 2 wait behind them and are aborted
  LaunchResult r = dev.launch(k);
  ASSERT_EQ(r.instances.size(), 6u);
  int watchdog = 0, aborted = 0;
  for (const auto &rec : r.instances) {
    watchdog += rec.status == InstanceStatus::Watchdog;
    aborted += rec.status == InstanceStatus::Aborted;
  }
  EXPECT_EQ(watchdog, 4);
  EXPECT_EQ(aborted, 2);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.traps[0].find("watchdog"), std::string::npos) << r.traps[0];
  EXPECT_GE(r.cycles, 20000u);
  EXPECT_LT(r.cycles, 20000u + 2 * p.sim.quantum_cycles + p.cp.launch_latency_cycles +
                          p.cp.program_start_cycles);
  // The chip is usable afterwards.
  KernelLaunch again = k;
  again.image = read_elf_file(testing::kernel("cmdlist"));
  again.args.assign(8, 0);  // zero commands
  again.grid = {1, 1, 1};
  EXPECT_TRUE(dev.launch(again).ok());
}

TEST(ChipTrap, ProgramOutsideTheProgramAreaIsRejected) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  KernelLaunch k;
  k.image = KernelImage::from_code({0x0b, 0, 0, 0}, p.map.dram_base + p.map.code_reserved_bytes);
  EXPECT_THROW(dev.launch(k), Error);
  k.image = KernelImage::from_code({0x0b, 0, 0, 0}, 0x40);
  EXPECT_THROW(dev.launch(k), Error);
}

}  // namespace
}  // namespace opforge::model
