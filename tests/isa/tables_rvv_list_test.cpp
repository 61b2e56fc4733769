//===- tables_rvv_list_test.cpp - the tables hold every RVV group the ISA contract lists ===//
//
// The instruction groups the ISA is required to provide (RVV 1.0 subset and
// Zvfbfmin; segment loads/stores and fixed-point are not required), each
// spelled out by mnemonic, must all be table entries: a missing one would
// leave the assembler, disassembler and ISS without it.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opforge/isa/spec.h"

using namespace opforge::isa;

namespace {

struct Group {
  const char *what;
  std::vector<const char *> mnemonics;
};

const std::vector<Group> kRequired = {
    {"configuration", {"vsetvl", "vsetvli", "vsetivli"}},
    {"unit-stride loads/stores",
     {"vle8.v", "vle16.v", "vle32.v", "vle64.v", "vse8.v", "vse16.v", "vse32.v", "vse64.v"}},
    {"strided",
     {"vlse8.v", "vlse16.v", "vlse32.v", "vlse64.v", "vsse8.v", "vsse16.v", "vsse32.v",
      "vsse64.v"}},
    {"indexed ordered/unordered loads",
     {"vloxei8.v", "vloxei16.v", "vloxei32.v", "vloxei64.v", "vluxei8.v", "vluxei16.v",
      "vluxei32.v", "vluxei64.v"}},
    {"indexed ordered/unordered stores",
     {"vsoxei8.v", "vsoxei16.v", "vsoxei32.v", "vsoxei64.v", "vsuxei8.v", "vsuxei16.v",
      "vsuxei32.v", "vsuxei64.v"}},
    {"whole-register and mask loads/stores",
     {"vl1re8.v", "vl1re16.v", "vl1re32.v", "vl1re64.v", "vl2re8.v", "vl2re32.v", "vl4re32.v",
      "vl8re8.v", "vl8re64.v", "vs1r.v", "vs2r.v", "vs4r.v", "vs8r.v", "vlm.v", "vsm.v"}},
    {"integer add/sub/rsub",
     {"vadd.vv", "vadd.vx", "vadd.vi", "vsub.vv", "vsub.vx", "vrsub.vx", "vrsub.vi"}},
    {"logical",
     {"vand.vv", "vand.vx", "vand.vi", "vor.vv", "vor.vx", "vor.vi", "vxor.vv", "vxor.vx",
      "vxor.vi"}},
    {"shifts",
     {"vsll.vv", "vsll.vx", "vsll.vi", "vsrl.vv", "vsrl.vx", "vsrl.vi", "vsra.vv", "vsra.vx",
      "vsra.vi"}},
    {"integer compare",
     {"vmseq.vv",  "vmseq.vx", "vmseq.vi",  "vmsne.vv",  "vmsne.vx",  "vmsne.vi",  "vmsltu.vv",
      "vmsltu.vx", "vmslt.vv", "vmslt.vx",  "vmsleu.vv", "vmsleu.vx", "vmsleu.vi", "vmsle.vv",
      "vmsle.vx",  "vmsle.vi", "vmsgtu.vx", "vmsgtu.vi", "vmsgt.vx",  "vmsgt.vi"}},
    {"min/max",
     {"vminu.vv", "vminu.vx", "vmin.vv", "vmin.vx", "vmaxu.vv", "vmaxu.vx", "vmax.vv", "vmax.vx"}},
    {"mul/mulh",
     {"vmul.vv", "vmul.vx", "vmulh.vv", "vmulh.vx", "vmulhu.vv", "vmulhu.vx", "vmulhsu.vv",
      "vmulhsu.vx"}},
    {"div/rem",
     {"vdivu.vv", "vdivu.vx", "vdiv.vv", "vdiv.vx", "vremu.vv", "vremu.vx", "vrem.vv", "vrem.vx"}},
    {"fixed-point saturating add/sub",
     {"vsaddu.vv", "vsaddu.vx", "vsaddu.vi", "vsadd.vv", "vsadd.vx", "vsadd.vi", "vssubu.vv",
      "vssubu.vx", "vssub.vv", "vssub.vx"}},
    {"fixed-point averaging add/sub",
     {"vaaddu.vv", "vaaddu.vx", "vaadd.vv", "vaadd.vx", "vasubu.vv", "vasubu.vx", "vasub.vv",
      "vasub.vx"}},
    {"fixed-point fractional multiply, scaling shifts, narrowing clips",
     {"vsmul.vv", "vsmul.vx", "vssrl.vv", "vssrl.vx", "vssrl.vi", "vssra.vv", "vssra.vx",
      "vssra.vi", "vnclipu.wv", "vnclipu.wx", "vnclipu.wi", "vnclip.wv", "vnclip.wx",
      "vnclip.wi"}},
    {"widening add/sub",
     {"vwaddu.vv", "vwaddu.vx", "vwadd.vv", "vwadd.vx", "vwsubu.vv", "vwsub.vv", "vwaddu.wv",
      "vwadd.wv", "vwadd.wx", "vwsub.wv"}},
    {"widening mul",
     {"vwmul.vv", "vwmul.vx", "vwmulu.vv", "vwmulu.vx", "vwmulsu.vv", "vwmulsu.vx"}},
    {"merge/move", {"vmerge.vvm", "vmerge.vxm", "vmerge.vim", "vmv.v.v", "vmv.v.x", "vmv.v.i"}},
    {"fp add/sub/rsub, mul, div/rdiv, sqrt",
     {"vfadd.vv", "vfadd.vf", "vfsub.vv", "vfsub.vf", "vfrsub.vf", "vfmul.vv", "vfmul.vf",
      "vfdiv.vv", "vfdiv.vf", "vfrdiv.vf", "vfsqrt.v"}},
    {"fp min/max, sign injection",
     {"vfmin.vv", "vfmin.vf", "vfmax.vv", "vfmax.vf", "vfsgnj.vv", "vfsgnj.vf", "vfsgnjn.vv",
      "vfsgnjn.vf", "vfsgnjx.vv", "vfsgnjx.vf"}},
    {"fp fused multiply-add family",
     {"vfmacc.vv", "vfmacc.vf", "vfnmacc.vv", "vfnmacc.vf", "vfmsac.vv", "vfmsac.vf", "vfnmsac.vv",
      "vfnmsac.vf", "vfmadd.vv", "vfmadd.vf", "vfnmadd.vv", "vfnmadd.vf", "vfmsub.vv", "vfmsub.vf",
      "vfnmsub.vv", "vfnmsub.vf"}},
    {"fp compare",
     {"vmfeq.vv", "vmfeq.vf", "vmfne.vv", "vmfne.vf", "vmflt.vv", "vmflt.vf", "vmfle.vv",
      "vmfle.vf", "vmfgt.vf", "vmfge.vf"}},
    {"fp classify", {"vfclass.v"}},
    {"fp<->int conversions",
     {"vfcvt.xu.f.v", "vfcvt.x.f.v", "vfcvt.f.xu.v", "vfcvt.f.x.v", "vfcvt.rtz.xu.f.v",
      "vfcvt.rtz.x.f.v"}},
    {"widening conversions (incl. float16)",
     {"vfwcvt.xu.f.v", "vfwcvt.x.f.v", "vfwcvt.f.xu.v", "vfwcvt.f.x.v", "vfwcvt.f.f.v",
      "vfwcvt.rtz.xu.f.v", "vfwcvt.rtz.x.f.v"}},
    {"narrowing conversions (incl. float16)",
     {"vfncvt.xu.f.w", "vfncvt.x.f.w", "vfncvt.f.xu.w", "vfncvt.f.x.w", "vfncvt.f.f.w",
      "vfncvt.rod.f.f.w", "vfncvt.rtz.xu.f.w", "vfncvt.rtz.x.f.w"}},
    {"integer reductions",
     {"vredsum.vs", "vredmax.vs", "vredmaxu.vs", "vredmin.vs", "vredminu.vs", "vredand.vs",
      "vredor.vs", "vredxor.vs"}},
    {"fp and widening reductions",
     {"vfredusum.vs", "vfredosum.vs", "vfredmax.vs", "vfredmin.vs", "vwredsum.vs", "vwredsumu.vs",
      "vfwredusum.vs", "vfwredosum.vs"}},
    {"mask logical",
     {"vmand.mm", "vmnand.mm", "vmandn.mm", "vmxor.mm", "vmor.mm", "vmnor.mm", "vmorn.mm",
      "vmxnor.mm"}},
    {"mask population, find-first, set-before/including/only, iota, id",
     {"vcpop.m", "vfirst.m", "vmsbf.m", "vmsif.m", "vmsof.m", "viota.m", "vid.v"}},
    {"slides",
     {"vslideup.vx", "vslideup.vi", "vslidedown.vx", "vslidedown.vi", "vslide1up.vx",
      "vslide1down.vx", "vfslide1up.vf", "vfslide1down.vf"}},
    {"gathers, compress",
     {"vrgather.vv", "vrgather.vx", "vrgather.vi", "vrgatherei16.vv", "vcompress.vm"}},
    {"scalar moves", {"vmv.x.s", "vmv.s.x", "vfmv.f.s", "vfmv.s.f"}},
    {"bfloat16 conversions (Zvfbfmin)", {"vfncvtbf16.f.f.w", "vfwcvtbf16.f.f.v"}},
};

TEST(TablesRvvList, EveryRequiredVectorGroupIsInTheTables) {
  size_t checked = 0;
  for (const Group &g : kRequired) {
    for (const char *m : g.mnemonics) {
      EXPECT_NE(find_insn(m), nullptr) << g.what << ": '" << m << "' is not in isa/spec";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 292u);
}

TEST(TablesRvvList, RequiredVectorInstructionsAreVectorEncodings) {
  // OP-V (0x57), LOAD-FP (0x07) or STORE-FP (0x27) major opcodes.
  for (const Group &g : kRequired)
    for (const char *m : g.mnemonics)
      if (const InsnSpec *s = find_insn(m)) {
        const uint32_t major = s->match & 0x7f;
        EXPECT_TRUE(major == 0x57 || major == 0x07 || major == 0x27)
            << m << " has major opcode 0x" << std::hex << major;
      }
}

}  // namespace
