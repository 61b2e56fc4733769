//===- iss_rvc_test.cpp - the ISS runs 16-bit compressed (RVC) instructions ===//
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "iss_test_util.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/insn.h"
#include "opforge/isa/iss.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;
using opforge::isa::testing::baremetal_elf;
using opforge::isa::testing::build_program;
using opforge::isa::testing::TempDir;

namespace {

SimResult run_asm(const std::string &body, const std::string &isa_string = "") {
  TempDir dir;
  const std::string elf = build_program(dir, "prog", ".globl _start\n_start:\n" + body);
  SimOptions opt;
  opt.max_instructions = 100000;
  opt.isa_string = isa_string;
  return run_elf_functional(read_elf(elf), opt);
}

// The semantics bodies read operands through Insn's rvc_* accessors; they
// must agree with the tables' fields (field_operand) on every 16-bit word.
TEST(IssRvc, OperandAccessorsMatchTheTablesOnEveryWord) {
  using Get = std::function<int64_t(Insn)>;
  const std::map<std::string, Get> imm = {
      {"cimm_addi4spn", [](Insn i) { return int64_t(i.rvc_addi4spn_imm()); }},
      {"cimm_lw", [](Insn i) { return int64_t(i.rvc_lw_imm()); }},
      {"cimm_ld", [](Insn i) { return int64_t(i.rvc_ld_imm()); }},
      {"cimm6", [](Insn i) { return i.rvc_imm6(); }},
      {"cimm_addi16sp", [](Insn i) { return i.rvc_addi16sp_imm(); }},
      {"cimm_lui", [](Insn i) { return i.rvc_lui_imm(); }},
      {"cshamt", [](Insn i) { return int64_t(i.rvc_shamt()); }},
      {"cimm_j", [](Insn i) { return i.rvc_j_imm(); }},
      {"cimm_b", [](Insn i) { return i.rvc_b_imm(); }},
      {"cimm_lwsp", [](Insn i) { return int64_t(i.rvc_lwsp_imm()); }},
      {"cimm_ldsp", [](Insn i) { return int64_t(i.rvc_ldsp_imm()); }},
      {"cimm_swsp", [](Insn i) { return int64_t(i.rvc_swsp_imm()); }},
      {"cimm_sdsp", [](Insn i) { return int64_t(i.rvc_sdsp_imm()); }},
  };
  auto reg = [](const std::string &field) -> Get {
    const FieldSpec *f = find_field(field);
    if (f->lsb == 7 && f->msb == 9) return [](Insn i) { return int64_t(i.rvc_rs1s()); };
    if (f->lsb == 2 && f->msb == 4) return [](Insn i) { return int64_t(i.rvc_rs2s()); };
    if (f->lsb == 2 && f->msb == 6) return [](Insn i) { return int64_t(i.rvc_rs2()); };
    if (f->lsb == 7 && f->msb == 11) return [](Insn i) { return int64_t(i.rd()); };
    return nullptr;
  };
  int insns = 0, words = 0;
  for (const InsnSpec &s : instructions()) {
    if (s.length_bytes() != 2) continue;
    ++insns;
    for (const AsmOperand &op : asm_operands(s)) {
      if (op.field.empty()) continue;
      Get get;
      if (op.kind == OperandKind::XReg || op.kind == OperandKind::FReg) {
        get = reg(op.field);
      } else {
        ASSERT_TRUE(imm.count(op.field)) << s.name << ": no accessor for " << op.field;
        get = imm.at(op.field);
      }
      ASSERT_TRUE(get) << s.name << ": no accessor for " << op.field;
      Get base = op.kind == OperandKind::MemOffset && !op.base.empty() ? reg(op.base) : nullptr;
      for (uint32_t w = 0; w < 0x10000; ++w) {
        if (!s.matches(w)) continue;
        ++words;
        ASSERT_EQ(get(Insn{w}), field_operand(op.field, w))
            << s.name << " " << op.field << " word 0x" << std::hex << w;
        if (base) {
          ASSERT_EQ(base(Insn{w}), field_operand(op.base, w)) << s.name;
        }
      }
    }
  }
  EXPECT_EQ(insns, 36);
  EXPECT_GT(words, 50000);  // every operand of every matching word
}

TEST(IssRvc, CompressedInstructionsExecuteAndStepTwoBytes) {
  // 4-byte instructions at 2-byte offsets, c.jalr's link, loads and stores.
  SimResult r = run_asm(
      ".option rvc\n  la sp, buf\n"
      "  c.li a0, 5\n  c.addi a0, -2\n  addi a0, a0, 10\n"  // 13, then a 4-byte at +2
      "  c.mv a1, a0\n  c.slli a1, 4\n  c.add a1, a0\n"     // 13*16+13 = 221
      "  c.sdsp a1, 8(sp)\n  c.ldsp a2, 8(sp)\n"
      "  la t0, 1f\n  c.jalr t0\n"
      "  j fail\n"
      "1: sub ra, t0, ra\n"  // ra = address after c.jalr (2 bytes on)
      "  c.lui a3, 0xfffe1\n  c.srai a3, 12\n"
      "  li t1, 13\n  bne a0, t1, fail\n  li t1, 221\n  bne a2, t1, fail\n"
      "  li t1, -31\n  bne a3, t1, fail\n"
      "  li a0, 1\n  la t0, tohost\n  sd a0, 0(t0)\n2: c.j 2b\n"
      "fail:\n  li a0, 3\n  la t0, tohost\n  sd a0, 0(t0)\n3: j 3b\n"
      ".data\n.balign 8\nbuf: .zero 64\n.balign 64\n.globl tohost\ntohost: .dword 0\n");
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

TEST(IssRvc, WithoutCCompressedWordsAreIllegalAndTargetsNeedFourBytes) {
  SimResult r = run_asm(".option norvc\n  nop\n.option rvc\n  c.addi a0, 1\n", "rv64imafdv");
  ASSERT_EQ(r.verdict, Verdict::Trap) << r.message;
  EXPECT_EQ(r.trap.cause, cause::kIllegalInsn);
  EXPECT_EQ(r.trap.pc, 0x80000004u);
  EXPECT_EQ(r.trap.encoding, 0x0505u);  // c.addi a0,1: the 16-bit word only
  // With C a jump to a 2-byte boundary runs what is there.
  SimResult c = run_asm(".option rvc\n  la t0, 1f\n  jr t0\n  .balign 4\n  c.nop\n1: c.ebreak\n");
  ASSERT_EQ(c.verdict, Verdict::Trap) << c.message;
  EXPECT_EQ(c.trap.cause, cause::kBreakpoint);
  EXPECT_EQ(c.trap.pc % 4, 2u);
  EXPECT_NE(c.message.find("c.ebreak"), std::string::npos) << c.message;
}

TEST(IssRvc, MisaReportsC) {
  SimResult r = run_asm(
      "  csrr a0, misa\n  srli a0, a0, 2\n  andi a0, a0, 1\n  slli a0, a0, 1\n  ori a0, a0, 1\n"
      "  xori a0, a0, 2\n"  // C set -> 1 (pass)
      "  la t0, tohost\n  sd a0, 0(t0)\n1: j 1b\n"
      ".data\n.balign 64\n.globl tohost\ntohost: .dword 0\n");
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

// The bare-metal C programs built -march=rv64gcv (tests/isa/baremetal): GCC
// fills them with compressed instructions.
TEST(IssRvc, GccRv64gcvProgramsPass) {
  for (const char *stem : {"int_test_rvc", "float_test_rvc", "double_test_rvc"}) {
    SimOptions opt;
    opt.max_instructions = 50'000'000;
    const ElfImage img = read_elf(baremetal_elf(stem));
    const SimResult r = run_elf_functional(img, opt);
    EXPECT_EQ(r.verdict, Verdict::Pass) << stem << ": " << r.message;
    EXPECT_GT(r.instructions, 200u) << stem;
  }
  // The same program without C must agree on the verdict.
  SimOptions opt;
  opt.max_instructions = 50'000'000;
  EXPECT_EQ(run_elf_functional(read_elf(baremetal_elf("int_test")), opt).verdict, Verdict::Pass);
}

// Whole runs over 2- and 4-byte instructions, a 16-entry cache where they
// evict each other, and single steps all end in the same state.
TEST(IssRvc, RunsOverCompressedCodeMatchSingleSteps) {
  const ElfImage img = read_elf(baremetal_elf("int_test_rvc"));
  struct Sim {
    FlatMemory mem;
    FunctionalAccelerator accel{mem};
    std::unique_ptr<Hart> hart;
    Sim(const ElfImage &img, size_t entries) : mem(img.low_addr() & ~0xfffull, 1 << 22) {
      load_elf(img, mem);
      HartConfig cfg;
      cfg.reset_pc = img.entry;
      cfg.tohost_addr = img.tohost;
      cfg.icache_entries = entries;
      cfg.cost.load_cycles = 2;
      hart = std::make_unique<Hart>(cfg, mem, accel);
    }
  };
  Sim fast(img, 1u << 14), tiny(img, 16), slow(img, 1u << 14);
  EXPECT_EQ(fast.hart->run(10'000'000).reason, StopReason::Tohost);
  EXPECT_EQ(tiny.hart->run(10'000'000).reason, StopReason::Tohost);
  StopReason last = StopReason::InsnLimit;
  for (int k = 0; k < 10'000'000 && last == StopReason::InsnLimit; ++k)
    last = slow.hart->step().reason;
  EXPECT_EQ(last, StopReason::Tohost);
  for (Sim *o : {&tiny, &slow}) {
    EXPECT_EQ(o->hart->pc(), fast.hart->pc());
    EXPECT_EQ(o->hart->instret(), fast.hart->instret());
    EXPECT_EQ(o->hart->cycles(), fast.hart->cycles());
    for (unsigned r = 0; r < 32; ++r) EXPECT_EQ(o->hart->xreg(r), fast.hart->xreg(r)) << "x" << r;
  }
  EXPECT_GT(fast.hart->instret(), 200u);
}

// The listing of a GCC -march=rv64gcv program steps 2 and 4 bytes exactly
// as objdump -d -M no-aliases does, text included.
TEST(IssRvc, GccRv64gcvListingMatchesObjdump) {
  if (opforge::isa::testing::run_command("riscv64-unknown-elf-objdump --version") != 0)
    GTEST_SKIP() << "riscv64-unknown-elf-objdump not installed";
  const std::string elf = baremetal_elf("int_test_rvc");
  std::string theirs;
  FILE *p = popen(("riscv64-unknown-elf-objdump -d -M no-aliases " + elf).c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) theirs.append(buf, n);
  pclose(p);
  // objdump's "# address" notes are not ours to print.
  auto lines = [](const std::string &s) {
    std::vector<std::string> out;
    std::istringstream in(s.substr(s.find("Disassembly of section")));
    for (std::string l; std::getline(in, l);) {
      if (size_t h = l.find(" # "); h != std::string::npos) l.erase(h);
      while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
      out.push_back(l);
    }
    return out;
  };
  const std::vector<std::string> a = lines(disassemble_file(elf)), b = lines(theirs);
  EXPECT_EQ(a, b);
  EXPECT_NE(theirs.find("\tc."), std::string::npos) << "no compressed instructions in " << elf;
}

}  // namespace
