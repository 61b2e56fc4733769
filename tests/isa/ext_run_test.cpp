//===- ext_run_test.cpp - an extension instruction from a file: asm, disasm, ISS ===//
//
// One process, like a test binary whose earlier tests already ran the ISS:
// the hart and decode tables exist before the extension is registered.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>

#include "ext_test_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/extension.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/hart.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/sfu_math.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

using namespace opforge::isa;

namespace {

// Timing chosen so every term shows: 1 issue + 12 latency + ceil(n/8) * 2.
const char *kExtFile = R"(# a test extension
extension xtestexpscale
description exp(x) scaled by a scalar
insn vtexpscale.vf
  encoding   31..26=0x09 vm vs2 rs1 14..12=5 vd 6..0=0x2B
  operands   vf
  sew        32
  semantics  exp(x) * y
  unit       sfu
  latency    12
  throughput 8
  occupancy  2
  intrinsic  t_expscale
)";

constexpr uint64_t kBase = 0x80000000, kIn = kBase + 0x1000, kOut = kBase + 0x2000,
                   kOld = kBase + 0x3000, kMask = kBase + 0x4000;

const char *kProgram = R"(
  vsetvli t0, a0, e32, m2, ta, mu
  vle32.v v8, (a1)
  vtexpscale.vf v16, v8, fa0
  vse32.v v16, (a2)
  vlm.v v0, (a4)
  vle32.v v24, (a3)
  vtexpscale.vf v24, v8, fa0, v0.t
  vse32.v v24, (a3)
  xmtia.done
)";

uint64_t box(float f) { return 0xffffffff00000000ull | std::bit_cast<uint32_t>(f); }

struct Machine {
  FlatMemory mem{kBase, 1 << 16};
  FunctionalAccelerator accel{mem};
  std::unique_ptr<Hart> hart;
  explicit Machine(unsigned sfu_prec = 0) {
    HartConfig cfg;
    cfg.vlen_bits = 256;
    cfg.reset_pc = kBase;
    cfg.xmtia.sfu_prec_bits = sfu_prec;
    hart = std::make_unique<Hart>(cfg, mem, accel);
  }
  void load(const std::vector<uint8_t> &code) {
    mem.store(kBase, code.data(), code.size());
    hart->reset();
  }
  template <class T>
  void put(uint64_t addr, const std::vector<T> &v) {
    mem.store(addr, v.data(), v.size() * sizeof(T));
  }
  float get(uint64_t addr, size_t k) {
    float f;
    mem.load(addr + 4 * k, &f, 4);
    return f;
  }
};

// The reference: exp in double rounded once to fp32 (then to the SFU
// precision), times y rounded to nearest even.
float reference(float x, float y, unsigned prec) {
  const float e = sfu::round_to_precision(static_cast<float>(std::exp(double(x))), prec);
  return e * y;
}

std::vector<uint32_t> words_of(const std::vector<uint8_t> &bytes) {
  std::vector<uint32_t> w(bytes.size() / 4);
  std::memcpy(w.data(), bytes.data(), w.size() * 4);
  return w;
}

void run_and_check(Machine &m, unsigned prec) {
  const size_t vl = 13;  // two groups of 8: 13 elements, VLMAX 16
  std::vector<float> in(16), old(16);
  for (size_t k = 0; k < in.size(); ++k) {
    in[k] = -4.0f + 0.61f * float(k);
    old[k] = 1000.0f + float(k);
  }
  in[3] = -0.0f;
  in[5] = std::numeric_limits<float>::infinity();
  in[6] = -std::numeric_limits<float>::infinity();
  in[7] = std::nanf("");
  in[9] = 100.0f;  // overflows to +inf
  const std::vector<uint8_t> mask = {0b10101101, 0b00110110};
  m.put(kIn, in);
  m.put(kOld, old);
  m.put(kOut, old);
  m.put(kMask, mask);
  const float y = 0.75f;
  m.hart->set_xreg(10, vl);
  m.hart->set_xreg(11, kIn);
  m.hart->set_xreg(12, kOut);
  m.hart->set_xreg(13, kOld);
  m.hart->set_xreg(14, kMask);
  m.hart->set_freg(10, box(y));
  RunResult r = m.hart->run(100);
  ASSERT_EQ(r.reason, StopReason::Done) << r.trap.describe();
  for (size_t k = 0; k < 16; ++k) {
    const float want = k < vl ? reference(in[k], y, prec) : old[k];  // tail undisturbed
    const float got = m.get(kOut, k);
    if (std::isnan(want))
      EXPECT_EQ(std::bit_cast<uint32_t>(got), 0x7fc00000u) << "element " << k;
    else
      EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
          << "element " << k << ": " << got << " vs " << want;
    const bool active = k < vl && ((mask[k / 8] >> (k % 8)) & 1);
    const float masked = m.get(kOld, k);
    const float want_masked = active ? want : old[k];  // inactive: undisturbed
    if (std::isnan(want_masked))
      EXPECT_TRUE(std::isnan(masked)) << "masked element " << k;
    else
      EXPECT_EQ(std::bit_cast<uint32_t>(masked), std::bit_cast<uint32_t>(want_masked))
          << "masked element " << k;
  }
}

}  // namespace

