//===- asm_valid_test.cpp - per-extension encodings and disassembly round trip ===//
//
// Each case: source line, the word GNU as 2.40 produces for it (for Xmtia and
// Zvfbfmin, which binutils 2.40 lacks: the word computed by hand from
// docs/isa/xmtia.md and the Zvfbfmin specification) and the text objdump
// -M no-aliases prints. Checks assemble -> word, word -> text, text -> word.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>

#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/spec.h"

namespace opforge::isa {
namespace {

struct McCase {
  const char *source;
  uint32_t word;
  const char *text;
};

void check(const char *ext, const std::vector<McCase> &cases) {
  for (const auto &c : cases) {
    SCOPED_TRACE(c.source);
    std::vector<uint8_t> bytes;
    ASSERT_NO_THROW(bytes = assemble_text_bytes(c.source)) << c.source;
    ASSERT_EQ(bytes.size(), 4u);
    uint32_t w;
    std::memcpy(&w, bytes.data(), 4);
    EXPECT_EQ(w, c.word) << std::hex << "got 0x" << w << " want 0x" << c.word;
    const InsnSpec *insn = decode(c.word);
    ASSERT_NE(insn, nullptr);
    if (insn->name.rfind("csr", 0) != 0) {  // the Xmtia CSRs are read with Zicsr instructions
      EXPECT_EQ(insn->extension, ext);
    }
    const std::string text = disassemble(c.word, 0);
    EXPECT_EQ(text, c.text);
    std::vector<uint8_t> again;
    ASSERT_NO_THROW(again = assemble_text_bytes(text)) << text;
    ASSERT_EQ(again, bytes) << "round trip of " << text;
  }
}

TEST(AsmValid, RvI) {
  check("rv_i", {
                    {"add a0, a1, a2", 0x00c58533, "add\ta0,a1,a2"},
                    {"addi sp, sp, -16", 0xff010113, "addi\tsp,sp,-16"},
                    {"lui t0, 0xfffff", 0xfffff2b7, "lui\tt0,0xfffff"},
                    {"auipc ra, 0", 0x00000097, "auipc\tra,0x0"},
                    {"lbu a0, 0(a1)", 0x0005c503, "lbu\ta0,0(a1)"},
                    {"fence rw, rw", 0x0330000f, "fence\trw,rw"},
                    {"fence.tso", 0x8330000f, "fence.tso"},
                    {"jalr ra, 16(t0)", 0x010280e7, "jalr\tra,16(t0)"},
                });
}

TEST(AsmValid, Rv64I) {
  check("rv64_i", {
                      {"sd ra, 8(sp)", 0x00113423, "sd\tra,8(sp)"},
                      {"ld s0, -8(s0)", 0xff843403, "ld\ts0,-8(s0)"},
                      {"slli a0, a0, 63", 0x03f51513, "slli\ta0,a0,0x3f"},
                      {"sraiw t1, t2, 31", 0x41f3d31b, "sraiw\tt1,t2,0x1f"},
                  });
}

TEST(AsmValid, RvM) {
  check("rv_m", {
                    {"mulhsu a0, a1, a2", 0x02c5a533, "mulhsu\ta0,a1,a2"},
                });
}

TEST(AsmValid, Rv64M) {
  check("rv64_m", {
                      {"remuw a5, a6, a7", 0x031877bb, "remuw\ta5,a6,a7"},
                  });
}

TEST(AsmValid, RvA) {
  check("rv_a", {
                    {"sc.w.rl a2, a3, (a4)", 0x1ad7262f, "sc.w.rl\ta2,a3,(a4)"},
                });
}

TEST(AsmValid, Rv64A) {
  check("rv64_a", {
                      {"lr.d.aqrl a0, (a1)", 0x1605b52f, "lr.d.aqrl\ta0,(a1)"},
                      {"amomaxu.d.aq t0, t1, (t2)", 0xe463b2af, "amomaxu.d.aq\tt0,t1,(t2)"},
                  });
}

TEST(AsmValid, RvF) {
  check("rv_f", {
                    {"flw fa0, 4(a0)", 0x00452507, "flw\tfa0,4(a0)"},
                    {"fmadd.s fa0, fa1, fa2, fa3, rne", 0x68c58543, "fmadd.s\tfa0,fa1,fa2,fa3,rne"},
                    {"fcvt.wu.s a0, fa0, rtz", 0xc0151553, "fcvt.wu.s\ta0,fa0,rtz"},
                    {"fmv.x.w a0, ft11", 0xe00f8553, "fmv.x.w\ta0,ft11"},
                });
}

TEST(AsmValid, Rv64F) {
  check("rv64_f", {
                      {"fcvt.l.s a1, fa1", 0xc025f5d3, "fcvt.l.s\ta1,fa1"},
                  });
}

TEST(AsmValid, RvD) {
  check("rv_d", {
                    {"fld fs0, -2048(sp)", 0x80013407, "fld\tfs0,-2048(sp)"},
                    {"fsqrt.d ft0, ft1, rup", 0x5a00b053, "fsqrt.d\tft0,ft1,rup"},
                    {"fcvt.s.d fa0, fa1", 0x4015f553, "fcvt.s.d\tfa0,fa1"},
                    {"fcvt.d.s fa0, fa1", 0x42058553, "fcvt.d.s\tfa0,fa1"},
                    {"fclass.d a0, fa0", 0xe2051553, "fclass.d\ta0,fa0"},
                });
}

TEST(AsmValid, Rv64D) {
  check("rv64_d", {
                      {"fmv.d.x fa0, a0", 0xf2050553, "fmv.d.x\tfa0,a0"},
                  });
}

TEST(AsmValid, RvZicsr) {
  check("rv_zicsr", {
                        {"csrrw a0, mstatus, a1", 0x30059573, "csrrw\ta0,mstatus,a1"},
                        {"csrrsi zero, mie, 8", 0x30446073, "csrrsi\tzero,mie,8"},
                        {"csrrc t0, 0x7c0, t1", 0x7c0332f3, "csrrc\tt0,0x7c0,t1"},
                    });
}

TEST(AsmValid, RvZifencei) {
  check("rv_zifencei", {
                           {"fence.i", 0x0000100f, "fence.i"},
                       });
}

TEST(AsmValid, RvSystem) {
  check("rv_system", {
                         {"ecall", 0x00000073, "ecall"},
                         {"ebreak", 0x00100073, "ebreak"},
                         {"mret", 0x30200073, "mret"},
                         {"wfi", 0x10500073, "wfi"},
                     });
}

TEST(AsmValid, RvV) {
  check("rv_v",
        {
            {"vsetvli t0, a0, e32, m4, ta, ma", 0x0d2572d7, "vsetvli\tt0,a0,e32,m4,ta,ma"},
            {"vsetivli zero, 16, e16, mf2, tu, mu", 0xc0f87057, "vsetivli\tzero,16,e16,mf2,tu,mu"},
            {"vsetvl a0, a1, a2", 0x80c5f557, "vsetvl\ta0,a1,a2"},
            {"vle32.v v8, (a0)", 0x02056407, "vle32.v\tv8,(a0)"},
            {"vse64.v v16, (a1), v0.t", 0x0005f827, "vse64.v\tv16,(a1),v0.t"},
            {"vlse16.v v4, (a0), t0", 0x0a555207, "vlse16.v\tv4,(a0),t0"},
            {"vloxei32.v v2, (a1), v8, v0.t", 0x0c85e107, "vloxei32.v\tv2,(a1),v8,v0.t"},
            {"vl8re64.v v8, (a0)", 0xe2857407, "vl8re64.v\tv8,(a0)"},
            {"vs2r.v v2, (a0)", 0x22850127, "vs2r.v\tv2,(a0)"},
            {"vlm.v v0, (a0)", 0x02b50007, "vlm.v\tv0,(a0)"},
            {"vadd.vv v1, v2, v3", 0x022180d7, "vadd.vv\tv1,v2,v3"},
            {"vadd.vx v1, v2, a0, v0.t", 0x002540d7, "vadd.vx\tv1,v2,a0,v0.t"},
            {"vadd.vi v1, v2, -16", 0x022830d7, "vadd.vi\tv1,v2,-16"},
            {"vsll.vi v1, v2, 31", 0x962fb0d7, "vsll.vi\tv1,v2,31"},
            {"vmacc.vv v4, v5, v6", 0xb662a257, "vmacc.vv\tv4,v5,v6"},
            {"vwmaccus.vx v4, a0, v6", 0xfa656257, "vwmaccus.vx\tv4,a0,v6"},
            {"vmerge.vim v1, v2, 15, v0", 0x5c27b0d7, "vmerge.vim\tv1,v2,15,v0"},
            {"vmv.v.x v3, a1", 0x5e05c1d7, "vmv.v.x\tv3,a1"},
            {"vmv4r.v v4, v8", 0x9e81b257, "vmv4r.v\tv4,v8"},
            {"vfadd.vf v1, v2, fa0, v0.t", 0x002550d7, "vfadd.vf\tv1,v2,fa0,v0.t"},
            {"vfmacc.vv v1, v2, v3", 0xb23110d7, "vfmacc.vv\tv1,v2,v3"},
            {"vfncvt.f.f.w v1, v2", 0x4a2a10d7, "vfncvt.f.f.w\tv1,v2"},
            {"vfwcvt.f.f.v v4, v2", 0x4a261257, "vfwcvt.f.f.v\tv4,v2"},
            {"vfredosum.vs v1, v2, v3", 0x0e2190d7, "vfredosum.vs\tv1,v2,v3"},
            {"vwredsumu.vs v1, v2, v3", 0xc22180d7, "vwredsumu.vs\tv1,v2,v3"},
            {"vcpop.m a0, v2", 0x42282557, "vcpop.m\ta0,v2"},
            {"vfirst.m a1, v3, v0.t", 0x4038a5d7, "vfirst.m\ta1,v3,v0.t"},
            {"vid.v v1", 0x5208a0d7, "vid.v\tv1"},
            {"viota.m v1, v2", 0x522820d7, "viota.m\tv1,v2"},
            {"vmsbf.m v1, v2", 0x5220a0d7, "vmsbf.m\tv1,v2"},
            {"vslidedown.vi v1, v2, 5", 0x3e22b0d7, "vslidedown.vi\tv1,v2,5"},
            {"vslide1up.vx v1, v2, a0", 0x3a2560d7, "vslide1up.vx\tv1,v2,a0"},
            {"vfslide1down.vf v1, v2, fa0", 0x3e2550d7, "vfslide1down.vf\tv1,v2,fa0"},
            {"vrgatherei16.vv v1, v2, v3", 0x3a2180d7, "vrgatherei16.vv\tv1,v2,v3"},
            {"vcompress.vm v1, v2, v3", 0x5e21a0d7, "vcompress.vm\tv1,v2,v3"},
            {"vmv.x.s a0, v1", 0x42102557, "vmv.x.s\ta0,v1"},
            {"vfmv.s.f v1, fa0", 0x420550d7, "vfmv.s.f\tv1,fa0"},
            {"vzext.vf4 v1, v2", 0x4a2220d7, "vzext.vf4\tv1,v2"},
            {"vmnand.mm v1, v2, v3", 0x7621a0d7, "vmnand.mm\tv1,v2,v3"},
            {"vmfge.vf v1, v2, fa0", 0x7e2550d7, "vmfge.vf\tv1,v2,fa0"},
        });
}

TEST(AsmValid, RvZfh) {
  check("rv_zfh",
        {
            {"flh ft0, 2(a0)", 0x00251007, "flh\tft0,2(a0)"},
            {"fsh fa1, -2(sp)", 0xfeb11f27, "fsh\tfa1,-2(sp)"},
            {"fmadd.h fa0, fa1, fa2, fa3", 0x6cc5f543, "fmadd.h\tfa0,fa1,fa2,fa3"},
            {"fnmsub.h fa0, fa1, fa2, fa3, rtz", 0x6cc5954b, "fnmsub.h\tfa0,fa1,fa2,fa3,rtz"},
            {"fadd.h fa0, fa1, fa2", 0x04c5f553, "fadd.h\tfa0,fa1,fa2"},
            {"fsub.h ft1, ft2, ft3, rne", 0x0c3100d3, "fsub.h\tft1,ft2,ft3,rne"},
            {"fmul.h fs0, fs1, fs2, rup", 0x1524b453, "fmul.h\tfs0,fs1,fs2,rup"},
            {"fdiv.h fa0, fa1, fa2, rdn", 0x1cc5a553, "fdiv.h\tfa0,fa1,fa2,rdn"},
            {"fsqrt.h fa0, fa1", 0x5c05f553, "fsqrt.h\tfa0,fa1"},
            {"fsgnj.h fa0, fa1, fa2", 0x24c58553, "fsgnj.h\tfa0,fa1,fa2"},
            {"fsgnjx.h fa0, fa1, fa2", 0x24c5a553, "fsgnjx.h\tfa0,fa1,fa2"},
            {"fmin.h fa0, fa1, fa2", 0x2cc58553, "fmin.h\tfa0,fa1,fa2"},
            {"fmax.h fa0, fa1, fa2", 0x2cc59553, "fmax.h\tfa0,fa1,fa2"},
            {"feq.h a0, fa1, fa2", 0xa4c5a553, "feq.h\ta0,fa1,fa2"},
            {"flt.h a0, fa1, fa2", 0xa4c59553, "flt.h\ta0,fa1,fa2"},
            {"fle.h a0, fa1, fa2", 0xa4c58553, "fle.h\ta0,fa1,fa2"},
            {"fclass.h a0, fa1", 0xe4059553, "fclass.h\ta0,fa1"},
            {"fcvt.w.h a0, fa1, rtz", 0xc4059553, "fcvt.w.h\ta0,fa1,rtz"},
            {"fcvt.wu.h a0, fa1", 0xc415f553, "fcvt.wu.h\ta0,fa1"},
            {"fcvt.h.w fa0, a1", 0xd405f553, "fcvt.h.w\tfa0,a1"},
            {"fcvt.s.h fa0, fa1", 0x40258553, "fcvt.s.h\tfa0,fa1"},
            {"fcvt.h.s fa0, fa1, rmm", 0x4405c553, "fcvt.h.s\tfa0,fa1,rmm"},
            {"fmv.x.h a0, fa1", 0xe4058553, "fmv.x.h\ta0,fa1"},
            {"fmv.h.x fa0, a1", 0xf4058553, "fmv.h.x\tfa0,a1"},
        });
  check("rv_d_zfh", {
                        {"fcvt.d.h fa0, fa1", 0x42258553, "fcvt.d.h\tfa0,fa1"},
                        {"fcvt.h.d fa0, fa1", 0x4415f553, "fcvt.h.d\tfa0,fa1"},
                    });
  check("rv64_zfh", {
                        {"fcvt.l.h a0, fa1, rtz", 0xc4259553, "fcvt.l.h\ta0,fa1,rtz"},
                        {"fcvt.lu.h a0, fa1", 0xc435f553, "fcvt.lu.h\ta0,fa1"},
                        {"fcvt.h.l fa0, a1", 0xd425f553, "fcvt.h.l\tfa0,a1"},
                        {"fcvt.h.lu fa0, a1, rne", 0xd4358553, "fcvt.h.lu\tfa0,a1,rne"},
                    });
}

TEST(AsmValid, RvZvfbfmin) {
  check("rv_zvfbfmin",
        {
            {"vfncvtbf16.f.f.w v1, v2", 0x4a2e90d7, "vfncvtbf16.f.f.w\tv1,v2"},
            {"vfwcvtbf16.f.f.v v4, v2, v0.t", 0x48269257, "vfwcvtbf16.f.f.v\tv4,v2,v0.t"},
        });
}

TEST(AsmValid, Xmtia) {
  check("xmtia", {
                     {"xmtia.done", 0x0000000b, "xmtia.done"},
                     {"csrrs a0, mtia.pid_x, zero", 0xfc002573, "csrrs\ta0,mtia.pid_x,zero"},
                     {"csrrs t0, mtia.sfu_prec, zero", 0xfc9022f3, "csrrs\tt0,mtia.sfu_prec,zero"},
                     {"xmtia.dma a0, a1", 0x00b5100b, "xmtia.dma\ta0,a1"},
                     {"xmtia.dmawait a2", 0x0006200b, "xmtia.dmawait\ta2"},
                     {"xmtia.dpe a0", 0x0005300b, "xmtia.dpe\ta0"},
                     {"xmtia.dpewait", 0x0000400b, "xmtia.dpewait"},
                     {"vfexp.v v1, v2", 0x022010ab, "vfexp.v\tv1,v2"},
                     {"vfrecip.v v4, v8, v0.t", 0x1c80122b, "vfrecip.v\tv4,v8,v0.t"},
                 });
}

}  // namespace
}  // namespace opforge::isa
