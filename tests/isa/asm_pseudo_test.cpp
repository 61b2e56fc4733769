//===- asm_pseudo_test.cpp - pseudo-instructions match GNU as + ld bytes ---===//
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sstream>

#include "binutils_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"

namespace opforge::isa {
namespace {

using namespace testutil;

// Assembles `body` with GNU as (no relaxation), links at 0 with ld and
// compares .text with our assembler's bytes, word by word.
void expect_same_as_gnu(const std::string &body) {
  ScratchDir dir("pseudo");
  const std::string src = ".option norelax\n.globl _start\n_start:\n" + body;
  write_text(dir / "p.s", src);
  int st = 0;
  std::string log = run("riscv64-unknown-elf-as -march=" + std::string(kMarch) + " -o " +
                            (dir / "p.o") + " " + (dir / "p.s"),
                        &st);
  ASSERT_EQ(st, 0) << log;
  log = run("riscv64-unknown-elf-ld -Ttext=0 -o " + (dir / "p.elf") + " " + (dir / "p.o"), &st);
  ASSERT_EQ(st, 0) << log;
  log = run(
      "riscv64-unknown-elf-objcopy -O binary -j .text " + (dir / "p.elf") + " " + (dir / "p.bin"),
      &st);
  ASSERT_EQ(st, 0) << log;
  const std::vector<uint8_t> ref = read_bytes(dir / "p.bin");
  std::vector<uint8_t> ours;
  ASSERT_NO_THROW(ours = assemble_text_bytes(src, "p.s"));
  ASSERT_EQ(ours.size(), ref.size()) << body;
  for (size_t i = 0; i + 4 <= ref.size(); i += 4) {
    uint32_t a, r;
    std::memcpy(&a, &ours[i], 4);
    std::memcpy(&r, &ref[i], 4);
    EXPECT_EQ(a, r) << "at +" << i << ": ours '" << disassemble(a, i) << "' GNU '"
                    << disassemble(r, i) << "'";
  }
}

class AsmPseudo : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *t :
         {"riscv64-unknown-elf-as", "riscv64-unknown-elf-ld", "riscv64-unknown-elf-objcopy"})
      if (!have_tool(t)) GTEST_SKIP() << t << " not installed";
  }
};

TEST_F(AsmPseudo, LiEdgeConstantsMatchGnuAs) {
  expect_same_as_gnu(
      "li a0, 0\nli a0, -1\nli a0, 2047\nli a0, -2048\nli a0, 2048\nli a0, 0x7fffffff\n"
      "li a0, -0x80000000\nli a0, 0x80000000\nli a0, 0xffffffff\nli a0, 0x123456789abcdef0\n"
      "li a0, 0x8000000000000000\nli a0, 0x7fffffffffffffff\nli t3, 0x100000000\nli a1, "
      "0xfff00000000\n"
      "li a2, -4097\nli a3, 0x12345678\nli s11, 0xffffffffffff0000\n");
}

TEST_F(AsmPseudo, LiRandomConstantsMatchGnuAs) {
  std::mt19937_64 rng(1129);
  std::ostringstream s;
  for (int k = 0; k < 300; ++k) {
    // Mix of widths and sparse bit patterns.
    uint64_t v = rng();
    const int kind = k % 4;
    if (kind == 0) v >>= (rng() % 64);
    if (kind == 1) v &= rng() & rng();
    if (kind == 2) v = ~(v >> (rng() % 64));
    s << "li a" << (k % 8) << ", " << static_cast<int64_t>(v) << "\n";
  }
  expect_same_as_gnu(s.str());
}

TEST_F(AsmPseudo, AliasesMatchGnuAs) {
  expect_same_as_gnu(
      "nop\nmv a0, a1\nnot a0, a1\nneg a0, a1\nnegw a0, a1\nsext.w a0, a1\nseqz a0, a1\nsnez a0, "
      "a1\n"
      "sltz a0, a1\nsgtz a0, a1\nbeqz a0, _start\nbnez a0, _start\nblez a0, _start\nbgez a0, "
      "_start\n"
      "bltz a0, _start\nbgtz a0, _start\nbgt a0, a1, _start\nble a0, a1, _start\nbgtu a0, a1, "
      "_start\n"
      "bleu a0, a1, _start\nj _start\njal _start\njr a0\njalr a1\njalr a0, a1\nret\nfence\n"
      "fmv.s fa0, fa1\nfabs.s fa0, fa1\nfneg.s fa0, fa1\nfmv.d fa0, fa1\nfabs.d fa0, fa1\nfneg.d "
      "fa0, fa1\n"
      "csrr a0, mstatus\ncsrw mtvec, a0\ncsrs mie, a1\ncsrc mip, a2\ncsrwi mscratch, 5\ncsrsi "
      "mstatus, 8\n"
      "csrci mstatus, 8\nfence.tso\nrdcycle a0\nrdinstret a1\nrdtime a2\nfrflags a0\nfsflags "
      "a1\nfrrm a0\nfsrm a1\n"
      "frcsr a0\nfscsr a1\n");
}