TEST(ExtRun, RegisteredAfterTheIssRanAssemblesDisassemblesRunsAndTimes) {
  // The ISS and the tables are in use before the extension exists.
  {
    Machine m;
    m.load(assemble_text_bytes("  addi a0, zero, 7\n  xmtia.done\n"));
    ASSERT_EQ(m.hart->run(10).reason, StopReason::Done);
    EXPECT_EQ(find_insn("vtexpscale.vf"), nullptr);
    EXPECT_THROW(assemble_text_bytes(kProgram), opforge::Error);
  }
  ExtTempDir dir;
  const std::string path = dir.file("vtexpscale.ext");
  std::ofstream(path) << kExtFile;
  register_extension_files({path});
  register_extension_files({path});  // the same file again: nothing happens

  const InsnSpec *spec = find_insn("vtexpscale.vf");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->extension, "xtestexpscale");
  EXPECT_EQ(spec->source, path + ":4");
  EXPECT_EQ(&instructions().at(static_cast<size_t>(spec->id)), spec);
  const ExtInsn *ext = find_ext_intrinsic("t_expscale");
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(find_ext_insn(spec->id), ext);
  EXPECT_EQ(ext->mask, 0xfc00707fu);
  EXPECT_EQ(ext->match, (0x09u << 26) | (5u << 12) | 0x2Bu);
  EXPECT_EQ(ext->fields, (std::vector<std::string>{"vm", "vs2", "fs1", "vd"}));

  // Assembler: the encoding from the file's fields; disassembler: the same
  // text back, which assembles to the same words.
  const std::vector<uint8_t> code = assemble_text_bytes(kProgram);
  const std::vector<uint32_t> words = words_of(code);
  const uint32_t unmasked = words[2], masked = words[6];
  EXPECT_EQ(unmasked, ext->match | (1u << 25) | (8u << 20) | (10u << 15) | (16u << 7));
  EXPECT_EQ(masked, ext->match | (8u << 20) | (10u << 15) | (24u << 7));
  EXPECT_EQ(decode(unmasked), spec);
  EXPECT_EQ(disassemble(unmasked), "vtexpscale.vf\tv16,v8,fa0");
  EXPECT_EQ(disassemble(masked), "vtexpscale.vf\tv24,v8,fa0,v0.t");
  std::string relisted;
  for (uint32_t w : words) relisted += "  " + disassemble(w) + "\n";
  EXPECT_EQ(words_of(assemble_text_bytes(relisted)), words);

  // ISS: element-wise against the reference, exact and at a reduced SFU precision.
  Machine exact;
  exact.load(code);
  run_and_check(exact, 0);
  EXPECT_EQ(exact.accel.sfu_elements(), 13u + 8u);  // unmasked vl + active masked lanes
  Machine coarse(7);
  coarse.load(code);
  run_and_check(coarse, 7);

  // Timing per the file: issue (1) + latency 12 + ceil(13 / 8) groups * occupancy 2.
  Machine timed;
  timed.load(code);
  timed.hart->set_xreg(10, 13);
  timed.hart->set_xreg(11, kIn);
  timed.hart->set_xreg(12, kOut);
  timed.hart->set_xreg(13, kOld);
  timed.hart->set_xreg(14, kMask);
  timed.hart->set_freg(10, box(1.0f));
  timed.hart->step();
  timed.hart->step();
  const RunResult one = timed.hart->step();
  EXPECT_EQ(one.instructions, 1u);
  EXPECT_EQ(one.cycles, 1u + 12u + 2u * 2u);
}

