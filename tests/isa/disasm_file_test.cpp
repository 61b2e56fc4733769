//===- disasm_file_test.cpp - listings match objdump; bad files are errors -===//
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <sstream>

#include "binutils_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

using namespace testutil;

const char *const kProgram = R"(
  .globl _start
_start:
  li a0, 0x12345678
  la a1, table
  call helper
  vsetvli t0, a0, e32, m4, ta, ma
  vle32.v v8, (a1)
  vfadd.vv v8, v8, v12, v0.t
  vse32.v v8, (a1)
  fcvt.w.s a2, fa0, rtz
  amoadd.d.aqrl a3, a4, (a5)
  csrrs a0, mstatus, zero
1:
  addi a0, a0, -1
  bnez a0, 1b
  j _start
helper:
  ret
  .data
table: .word 1, 2, 3, 4
)";

// objdump appends "# address" notes when it tracks register values; we
// print the instruction only.
std::string drop_comments(const std::string &s) {
  return std::regex_replace(s, std::regex(" # [^\n]*"), "");
}

class DisasmFile : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *t :
         {"riscv64-unknown-elf-as", "riscv64-unknown-elf-ld", "riscv64-unknown-elf-objdump"})
      if (!have_tool(t)) GTEST_SKIP() << t << " not installed";
  }
  void expect_same_listing(const std::string &path, const std::string &objdump_args) {
    int st = 0;
    const std::string theirs =
        run("riscv64-unknown-elf-objdump -M no-aliases " + objdump_args + " " + path, &st);
    ASSERT_EQ(st, 0) << theirs;
    std::string mine;
    ASSERT_NO_THROW(mine = disassemble_file(path));
    std::istringstream a(drop_comments(theirs)), b(mine);
    std::string la, lb;
    int line = 0;
    while (std::getline(a, la)) {
      ++line;
      ASSERT_TRUE(std::getline(b, lb))
          << "our listing ends early at line " << line << "; objdump: " << la;
      EXPECT_EQ(lb, la) << "line " << line;
    }
    EXPECT_FALSE(std::getline(b, lb)) << "extra line: " << lb;
  }
};

TEST_F(DisasmFile, GnuLinkedExecutableMatchesObjdump) {
  ScratchDir dir("disasm");
  write_text(dir / "p.s", kProgram);
  int st = 0;
  std::string log = run("riscv64-unknown-elf-as -march=" + std::string(kMarch) + " -o " +
                            (dir / "p.o") + " " + (dir / "p.s"),
                        &st);
  ASSERT_EQ(st, 0) << log;
  log = run("riscv64-unknown-elf-ld -o " + (dir / "p.elf") + " " + (dir / "p.o"), &st);
  ASSERT_EQ(st, 0) << log;
  expect_same_listing(dir / "p.elf", "-d");
}

TEST_F(DisasmFile, OurExecutableMatchesObjdump) {
  ScratchDir dir("disasm2");
  write_bytes(dir / "q.elf", link_executable(assemble(kProgram, "q.s")));
  expect_same_listing(dir / "q.elf", "-d");
}

TEST_F(DisasmFile, RawBinaryMatchesObjdump) {
  ScratchDir dir("disasm3");
  LinkOptions opts;
  opts.text_base = 0;
  // objdump needs an ELF's attributes to know V, so only scalar code here.
  write_bytes(dir / "r.bin",
              assemble_text_bytes("add a0, a1, a2\nfadd.d fa0, fa1, fa2, rtz\nbeq a0, a1, .-8\n"));
  int st = 0;
  const std::string theirs =
      run("riscv64-unknown-elf-objdump -M no-aliases -D -b binary -m riscv:rv64 " + (dir / "r.bin"),
          &st);
  ASSERT_EQ(st, 0) << theirs;
  const std::string mine = disassemble_file(dir / "r.bin");
  // Same instruction lines (objdump's header names the format differently).
  auto insn_lines = [](const std::string &s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
      if (l.find(":\t") != std::string::npos) out.push_back(l);
    return out;
  };
  EXPECT_EQ(insn_lines(mine), insn_lines(theirs)) << mine << "\n---\n" << theirs;
  EXPECT_EQ(insn_lines(mine).size(), 3u);
}

void expect_file_error(const std::string &path, const std::string &needle) {
  try {
    disassemble_file(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(DisasmFileErrors, MalformedAndForeignFilesAreClearErrors) {
  ScratchDir dir("disasm_bad");
  const std::vector<uint8_t> good = link_executable(assemble(kProgram, "g.s"));
  write_bytes(dir / "trunc.elf", std::vector<uint8_t>(good.begin(), good.begin() + 40));
  expect_file_error(dir / "trunc.elf", "truncated ELF file");
  std::vector<uint8_t> no_sections = good;
  no_sections.resize(good.size() - 64);  // drop the last section header
  write_bytes(dir / "cut.elf", no_sections);
  expect_file_error(dir / "cut.elf", "truncated ELF file");
  std::vector<uint8_t> elf32 = good;
  elf32[4] = 1;  // ELFCLASS32
  write_bytes(dir / "c32.elf", elf32);
  expect_file_error(dir / "c32.elf", "not an ELF64 file");
  std::vector<uint8_t> other = good;
  other[18] = 62;  // EM_X86_64
  other[19] = 0;
  write_bytes(dir / "x86.elf", other);
  expect_file_error(dir / "x86.elf", "not a RISC-V ELF file (e_machine 62)");
  std::vector<uint8_t> bad_strndx = good;
  bad_strndx[62] = 0xff;
  bad_strndx[63] = 0x7f;
  write_bytes(dir / "strndx.elf", bad_strndx);
  expect_file_error(dir / "strndx.elf", "e_shstrndx out of range");
  expect_file_error(dir / "missing.elf", "cannot open file");
}

TEST(DisasmFileErrors, RandomCorruptionNeverCrashes) {
  const std::vector<uint8_t> good = link_executable(assemble(kProgram, "g.s"));
  std::mt19937 rng(7);
  int errors = 0, listings = 0;
  for (int k = 0; k < 300; ++k) {
    std::vector<uint8_t> b = good;
    for (int n = 0; n < 8; ++n) b[rng() % b.size()] = static_cast<uint8_t>(rng());
    try {
      disassemble_bytes(b, "fuzz.elf");
      ++listings;
    } catch (const Error &) {
      ++errors;
    }
  }
  EXPECT_EQ(errors + listings, 300);
}

}  // namespace
}  // namespace opforge::isa