TEST_F(AsmPseudo, FpCsrSwapAndImmediateFormsMatchGnuAs) {
  // LLVM's vector floor/ceil save and restore frm with fsrmi/fsrm rd, rs.
  expect_same_as_gnu(
      "fsrmi a0, 2\nfsrmi 3\nfsrm a1, a2\nfsflagsi 1\nfsflagsi t0, 5\nfscsr a0, a1\n"
      "fsflags a3, a4\n");
}

TEST_F(AsmPseudo, VectorAliasesMatchGnuAs) {
  expect_same_as_gnu(
      "vneg.v v1, v2\nvnot.v v1, v2, v0.t\nvwcvt.x.x.v v2, v4\nvwcvtu.x.x.v v2, v4\nvncvt.x.x.w "
      "v1, v2\n"
      "vmmv.m v1, v2\nvmclr.m v1\nvmset.m v1\nvmnot.m v1, v2\nvfneg.v v1, v2\nvfabs.v v1, v2\n"
      "vmsgt.vv v1, v2, v3\nvmsgtu.vv v1, v2, v3\nvmsge.vv v1, v2, v3\nvmsgeu.vv v1, v2, v3\n"
      "vmfgt.vv v1, v2, v3\nvmfge.vv v1, v2, v3\n");
}

TEST_F(AsmPseudo, WholeRegisterLoadStoreFormsMatchGnuAs) {
  // vlNr.v is vlNre8.v; vsNr.v is a real instruction. Register groups aligned to N.
  expect_same_as_gnu(
      "vl1r.v v3, (a0)\nvl2r.v v2, (a1)\nvl4r.v v4, (t0)\nvl8r.v v8, (sp)\n"
      "vl1r.v v31, (a5)\nvl2r.v v30, (a2)\nvl4r.v v28, (s1)\nvl8r.v v24, (t6)\n"
      "vl1re8.v v1, (a0)\nvl2re16.v v2, (a0)\nvl4re32.v v4, (a0)\nvl8re64.v v16, (a0)\n"
      "vs1r.v v3, (a0)\nvs2r.v v2, (a1)\nvs4r.v v4, (t0)\nvs8r.v v8, (sp)\n"
      "vs1r.v v31, (a5)\nvs8r.v v24, (t6)\n");
}

TEST_F(AsmPseudo, AddressPseudosAndRelocationModifiersMatchGnuLd) {
  expect_same_as_gnu(
      "la a0, data\nlla a1, data + 8\ncall func\ntail func\n"
      "lui a2, %hi(data)\naddi a2, a2, %lo(data)\nlw a3, %lo(data)(a2)\nsw a3, %lo(data)(a2)\n"
      "1: auipc a4, %pcrel_hi(data)\nld a5, %pcrel_lo(1b)(a4)\nsd a5, %pcrel_lo(1b)(a4)\n"
      "lw a6, data\nld a7, data + 8\nsw a6, data, t0\nfld fa0, data, t1\nfsw fa0, data + 4, t2\n"
      "func: ret\n.align 3\ndata: .dword 1, 2\n.word data\n.align 3\n");  // data in .text: same
                                                                          // layout as ld's
}

TEST_F(AsmPseudo, InsnDirectiveMatchesGnuAs) {
  expect_same_as_gnu(
      ".insn r CUSTOM_0, 1, 0, x0, a0, a1\n.insn r 0x33, 0, 0, a0, a1, a2\n.insn r MADD, 0, 0, "
      "fa0, fa1, fa2, fa3\n"
      ".insn i OP_IMM, 0, a0, a1, -2048\n.insn i LOAD, 3, a0, 16(sp)\n.insn s STORE, 3, a0, "
      "-8(sp)\n"
      "1: .insn b BRANCH, 1, a0, a1, 1b\n.insn u LUI, a0, 0xfffff\n.insn j JAL, ra, 1b\n.insn "
      "0x0000100b\n"
      ".insn 4, 0x022010ab\n");
}

}  // namespace
}  // namespace opforge::isa