TEST(ExtRun, WrongSewAndMisalignedGroupsAreIllegal) {
  ExtTempDir dir;
  const std::string path = dir.file("vtexpscale.ext");
  std::ofstream(path) << kExtFile;
  register_extension_files({path});  // registered by the test before: a no-op
  for (const char *bad :
       {"  vsetvli t0, a0, e16, m1, ta, ma\n  vtexpscale.vf v4, v8, fa0\n",
        "  vsetvli t0, a0, e32, m2, ta, ma\n  vtexpscale.vf v5, v8, fa0\n",
        "  vsetvli t0, a0, e32, m2, ta, ma\n  vtexpscale.vf v4, v9, fa0\n",
        "  vsetvli t0, a0, e32, m1, ta, ma\n  vtexpscale.vf v0, v8, fa0, v0.t\n"}) {
    Machine m;
    m.load(assemble_text_bytes(std::string(bad) + "  xmtia.done\n"));
    m.hart->set_xreg(10, 4);
    const RunResult r = m.hart->run(10);
    ASSERT_EQ(r.reason, StopReason::Trap) << bad;
    EXPECT_EQ(r.trap.cause, cause::kIllegalInsn) << bad;
    EXPECT_EQ(r.trap.pc, kBase + 4) << bad;
    EXPECT_EQ(r.trap.mnemonic, "vtexpscale.vf") << bad;
  }
}

TEST(ExtRun, ShippedVfexpscaleIsTheWorkedExample) {
  const ExtensionFile f = load_extension(shipped_extension("vfexpscale.ext"));
  ASSERT_EQ(f.insns.size(), 1u);
  const ExtInsn &i = f.insns[0];
  EXPECT_EQ(f.name, "xvfexpscale");
  EXPECT_EQ(i.mnemonic, "vfexpscale.vf");
  EXPECT_EQ(i.intrinsic, "expscale");
  EXPECT_EQ(i.unit, ExtUnit::Sfu);
  EXPECT_EQ(i.operands, ExtOperands::VF);
  EXPECT_EQ(i.latency_cycles, 12u);
  EXPECT_EQ(i.elements_per_cycle, 8u);
  EXPECT_EQ(i.occupancy_cycles, 1u);
  // custom-1 with a funct6 Xmtia does not use: registers next to every table.
  register_extension(f);
  const InsnSpec *s = find_insn("vfexpscale.vf");
  ASSERT_NE(s, nullptr);
  for (const InsnSpec &o : instructions()) {
    if (o.id != s->id) {
      EXPECT_NE(s->mask & o.mask & (s->match ^ o.match), 0u) << "overlaps " << o.name;
    }
  }
  for (float x : {-3.0f, 0.0f, 0.5f, 20.0f})
    EXPECT_EQ(ext_evaluate(i, x, 2.5f, 0), reference(x, 2.5f, 0)) << x;
}

