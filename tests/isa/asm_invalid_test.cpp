//===- asm_invalid_test.cpp - bad assembly is an error with file:line:col ---===//
#include <gtest/gtest.h>

#include <random>

#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

struct BadCase {
  const char *source;
  const char *message;  // expected substring of the error, including position
};

void expect_error(const BadCase &c) {
  SCOPED_TRACE(c.source);
  try {
    assemble_text_bytes(c.source, "t.s");
    ADD_FAILURE() << "no error for: " << c.source;
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << "got: " << e.what();
  }
}

TEST(AsmInvalid, ImmediatesOutOfRangeAreErrorsNotTruncations) {
  for (const BadCase &c : {
           BadCase{"addi a0, a1, 2048",
                   "t.s:1:14: addi: immediate 2048 out of range [-2048, 2047]"},
           BadCase{"addi a0, a1, -2049", "t.s:1:14: addi: immediate -2049 out of range"},
           BadCase{"slli a0, a0, 64", "t.s:1:14: slli: immediate 64 out of range [0, 63]"},
           BadCase{"slliw a0, a0, 32", "out of range [0, 31]"},
           BadCase{"lui a0, 0x100000", "t.s:1:9: lui: immediate 1048576 out of range [0, 1048575]"},
           BadCase{"sd a0, 2048(sp)", "t.s:1:8: sd: immediate 2048 out of range"},
           BadCase{"beq a0, a1, .+4096",
                   "t.s:1:13: beq: immediate 4096 out of range [-4096, 4094]"},
           BadCase{"beq a0, a1, .+3", "beq: offset 3 is not a multiple of 2"},
           BadCase{"jal ra, .+1048576", "jal: immediate 1048576 out of range"},
           BadCase{"vadd.vi v1, v2, 16", "t.s:1:17: vadd.vi: immediate 16 out of range [-16, 15]"},
           BadCase{"vsll.vi v1, v2, -1", "vsll.vi: immediate -1 out of range [0, 31]"},
           BadCase{"vsetivli a0, 32, e8, m1, ta, ma",
                   "vsetivli: immediate 32 out of range [0, 31]"},
           BadCase{"csrrwi a0, mstatus, 32", "csrrwi: immediate 32 out of range [0, 31]"},
           BadCase{"csrrw a0, 4096, a1", "csrrw: immediate 4096 out of range [0, 4095]"},
           BadCase{".word 0x100000000", "t.s:1:7: value 4294967296 does not fit in 4 byte(s)"},
           BadCase{".byte 256", "does not fit in 1 byte(s)"},
       })
    expect_error(c);
}

TEST(AsmInvalid, BadRegistersAndOperands) {
  for (const BadCase &c : {
           BadCase{"add a0, a1, x32", "t.s:1:13: add: bad integer register 'x32'"},
           BadCase{"add a0, a1, fa0", "t.s:1:13: add: bad integer register 'fa0'"},
           BadCase{"fadd.s a0, fa1, fa2", "t.s:1:8: fadd.s: bad floating-point register 'a0'"},
           BadCase{"vadd.vv v1, v2, v32", "t.s:1:17: vadd.vv: bad vector register 'v32'"},
           BadCase{"lw a0, 4(a9)", "t.s:1:10: lw: bad base register 'a9'"},
           BadCase{"lw a0, a1", "lw: expected 'offset(register)'"},
           BadCase{"vle32.v v1, a0", "vle32.v: expected '(register)', got 'a0'"},
           BadCase{"add a0, a1", "t.s:1:1: add: missing operand"},
           BadCase{"add a0, a1, a2, a3", "t.s:1:17: add: too many operands"},
           BadCase{"vadd.vv v1, v2, v3, v1.t", "t.s:1:21: vadd.vv: expected 'v0.t', got 'v1.t'"},
           BadCase{"vmerge.vvm v1, v2, v3, v1", "vmerge.vvm: expected 'v0', got 'v1'"},
           BadCase{"fadd.s fa0, fa1, fa2, xyz", "t.s:1:23: fadd.s: bad rounding mode 'xyz'"},
           BadCase{"vsetvli t0, a0, e33, m1", "t.s:1:17: vsetvli: bad vtype 'e33,m1'"},
           BadCase{"vsetvli t0, a0, m1, e32", "bad vtype"},
           BadCase{"csrrw a0, nosuchcsr, a1", "t.s:1:11: csrrw: unknown CSR 'nosuchcsr'"},
           BadCase{"fence rw, x", "fence: bad fence set 'x'"},
           BadCase{"amoadd.w.xx a0, a1, (a2)", "unknown instruction 'amoadd.w.xx'"},
           BadCase{"add.aq a0, a1, a2", "unknown instruction 'add.aq'"},
       })
    expect_error(c);
}

