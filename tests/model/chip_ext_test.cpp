//===- chip_ext_test.cpp - an ISA extension instruction on the chip model ---===//
//
// Two `sfu` extension instructions that differ only in their timing lines
// run the same strip-mined kernel (assembled by opforge's assembler, which
// knows them once registered) on one Device: the results match the
// reference, the SFU counters count their elements and busy cycles per the
// file, and the core is held latency + busy per instruction.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <stdlib.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "opforge/isa/asm.h"
#include "opforge/isa/extension.h"
#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

std::string ext_file(const std::string &mnemonic, const std::string &funct6, unsigned latency,
                     unsigned occupancy, const std::string &intrinsic) {
  return "extension x" + intrinsic + "\ninsn " + mnemonic + "\n  encoding 31..26=" + funct6 +
         " vm vs2 rs1 14..12=5 vd 6..0=0x2B\n  operands vf\n  semantics exp(x) * y\n"
         "  unit sfu\n  latency " +
         std::to_string(latency) + "\n  throughput 8\n  occupancy " + std::to_string(occupancy) +
         "\n  intrinsic " + intrinsic + "\n";
}

// out[i] = INSN(in[i], scale) for n elements, 16 per strip (VLEN 128, LMUL 4).
std::string kernel_source(const std::string &mnemonic) {
  return R"(
  ld a1, 0(a0)
  ld a2, 8(a0)
  ld a3, 16(a0)
  flw fa0, 24(a0)
1:
  vsetvli t1, a3, e32, m4, ta, ma
  vle32.v v8, (a1)
  )" + mnemonic +
         R"( v16, v8, fa0
  vse32.v v16, (a2)
  slli t2, t1, 2
  add a1, a1, t2
  add a2, a2, t2
  sub a3, a3, t1
  bnez a3, 1b
  xmtia.done
)";
}

constexpr uint64_t kElements = 1024, kStrips = kElements / 16, kGroupsPerStrip = 2;

struct ExtRun {
  uint64_t sfu_ops = 0, sfu_elements = 0, sfu_busy = 0, core_cycles = 0;
};

ExtRun launch(Device &dev, const std::string &mnemonic, const std::vector<float> &in, float scale) {
  const uint64_t din = dev.alloc(kElements * 4), dout = dev.alloc(kElements * 4);
  dev.copy_in(din, in.data(), kElements * 4);
  KernelLaunch k;
  k.image = KernelImage::from_code(isa::assemble_text_bytes(kernel_source(mnemonic)), 0x80000000);
  uint64_t args[4] = {din, dout, kElements, 0xffffffff00000000ull | std::bit_cast<uint32_t>(scale)};
  k.args.resize(sizeof args);
  std::memcpy(k.args.data(), args, sizeof args);
  auto before = [&](const char *n) { return dev.counter(std::string("pe[0][0].") + n); };
  const uint64_t ops0 = before("sfu.ops"), el0 = before("sfu.elements"),
                 busy0 = before("sfu.busy_cycles"), cyc0 = before("core.cycles");
  LaunchResult r = dev.launch(k);
  EXPECT_TRUE(r.ok()) << (r.traps.empty() ? "" : r.traps.front());
  std::vector<float> out(kElements);
  dev.copy_out(dout, out.data(), kElements * 4);
  for (uint64_t i = 0; i < kElements; ++i) {
    const float want = static_cast<float>(std::exp(double(in[i]))) * scale;
    EXPECT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(want))
        << mnemonic << " " << i;
  }
  return {before("sfu.ops") - ops0, before("sfu.elements") - el0, before("sfu.busy_cycles") - busy0,
          before("core.cycles") - cyc0};
}

TEST(ChipExt, SfuUnitInstructionCountsAsSfuWorkAndHoldsTheCorePerItsFile) {
  char tmpl[] = "/tmp/opforge-chip-ext-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string fast = dir + "/fast.ext", slow = dir + "/slow.ext";
  std::ofstream(fast) << ext_file("vcfast.vf", "0x0a", 12, 1, "c_fast");
  std::ofstream(slow) << ext_file("vcslow.vf", "0x0b", 112, 3, "c_slow");
  isa::register_extension_files({fast, slow});
  std::filesystem::remove_all(dir);

  Device dev(testing::preset("tiny", {"simulation.timing_mode=lt"}));
  std::vector<float> in(kElements);
  for (uint64_t i = 0; i < kElements; ++i) in[i] = -6.0f + 12.0f * float(i) / float(kElements);
  const ExtRun a = launch(dev, "vcfast.vf", in, 0.75f);
  const ExtRun b = launch(dev, "vcslow.vf", in, 0.75f);

  // One SFU operation per strip, every element counted, busy = groups x occupancy.
  EXPECT_EQ(a.sfu_ops, kStrips);
  EXPECT_EQ(a.sfu_elements, kElements);
  EXPECT_EQ(a.sfu_busy, kStrips * kGroupsPerStrip * 1);
  EXPECT_EQ(b.sfu_ops, kStrips);
  EXPECT_EQ(b.sfu_elements, kElements);
  EXPECT_EQ(b.sfu_busy, kStrips * kGroupsPerStrip * 3);
  // The core waits latency + busy per instruction: the slow file costs
  // (112 + 2 * 3) - (12 + 2 * 1) = 104 cycles more per strip.
  const double extra = double(kStrips) * 104.0;
  EXPECT_NEAR(double(b.core_cycles) - double(a.core_cycles), extra, extra * 0.02)
      << a.core_cycles << " vs " << b.core_cycles;
}

}  // namespace
}  // namespace opforge::model