TEST(ExtRun, ExpressionHelpersRoundLikeTheVectorUnit) {
  auto eval = [](const std::string &expr, float x, float y, unsigned prec = 0) {
    const std::string text =
        "extension xe\ninsn ve.vv\n encoding 31..26=0x3f vm vs2 vs1 "
        "14..12=6 vd 6..0=0x7B\n operands vv\n semantics " +
        expr + "\n unit vfp\n latency 1\n throughput 1\n intrinsic e\n";
    return ext_evaluate(parse_extension(text, "e.ext").insns.at(0), x, y, prec);
  };
  EXPECT_EQ(eval("fma(x, y, 1)", 3.0f, 0.5f), std::fma(3.0f, 0.5f, 1.0f));
  EXPECT_EQ(eval("-(x - y) / 2", 3.0f, 0.5f), -1.25f);
  EXPECT_EQ(eval("max(x, y) + min(x, y) * 0", 3.0f, 0.5f), 3.0f);
  EXPECT_EQ(eval("min(x, y)", std::nanf(""), 0.5f), 0.5f);
  EXPECT_EQ(eval("abs(x) + sqrt(y)", -2.0f, 4.0f), 4.0f);
  EXPECT_EQ(eval("round_p(x, 2)", 1.2f, 0), 1.25f);
  EXPECT_EQ(eval("recip(x) * rsqrt(y)", 4.0f, 16.0f), 0.0625f);
  const float erf1 = sfu::exact(SfuFunc::Erf, 1.0f), cos1 = sfu::exact(SfuFunc::Cos, 1.0f);
  EXPECT_EQ(eval("tanh(x) + erf(y) + sin(x) + cos(y) + log(y)", 0.0f, 1.0f),
            ((0.0f + erf1) + 0.0f) + cos1 + 0.0f);
  // The SFU helpers honour the precision; the other operations do not.
  EXPECT_EQ(eval("exp(x)", 1.0f, 0, 4), sfu::round_to_precision(sfu::exact(SfuFunc::Exp, 1.0f), 4));
  EXPECT_EQ(eval("x * y", 1.1f, 1.3f, 4), 1.1f * 1.3f);
  EXPECT_EQ(std::bit_cast<uint32_t>(eval("x - x", std::numeric_limits<float>::infinity(), 0)),
            0x7fc00000u);
}

TEST(ExtRun, VectorUnitTimeIsVectorBusyTimeAndEveryEntryHasSemantics) {
  // A vv instruction on the vector FP datapath, custom-3, no vm field (always unmasked).
  register_extension(
      parse_extension("extension xtestfmaxabs\n"
                      "insn vtmaxabs.vv\n"
                      "  encoding 31..26=0x21 25=1 vs2 vs1 14..12=1 vd 6..0=0x7B\n"
                      "  operands vv\n"
                      "  semantics max(abs(x), abs(y)) - 1\n"
                      "  unit vfp\n"
                      "  latency 3\n"
                      "  throughput 2\n"
                      "  occupancy 5\n"
                      "  intrinsic t_maxabs\n",
                      "maxabs.ext"));
  EXPECT_THROW(assemble_text_bytes("  vtmaxabs.vv v4, v8, v12, v0.t\n"), opforge::Error);
  Machine m;
  m.load(
      assemble_text_bytes("  vsetvli t0, a0, e32, m1, ta, ma\n"
                          "  vle32.v v8, (a1)\n"
                          "  vle32.v v12, (a2)\n"
                          "  vtmaxabs.vv v4, v8, v12\n"
                          "  vse32.v v4, (a3)\n"
                          "  xmtia.done\n"));
  const std::vector<float> a = {1.5f, -7.0f, 0.25f, 3.0f, -2.0f},
                           b = {-4.0f, 2.0f, 0.5f, 3.0f, 9.0f};
  m.put(kIn, a);
  m.put(kOld, b);
  m.hart->set_xreg(10, 5);
  m.hart->set_xreg(11, kIn);
  m.hart->set_xreg(12, kOld);
  m.hart->set_xreg(13, kOut);
  m.hart->step();
  m.hart->step();
  m.hart->step();
  const uint64_t busy0 = m.hart->vector_busy_cycles();
  const RunResult one = m.hart->step();
  // issue 1 + latency 3 + ceil(5 / 2) groups * occupancy 5, all vector busy but the issue.
  EXPECT_EQ(one.cycles, 1u + 3u + 3u * 5u);
  EXPECT_EQ(m.hart->vector_busy_cycles() - busy0, 3u + 3u * 5u);
  EXPECT_EQ(m.accel.sfu_elements(), 0u);
  ASSERT_EQ(m.hart->run(10).reason, StopReason::Done);
  for (size_t k = 0; k < a.size(); ++k)
    EXPECT_EQ(m.get(kOut, k), std::max(std::fabs(a[k]), std::fabs(b[k])) - 1.0f) << k;

  // The ISS's coverage list names every table entry, extensions included.
  const std::vector<std::string> sem = semantics_mnemonics();
  for (const InsnSpec &s : instructions())
    EXPECT_TRUE(std::binary_search(sem.begin(), sem.end(), s.name)) << s.name;
}