TEST(AsmInvalid, UnknownMnemonicsDirectivesAndSymbols) {
  for (const BadCase &c : {
           BadCase{"nop\n  frobnicate a0", "t.s:2:3: unknown instruction 'frobnicate'"},
           BadCase{".frob 1", "t.s:1:1: unknown directive '.frob'"},
           BadCase{"j nowhere", "t.s:1:1: undefined symbol 'nowhere'"},
           BadCase{"x:\nx:", "t.s:2:1: symbol 'x' is already defined"},
           BadCase{"1: j 2b", "t.s:1:6: undefined local label '2b'"},
           BadCase{"j 1f", "undefined local label '1f'"},
           BadCase{"li a0, foo", "t.s:1:8: expected a constant, got symbol 'foo'"},
           BadCase{"addi a0, a0, foo", "addi: expected a constant, got symbol 'foo'"},
           BadCase{"addi a0, a0, 1 +", "expected an expression"},
           BadCase{"addi a0, a0, (1", "expected ')'"},
           BadCase{"addi a0, a0, 0x1g", "bad number '0x1g'"},
           BadCase{"li a0, 99999999999999999999", "does not fit in 64 bits"},
           BadCase{"addi a0, a0, %foo(x)", "unknown relocation modifier '%foo'"},
           BadCase{"lui a0, %lo(x)", "only %hi or %pcrel_hi"},
           BadCase{".byte 1\n add a0, a0, a0", "t.s:2:2: instruction at a misaligned offset"},
           BadCase{".data\n add a0, a0, a0", "instruction in the non-executable section .data"},
           BadCase{".bss\n .word 1", "contents in the NOBITS section .bss"},
           BadCase{".p2align 13", "exponent 13 out of range"},
           BadCase{".ascii \"a\\q\"", "unknown escape"},
           BadCase{"add a0, , a1", "t.s:1:9: empty operand"},
           BadCase{".insn r CUSTOM_0, 8, 0, x0, a0, a1",
                   "t.s:1:19: .insn: funct3 8 out of range [0, 7]"},
           BadCase{".insn r BOGUS, 0, 0, x0, a0, a1",
                   "t.s:1:9: .insn: unknown opcode name 'BOGUS'"},
           BadCase{".insn i OP_IMM, 0, a0, a1, 4096", "immediate 4096 out of range"},
           BadCase{".insn 0x1234", "only 32-bit instructions"},
           BadCase{".insn r CUSTOM_0, 0, 0, x0, a0", "missing operand"},
           // A format letter with nothing after it read past the operands (fuzz_asm).
           BadCase{".insn i", "t.s:1:1: .insn: missing operand (opcode)"},
           BadCase{"  .insn u\n", "t.s:1:3: .insn: missing operand (opcode)"},
           BadCase{".data\n.insn 0x13", ".insn in the non-executable section .data"},
       })
    expect_error(c);
}

TEST(AsmInvalid, LinkErrorsNameTheReference) {
  const AsmUnit u = assemble("_start:\n  call missing\n", "l.s");
  try {
    link_executable(u);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("l.s:2:3: undefined symbol 'missing'"), std::string::npos)
        << e.what();
  }
  // A branch whose label ends up too far away is an error at link time too.
  const AsmUnit far =
      assemble("_start: beq a0, a1, far\n.section .text.far\n.zero 8192\nfar: ret\n", "f.s");
  try {
    link_executable(far);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("f.s:1:9: branch to 'far' out of range"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace opforge::isa

namespace opforge::isa {
namespace {

// Mutated programs either assemble or fail with opforge::Error - never
// another exception, never a crash.
TEST(AsmInvalid, MutatedSourcesFailCleanly) {
  const std::string base =
      "  .globl _start\n_start:\n  li a0, 0x123456789\n  la a1, data\n1: addi a0, a0, -1\n  bnez "
      "a0, 1b\n"
      "  vsetvli t0, a0, e32, m4, ta, ma\n  vle32.v v8, (a1), v0.t\n  fadd.s fa0, fa1, fa2, rtz\n"
      "  csrrs a0, mstatus, zero\n  call _start\n  .data\ndata: .word 1, 2, 3\n  .asciz "
      "\"hi\\n\"\n";
  const std::string alphabet =
      "abcdefghijklmnopqrstuvwxyz0123456789 ,.()%:#\"\\-+*/<>&|^~'$_\n\t;=";
  std::mt19937 rng(42);
  int ok = 0, errors = 0;
  for (int k = 0; k < 3000; ++k) {
    std::string s = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[pos] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          s.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          s.erase(pos, 1 + rng() % 8);
          break;
      }
    }
    if (k % 50 == 0) s += "\n99999999999999999999: nop\n";
    try {
      const AsmUnit u = assemble(s, "m.s");
      write_object(u);
      try {
        link_executable(u);
      } catch (const Error &) {
      }
      ++ok;
    } catch (const Error &) {
      ++errors;
    } catch (const std::exception &e) {
      ADD_FAILURE() << "non-opforge exception " << e.what() << " for:\n" << s;
    }
  }
  EXPECT_GT(errors, 100);
  EXPECT_GT(ok, 100);
}

}  // namespace
}  // namespace opforge::isa
