//===- iss_vector_fast_test.cpp - vector fast paths keep the element semantics ===//
//
// Unit-stride vector loads and stores copy their whole span at once when it
// lies in the direct-access region, and vfadd/vfsub/vfmul/vfdiv set up the
// host rounding mode and read the host flags once per instruction. These
// tests pin what the per-element definition does where the fast paths must
// step aside or must produce the same thing: a span running off the end of
// memory traps at its first bad element with vstart there, a store over
// tohost stops the run, fflags are the OR of the elements' flags (masked-off
// elements raise none) and the dynamic rounding mode applies.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>

#include "iss_test_util.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;
using opforge::isa::testing::build_program;
using opforge::isa::testing::TempDir;

namespace {

constexpr uint64_t kMemBytes = 1 << 20;

std::string done_word() {
  const InsnSpec *s = find_insn("xmtia.done");
  EXPECT_NE(s, nullptr);
  return "  .word " + std::to_string(s ? encode(*s, {}) : 0) + "\n";
}

struct Sim {
  ElfImage img;
  std::unique_ptr<FlatMemory> mem;
  std::unique_ptr<FunctionalAccelerator> accel;
  std::unique_ptr<Hart> hart;
  uint64_t base = 0;
  explicit Sim(const std::string &elf, std::optional<uint64_t> tohost = std::nullopt)
      : img(read_elf(elf)) {
    base = img.low_addr() & ~0xfffull;
    mem = std::make_unique<FlatMemory>(base, kMemBytes);
    accel = std::make_unique<FunctionalAccelerator>(*mem);
    load_elf(img, *mem);
    HartConfig cfg;
    cfg.reset_pc = img.entry;
    cfg.tohost_addr = tohost;
    hart = std::make_unique<Hart>(cfg, *mem, *accel);
    hart->set_xreg(10, base + kMemBytes);  // a0: the end of memory
  }
  uint32_t word(uint64_t addr) {
    uint32_t v = 0;
    EXPECT_TRUE(mem->load(addr, &v, 4));
    return v;
  }
};

uint32_t vword(Hart &h, unsigned reg, unsigned k) {
  uint32_t v;
  std::memcpy(&v, h.vreg(reg) + 4 * k, 4);
  return v;
}

TEST(IssVectorFast, UnitStrideLoadOffTheEndOfMemoryTrapsAtTheFirstBadElement) {
  TempDir dir;
  Sim s(build_program(dir, "vle_end", R"(
  .globl _start
_start:
  la t0, buf
  vsetivli zero, 4, e32, m1, ta, ma
  vle32.v v1, (t0)
  vle32.v v1, (t0)      # warm the direct region: the next load starts in it
  addi a0, a0, -8       # two elements before the end of memory
  vmv.v.i v2, 0
  vle32.v v2, (a0)
)" + done_word() + "  .balign 64\nbuf:\n  .word 1, 2, 3, 4\n"));
  ASSERT_TRUE(s.mem->store(s.base + kMemBytes - 8, "\x11\x11\x11\x11\x22\x22\x22\x22", 8));
  RunResult r = s.hart->run(1000);
  ASSERT_EQ(r.reason, StopReason::Trap);
  EXPECT_EQ(r.trap.cause, cause::kLoadAccessFault);
  EXPECT_EQ(r.trap.tval, s.base + kMemBytes);
  EXPECT_EQ(s.hart->read_csr(0x008), 2u);  // vstart: the faulting element
  EXPECT_EQ(vword(*s.hart, 2, 0), 0x11111111u);
  EXPECT_EQ(vword(*s.hart, 2, 1), 0x22222222u);
  EXPECT_EQ(vword(*s.hart, 1, 3), 4u);
}

TEST(IssVectorFast, UnitStrideStoreOverTohostStopsTheRun) {
  TempDir dir;
  const std::string elf = build_program(dir, "vse_tohost", R"(
  .globl _start
_start:
  la t0, buf
  vsetivli zero, 4, e32, m1, ta, ma
  vid.v v1
  vadd.vi v1, v1, 5
  vse32.v v1, (t0)      # warm the direct region
  addi t1, t0, 64
  vse32.v v1, (t1)      # elements 1 and 2 cover tohost (buf + 68)
  li t2, 99
  sw t2, 0(t0)
)" + done_word() + "  .balign 64\nbuf:\n  .space 128\n");
  ElfImage img = read_elf(elf);
  const uint64_t buf = img.symbols.count("buf") ? img.symbols.at("buf") : 0;
  ASSERT_NE(buf, 0u);
  Sim s(elf, buf + 68);
  RunResult r = s.hart->run(1000);
  ASSERT_EQ(r.reason, StopReason::Tohost);
  EXPECT_EQ(r.tohost_value, 6u | (7ull << 32));
  EXPECT_EQ(s.word(buf + 76), 8u);  // the whole instruction completed
  EXPECT_EQ(s.word(buf), 5u);       // the next store did not run
}

TEST(IssVectorFast, FpFlagsAreTheOrOfTheActiveElementsAndFrmApplies) {
  TempDir dir;
  Sim s(build_program(dir, "vfadd_flags", R"(
  .globl _start
_start:
  la t0, a
  la t1, b
  vsetivli zero, 4, e32, m1, ta, mu
  vle32.v v1, (t0)
  vle32.v v2, (t1)
  csrwi fflags, 0
  vfadd.vv v3, v1, v2   # overflow, inexact, exact, signaling NaN
  csrr s1, fflags
  li t2, 4              # element 2 only (exact)
  vmv.s.x v0, t2
  csrwi fflags, 0
  vfadd.vv v4, v1, v2, v0.t
  csrr s2, fflags
  csrwi frm, 1          # round towards zero
  vfadd.vv v5, v1, v2
  csrr s3, fflags
  csrwi frm, 0
  vfmul.vf v6, v2, ft0  # ft0 = 0 (not NaN-boxed: the canonical NaN)
)" + done_word() + R"(
  .balign 64
a:
  .word 0x7f7fffff, 0x3f800000, 0x40000000, 0x7f800001
b:
  .word 0x7f7fffff, 0x33c00000, 0x40000000, 0x3f800000
)"));
  RunResult r = s.hart->run(1000);
  ASSERT_EQ(r.reason, StopReason::Done);
  constexpr uint64_t nv = 16, of = 4, nx = 1;
  EXPECT_EQ(s.hart->xreg(9), nv | of | nx);  // s1
  EXPECT_EQ(s.hart->xreg(18), 0u);           // s2: the active element is exact
  EXPECT_EQ(vword(*s.hart, 3, 0), 0x7f800000u);
  EXPECT_EQ(vword(*s.hart, 3, 1), 0x3f800001u);  // 1 + 0.75 ulp rounds to 1 + 1 ulp
  EXPECT_EQ(vword(*s.hart, 3, 2), 0x40800000u);
  EXPECT_EQ(vword(*s.hart, 3, 3), 0x7fc00000u);  // canonical NaN
  EXPECT_EQ(vword(*s.hart, 4, 2), 0x40800000u);
  EXPECT_EQ(vword(*s.hart, 5, 0), 0x7f7fffffu);  // RTZ: overflow to the largest finite
  EXPECT_EQ(vword(*s.hart, 5, 1), 0x3f800000u);  // RTZ: truncated to 1
  EXPECT_EQ(s.hart->xreg(19), nv | of | nx);     // s3: NaN, overflow, inexact again
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(vword(*s.hart, 6, k), 0x7fc00000u) << k;
}

}  // namespace
