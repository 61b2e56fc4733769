//===- chip_lrsc_race_test.cpp - lr/sc increments from every PE never lose one ===//
#include <gtest/gtest.h>

#include <cstring>

#include "opforge/isa/asm.h"
#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

// Every program instance adds 1 to one shared DRAM counter `n` times with an
// lr.d/sc.d loop, and stores how many times its sc failed at retries[pid_x].
// args: +0 counter address, +8 n, +16 retries address.
const char *kIncrementKernel = R"(
_start:
  ld t0, 0(a0)
  ld t1, 8(a0)
  ld a2, 16(a0)
  li a3, 0
again:
  lr.d t2, (t0)
  addi t3, t2, 1
  mul t5, t3, t3            # a few instructions between lr and sc
  mul t5, t5, t3
  sc.d t4, t3, (t0)
  beqz t4, stored
  addi a3, a3, 1
  j again
stored:
  addi t1, t1, -1
  bnez t1, again
  csrr t6, 0xFC0            # pid_x
  slli t6, t6, 3
  add a2, a2, t6
  sd a3, 0(a2)
  .insn i 0x0B, 0, x0, x0, 0
)";

struct RaceResult {
  uint64_t count = 0, retries = 0;
};

RaceResult run_increments(const std::vector<std::string> &overrides, uint64_t n) {
  ChipParams p = testing::preset("tiny", overrides);
  Device dev(p);
  const uint32_t instances = p.num_pes();
  const uint64_t counter = dev.alloc(8), retries = dev.alloc(8 * instances);
  const uint64_t zero = 0;
  dev.copy_in(counter, &zero, 8);
  std::vector<uint64_t> zeros(instances, 0);
  dev.copy_in(retries, zeros.data(), 8 * instances);
  KernelLaunch k;
  k.image = KernelImage::from_code(isa::assemble_text_bytes(kIncrementKernel, "increment.s"),
                                   p.map.dram_base);
  k.args.resize(24);
  std::memcpy(k.args.data(), &counter, 8);
  std::memcpy(k.args.data() + 8, &n, 8);
  std::memcpy(k.args.data() + 16, &retries, 8);
  k.grid = {instances, 1, 1};
  LaunchResult r = dev.launch(k);
  EXPECT_TRUE(r.ok()) << (r.traps.empty() ? "" : r.traps.front());
  RaceResult out;
  dev.copy_out(counter, &out.count, 8);
  std::vector<uint64_t> per_pe(instances);
  dev.copy_out(retries, per_pe.data(), 8 * instances);
  for (uint64_t v : per_pe) out.retries += v;
  EXPECT_EQ(r.instances.size(), instances);
  return out;
}

// Small quanta end a PE's slice between its lr and its sc while the other PEs
// store to the counter: sc must fail then, or increments are lost.
TEST(ChipLrSc, IncrementsFromFourPesWithSmallQuantaAllLand) {
  const uint64_t n = 200;
  RaceResult r = run_increments({"simulation.quantum_cycles=5"}, n);
  EXPECT_EQ(r.count, 4 * n);
  EXPECT_GT(r.retries, 0u) << "no sc ever failed: the PEs never raced";
}

// Functional mode reaches DRAM through DMI pointers: the same check holds.
TEST(ChipLrSc, IncrementsInFunctionalModeThroughDmiAllLand) {
  const uint64_t n = 200;
  RaceResult r =
      run_increments({"simulation.timing_mode=functional", "simulation.quantum_cycles=3"}, n);
  EXPECT_EQ(r.count, 4 * n);
  EXPECT_GT(r.retries, 0u) << "no sc ever failed: the PEs never raced";
}

}  // namespace
}  // namespace opforge::model
