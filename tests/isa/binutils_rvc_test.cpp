//===- binutils_rvc_test.cpp - compressed instructions against GNU as/objdump ===//
//
// For every 16-bit (RVC) table instruction: operand instances (edge values
// and seeded random ones) are encoded with our encoder and written as text
// by our disassembler; riscv64-unknown-elf-as -march=rv64gc must produce the
// same halfwords, so must our assembler (under .option rvc), and our
// disassembly of as's object must equal objdump -d -M no-aliases, also as a
// whole listing (2-byte stepping).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "binutils_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/spec.h"

namespace opforge::isa {
namespace {

using testutil::run;

// A register number the field allows (excluded values skipped).
int64_t pick_reg(const std::string &field, std::mt19937 &rng, int variant) {
  const FieldSpec *f = find_field(field);
  const bool compact = f->kind == "creg" || f->kind == "cfreg";
  const int64_t lo = compact ? 8 : 0, hi = compact ? 15 : 31;
  for (int64_t v = variant == 0 ? lo : variant == 1 ? hi : -1;; v = -1) {
    if (v < 0) v = std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    const uint32_t raw = static_cast<uint32_t>(compact ? v - 8 : v);
    if (std::find(f->excluded.begin(), f->excluded.end(), raw) == f->excluded.end()) return v;
  }
}

uint16_t make_instance(const InsnSpec &insn, std::mt19937 &rng, int variant) {
  std::vector<FieldValue> vals;
  for (const AsmOperand &op : asm_operands(insn)) {
    if (op.field.empty()) continue;
    if (op.kind == OperandKind::XReg || op.kind == OperandKind::FReg) {
      vals.push_back({op.field, pick_reg(op.field, rng, variant)});
      continue;
    }
    if (op.kind == OperandKind::MemOffset && !op.base.empty())
      vals.push_back({op.base, pick_reg(op.base, rng, variant)});
    const FieldRange r = field_range(op.field);
    int64_t v = 0;
    do {
      v = variant == 0 ? r.lo
          : variant == 1
              ? r.hi
              : std::uniform_int_distribution<int64_t>(r.lo / r.align, r.hi / r.align)(rng) *
                    r.align;
      if (v == 0) v = r.align;  // nonzero immediates (shifts, c.lui, c.addi16sp)
    } while (v < r.lo || v > r.hi);
    vals.push_back({op.field, v});
  }
  return static_cast<uint16_t>(encode(insn, vals));
}

// Our disassembly with a branch target rewritten as ".+off".
std::string as_text(const InsnSpec &insn, uint16_t half) {
  std::string t = disassemble(half, 0);
  for (const AsmOperand &op : asm_operands(insn))
    if (op.kind == OperandKind::PcRel) {
      const int64_t off = field_operand(op.field, half);
      t = t.substr(0, t.find_last_of(",\t") + 1) +
          (off < 0 ? ".-" + std::to_string(-off) : ".+" + std::to_string(off));
    }
  return t;
}

class BinutilsRvc : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *t :
         {"riscv64-unknown-elf-as", "riscv64-unknown-elf-objdump", "riscv64-unknown-elf-objcopy"})
      if (!testutil::have_tool(t)) GTEST_SKIP() << t << " not installed";
  }
  testutil::ScratchDir dir_{"binutils_rvc"};
};

TEST_F(BinutilsRvc, EveryCompressedInstructionAssemblesAndDisassemblesIdentically) {
  std::mt19937 rng(20261204);
  struct Case {
    const InsnSpec *insn;
    uint16_t half;
    std::string text;
  };
  std::vector<Case> cases;
  std::map<std::string, int> per_insn;
  for (const auto &insn : instructions()) {
    if (insn.length_bytes() != 2) continue;
    for (int variant = 0; variant < 12; ++variant) {
      const uint16_t h = make_instance(insn, rng, variant);
      cases.push_back({&insn, h, as_text(insn, h)});
      per_insn[insn.name]++;
    }
  }
  ASSERT_EQ(per_insn.size(), 36u) << "RV64C with the D loads/stores: 36 instructions";
  std::ostringstream src;
  src << ".option norelax\n.option rvc\n";
  for (const auto &c : cases) src << c.text << "\n";
  testutil::write_text(dir_ / "c.s", src.str());
  int st = 0;
  const std::string log =
      run("riscv64-unknown-elf-as -march=rv64gc -o " + (dir_ / "c.o") + " " + (dir_ / "c.s"), &st);
  ASSERT_EQ(st, 0) << log;
  run("riscv64-unknown-elf-objcopy -O binary -j .text " + (dir_ / "c.o") + " " + (dir_ / "c.bin"),
      &st);
  ASSERT_EQ(st, 0);
  const std::vector<uint8_t> as_bytes = testutil::read_bytes(dir_ / "c.bin");
  ASSERT_EQ(as_bytes.size(), cases.size() * 2);
  int mismatches = 0;
  // 1. as's halfwords == our encoder's.
  for (size_t k = 0; k < cases.size(); ++k) {
    uint16_t h;
    std::memcpy(&h, as_bytes.data() + 2 * k, 2);
    if (h != cases[k].half && ++mismatches < 40)
      ADD_FAILURE() << cases[k].text << ": as 0x" << std::hex << h << " ours 0x" << cases[k].half;
  }
  // 2. our assembler == as.
  std::vector<uint8_t> ours;
  try {
    ours = assemble_text_bytes(src.str(), "c.s");
  } catch (const std::exception &e) {
    FAIL() << "our assembler: " << e.what();
  }
  ASSERT_EQ(ours.size(), as_bytes.size());
  for (size_t k = 0; k < cases.size(); ++k)
    if (std::memcmp(ours.data() + 2 * k, as_bytes.data() + 2 * k, 2) != 0 && ++mismatches < 80)
      ADD_FAILURE() << "our assembler differs from as for: " << cases[k].text;
  // 3. our text for as's halfwords == objdump's.
  const std::string dump =
      run("riscv64-unknown-elf-objdump -d -M no-aliases " + (dir_ / "c.o"), &st);
  ASSERT_EQ(st, 0);
  const size_t compared = testutil::compare_with_objdump(
      dump, 4,
      [](uint32_t h, uint64_t addr) {
        return disassemble(h, addr, [](uint64_t) { return std::optional<std::string>(); });
      },
      mismatches);
  EXPECT_EQ(compared, cases.size());
  EXPECT_EQ(mismatches, 0);
}

