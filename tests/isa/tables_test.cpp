//===- tables_test.cpp - the instruction tables are consistent and complete -===//
#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

TEST(Tables, LoadAllExtensions) {
  std::set<std::string> exts;
  for (const auto &i : instructions()) exts.insert(i.extension);
  for (const char *e : {"rv_i", "rv64_i", "rv_m", "rv64_m", "rv_a", "rv64_a", "rv_f", "rv64_f",
                        "rv_d", "rv64_d", "rv_zicsr", "rv_zifencei", "rv_system", "rv_v",
                        "rv_zvfbfmin", "rv_zfh", "rv64_zfh", "rv_d_zfh", "xmtia"})
    EXPECT_TRUE(exts.count(e)) << e;
  EXPECT_GT(instructions().size(), 400u);
}

TEST(Tables, IdsAreDenseIndices) {
  const auto &all = instructions();
  for (size_t k = 0; k < all.size(); ++k) EXPECT_EQ(all[k].id, static_cast<int>(k));
}

TEST(Tables, NoTwoMaskMatchPairsOverlap) {
  // Two encodings overlap when some word matches both: their matches agree on
  // the bits both masks fix. The tables have no specialisations, so any
  // overlap is an error.
  const auto &all = instructions();
  for (size_t a = 0; a < all.size(); ++a)
    for (size_t b = a + 1; b < all.size(); ++b) {
      const uint32_t common = all[a].mask & all[b].mask;
      EXPECT_NE(all[a].match & common, all[b].match & common)
          << all[a].name << " (" << all[a].source << ") overlaps " << all[b].name << " ("
          << all[b].source << ")";
    }
}

TEST(Tables, EveryBitFixedOrCoveredByExactlyOneField) {
  for (const auto &i : instructions()) {
    uint32_t covered = i.mask;
    for (const auto &name : i.fields) {
      const FieldSpec *f = find_field(name);
      ASSERT_NE(f, nullptr) << i.name << ": field " << name << " not in fields.csv";
      EXPECT_EQ(covered & f->mask(), 0u) << i.name << ": field " << name << " overlaps";
      covered |= f->mask();
    }
    EXPECT_EQ(covered, ~0u) << i.name;
    EXPECT_EQ(i.match & ~i.mask, 0u) << i.name;
    EXPECT_EQ(i.match & 3u, 3u) << i.name;
  }
}

TEST(Tables, FieldsFitInTheWord) {
  for (const auto &f : fields()) {
    EXPECT_LE(f.msb, 31) << f.name;
    EXPECT_GE(f.lsb, 0) << f.name;
    EXPECT_LE(f.lsb, f.msb) << f.name;
    EXPECT_FALSE(f.kind.empty()) << f.name;
  }
}

TEST(Tables, DecodeFindsEveryEntryFromItsMatch) {
  for (const auto &i : instructions()) {
    const InsnSpec *d = decode(i.match);
    ASSERT_NE(d, nullptr) << i.name;
    EXPECT_EQ(d->id, i.id) << i.name;
    EXPECT_EQ(find_insn(i.name), &i);
  }
}

TEST(Tables, DecodeKnownWords) {
  // Words from riscv64-unknown-elf-as 2.40.
  EXPECT_EQ(decode(0x00c5f553)->name, "fadd.s");
  EXPECT_EQ(decode(0x962fb0d7)->name, "vsll.vi");
  EXPECT_EQ(decode(0xcd2ff557)->name, "vsetivli");
  EXPECT_EQ(decode(0x06b6252f)->name, "amoadd.w");
  EXPECT_EQ(decode(0x5c2180d7)->name, "vmerge.vvm");
  EXPECT_EQ(decode(0x9e40b157)->name, "vmv2r.v");
  EXPECT_EQ(decode(0x00a50533)->name, "add");
  EXPECT_EQ(decode(0x0000000b)->name, "xmtia.done");
  EXPECT_EQ(decode(0x00000000), nullptr);
  EXPECT_EQ(decode(0xffffffff), nullptr);
  EXPECT_EQ(find_insn("no.such.insn"), nullptr);
}

TEST(Tables, BadTableLineNamesFileAndLine) {
  const TableSource csv{"isa/spec/fields.csv", "rd,11,7,reg\nrs1,19,15,reg\nrs2,24,20,reg\n"};
  auto expect_error = [&](const std::string &text, const std::string &needle) {
    try {
      parse_tables({csv, {"t/bad.opcodes", text}});
      ADD_FAILURE() << "no error for: " << text;
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error(
      "# c\nadd rd rs1 rs2 31..25=0 14..12=0 6..2=0x0C 1..0=3\nxx rd rs1 rs9 31..25=0 14..12=0 "
      "6..0=0x33\n",
      "t/bad.opcodes:3: xx: unknown field 'rs9'");
  expect_error("add rd rs1 rs2 31..25=0 14..12=0 6..2=0x0C\n",
               "t/bad.opcodes:1: add: bits not covered");
  expect_error("add rd rs1 rs2 31..25=0 14..12=9 6..2=0x0C 1..0=3\n",
               "t/bad.opcodes:1: add: value does not fit");
  expect_error("add rd rs1 rs2 31..24=0 14..12=0 6..2=0x0C 1..0=3\n", "overlaps bits");
  expect_error(
      "a rd rs1 rs2 31..25=0 14..12=0 6..0=0x33\na rd rs1 rs2 31..25=1 14..12=0 6..0=0x33\n",
      "t/bad.opcodes:2: duplicate mnemonic 'a'");
  expect_error("a rd rs1 rs2 31..25=0 14..12=0 6..0=0x30\n", "bits 1..0");
  try {
    parse_tables({{"isa/spec/fields.csv", "rd,11,7,reg\nrs1,40,15,reg\n"}});
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("isa/spec/fields.csv:2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::isa
