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

// True if no word matches both: their matches differ on a bit both masks
// fix, or one fixes the bits of a field of the other to a value that field
// excludes (c.jr's rs2 = 0 against c.mv's c_rs2_n0).
bool disjoint(const InsnSpec &a, const InsnSpec &b) {
  const uint32_t common = a.mask & b.mask;
  if ((a.match & common) != (b.match & common)) return true;
  auto excluded_by = [](const InsnSpec &x, const InsnSpec &y) {
    for (const auto &e : x.excluded)
      if ((y.mask & e.mask) == e.mask && (y.match & e.mask) == e.value) return true;
    return false;
  };
  return excluded_by(a, b) || excluded_by(b, a);
}

TEST(Tables, NoTwoMaskMatchPairsOverlap) {
  // The tables have no specialisations, so any overlap is an error (16-bit
  // and 32-bit encodings differ in bits 1..0).
  const auto &all = instructions();
  for (size_t a = 0; a < all.size(); ++a)
    for (size_t b = a + 1; b < all.size(); ++b)
      EXPECT_TRUE(disjoint(all[a], all[b])) << all[a].name << " (" << all[a].source << ") overlaps "
                                            << all[b].name << " (" << all[b].source << ")";
}

TEST(Tables, CompressedPairsAreDisjointOnlyThroughExcludedFieldValues) {
  // The overlap check above must see these as disjoint through the excluded
  // values alone (riscv-opcodes' _n0 fields), and a table without them as
  // overlapping.
  auto get = [](const char *n) {
    const InsnSpec *i = find_insn(n);
    EXPECT_NE(i, nullptr) << n;
    return *i;
  };
  for (auto [x, y] : {std::pair{"c.jr", "c.mv"},
                      {"c.ebreak", "c.jalr"},
                      {"c.jalr", "c.add"},
                      {"c.addi16sp", "c.lui"}}) {
    InsnSpec a = get(x), b = get(y);
    EXPECT_TRUE(disjoint(a, b)) << x << " " << y;
    a.excluded.clear();
    b.excluded.clear();
    EXPECT_FALSE(disjoint(a, b)) << x << " " << y;
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
    EXPECT_EQ(covered, i.length_bytes() == 4 ? ~0u : 0xffffu) << i.name;
    EXPECT_EQ(i.match & ~i.mask, 0u) << i.name;
    EXPECT_EQ(i.mask & 3u, 3u) << i.name;
    if (i.extension.find("_c") != std::string::npos)
      EXPECT_EQ(i.length_bytes(), 2) << i.name;
    else
      EXPECT_EQ(i.length_bytes(), 4) << i.name;
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
    // The match with each field that excludes a value (rd_n0: not x0) set to
    // an allowed one (x3: excluded values are 0 and 2).
    uint32_t word = i.match;
    for (const auto &e : i.excluded) word |= (e.mask & (~e.mask + 1u)) * 3u;  // field value 3
    ASSERT_TRUE(i.matches(word)) << i.name;
    const InsnSpec *d = decode(word);
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
  // 16-bit words (riscv64-unknown-elf-as -march=rv64gc); the upper half is ignored.
  EXPECT_EQ(decode(0x0808)->name, "c.addi4spn");
  EXPECT_EQ(decode(0x852e)->name, "c.mv");
  EXPECT_EQ(decode(0x8502)->name, "c.jr");
  EXPECT_EQ(decode(0x9002)->name, "c.ebreak");
  EXPECT_EQ(decode(0x9502)->name, "c.jalr");
  EXPECT_EQ(decode(0x7139)->name, "c.addi16sp");
  EXPECT_EQ(decode(0x7501)->name, "c.lui");
  EXPECT_EQ(decode(0x0001)->name, "c.addi");  // c.nop
  EXPECT_EQ(decode(0x829b6289u)->name, "c.lui");
  EXPECT_EQ(decode(0x0000), nullptr);  // c.unimp: addi4spn with offset 0 is reserved
  EXPECT_EQ(decode(0x4002), nullptr);  // c.lwsp zero is reserved
  EXPECT_EQ(decode(0x8002), nullptr);  // c.jr zero is reserved
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
  // 16-bit encodings: bits 15..0 covered, nothing above.
  expect_error("c.x rd 15..12=0 6..2=0\n", "t/bad.opcodes:1: c.x: bits not covered");
  expect_error("c.x rd 15..13=0 6..2=0 1..0=1\n",
               "t/bad.opcodes:1: c.x: bits not covered by a value or a field: 12");
  expect_error("c.x rd 31..12=0 6..2=0 1..0=1\n", "c.x: bits 1..0 = 1 make a 16-bit encoding");
  const InsnTable ok = parse_tables({{"isa/spec/fields.csv", "rd,11,7,reg!0!2\n"},
                                     {"t/ok.opcodes", "c.x rd 15..12=0 6..2=0 1..0=1\n"}});
  ASSERT_EQ(ok.insns.size(), 1u);
  EXPECT_EQ(ok.insns[0].length_bytes(), 2);
  EXPECT_EQ(ok.insns[0].excluded.size(), 2u);
  EXPECT_FALSE(ok.insns[0].matches(0x0101));  // rd = 2
  EXPECT_TRUE(ok.insns[0].matches(0x0181));   // rd = 3
  try {
    parse_tables({{"isa/spec/fields.csv", "rd,11,7,reg\nrs1,40,15,reg\n"}});
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("isa/spec/fields.csv:2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::isa