TEST_F(BinutilsRvc, MixedListingStepsTwoAndFourBytesLikeObjdump) {
  // 16- and 32-bit instructions interleaved, 4-byte ones at 2-byte offsets
  // (under norvc, as GNU as would compress them and we do not).
  const std::string src =
      ".option norelax\n.option rvc\n"
      "f:\n c.addi a0, 1\n.option norvc\n add a0, a0, a1\n.option rvc\n c.mv a1, a0\n c.j f\n"
      ".option push\n.option norvc\n lui a0, 0x12345\n.option pop\n c.jr ra\n c.nop\n c.ebreak\n";
  testutil::write_text(dir_ / "m.s", src);
  int st = 0;
  const std::string log =
      run("riscv64-unknown-elf-as -march=rv64gc -o " + (dir_ / "m.o") + " " + (dir_ / "m.s"), &st);
  ASSERT_EQ(st, 0) << log;
  run("riscv64-unknown-elf-objcopy -O binary -j .text " + (dir_ / "m.o") + " " + (dir_ / "m.bin"),
      &st);
  const std::vector<uint8_t> bytes = testutil::read_bytes(dir_ / "m.bin");
  EXPECT_EQ(assemble_text_bytes(src, "m.s"), bytes);
  const std::string theirs = run(
      "riscv64-unknown-elf-objdump -M no-aliases -D -b binary -m riscv:rv64 " + (dir_ / "m.bin"),
      &st);
  const std::string mine = disassemble_bytes(bytes, dir_ / "m.bin");
  auto body = [](const std::string &s) { return s.substr(s.find("Disassembly of section")); };
  EXPECT_EQ(body(mine), body(theirs));
  // Our own object says it holds C code (e_flags RVC, c2p0 in .riscv.attributes),
  // so objdump decodes it, and our listing of it equals objdump's.
  testutil::write_bytes(dir_ / "ours.o", write_object(assemble(src, "m.s")));
  const std::string dump =
      run("riscv64-unknown-elf-objdump -d -M no-aliases " + (dir_ / "ours.o"), &st);
  EXPECT_NE(dump.find("c.addi\ta0,1"), std::string::npos) << dump;
  EXPECT_EQ(dump.find(".2byte"), std::string::npos) << dump;
  EXPECT_EQ(body(disassemble_file(dir_ / "ours.o")), body(dump));
}

}  // namespace
}  // namespace opforge::isa

namespace opforge::isa {
namespace {

TEST(AsmRvc, CompressedMnemonicsNeedOptionRvcOrAsmOptions) {
  try {
    assemble_text_bytes("  c.addi a0, 1\n", "t.s");
    ADD_FAILURE() << "c.addi accepted without .option rvc";
  } catch (const std::exception &e) {
    EXPECT_NE(std::string(e.what()).find("t.s:1:3: 'c.addi' is a compressed instruction: enable "
                                         "them with '.option rvc'"),
              std::string::npos)
        << e.what();
  }
  AsmOptions rvc;
  rvc.rvc = true;  // opforge asm --march rv64gc
  const AsmUnit u = assemble("  c.addi a0, 1\n  add a0, a0, a1\n", "t.s", rvc);
  const std::vector<uint8_t> want = {0x05, 0x05, 0x33, 0x05, 0xb5, 0x00};
  EXPECT_EQ(u.sections[0].data, want);  // no automatic compression of add
  EXPECT_EQ(assemble_text_bytes(".option push\n.option rvc\n c.nop\n.option pop\n.balign 4\n"),
            (std::vector<uint8_t>{0x01, 0x00, 0x01, 0x00}));  // .balign pads with c.nop
  for (const char *bad : {".option rvc\n c.lw a0, 4(a6)\n", ".option rvc\n c.addi zero, 64\n",
                          ".option rvc\n c.lwsp a0, 2(sp)\n", ".option rvc\n c.lwsp a0, 4(a0)\n",
                          ".option rvc\n c.jr zero\n", ".option rvc\n c.slli a0, 0\n",
                          ".option rvc\n c.j undefined_elsewhere\n"}) {
    EXPECT_THROW(assemble_text_bytes(bad, "t.s"), std::exception) << bad;
  }
}

}  // namespace
}  // namespace opforge::isa
