//===- tables_encode_test.cpp - encoder range checks and field extraction ---===//
#include <gtest/gtest.h>

#include "opforge/isa/encode.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

const InsnSpec &insn(const char *name) {
  const InsnSpec *i = find_insn(name);
  if (!i) throw std::runtime_error(std::string("no ") + name);
  return *i;
}

TEST(Encode, PacksFieldsLikeGnuAs) {
  const FieldValue addi[] = {{"rd", 10}, {"rs1", 11}, {"imm12", -1}};
  EXPECT_EQ(encode(insn("addi"), addi), 0xfff58513u);  // addi a0,a1,-1
  const FieldValue sd[] = {{"rs2", 1}, {"rs1", 2}, {"imm_s", 8}};
  EXPECT_EQ(encode(insn("sd"), sd), 0x00113423u);  // sd ra,8(sp)
  const FieldValue beq[] = {{"rs1", 10}, {"rs2", 11}, {"imm_b", -4096}};
  EXPECT_EQ(field_operand("imm_b", encode(insn("beq"), beq)), -4096);
  const FieldValue jal[] = {{"rd", 1}, {"imm_j", 1048574}};
  EXPECT_EQ(field_operand("imm_j", encode(insn("jal"), jal)), 1048574);
  const FieldValue vadd[] = {{"vd", 1}, {"vs2", 2}, {"simm5", -16}, {"vm", 1}};
  EXPECT_EQ(encode(insn("vadd.vi"), vadd), 0x022830d7u);
}

TEST(Encode, RejectsValuesThatDoNotFit) {
  const FieldValue big[] = {{"rd", 32}};
  EXPECT_THROW(encode(insn("addi"), big), Error);
  const FieldValue imm[] = {{"imm12", 2048}};
  EXPECT_THROW(encode(insn("addi"), imm), Error);
  const FieldValue neg[] = {{"shamtd", -1}};
  EXPECT_THROW(encode(insn("slli"), neg), Error);
  const FieldValue odd[] = {{"imm_b", 3}};
  EXPECT_THROW(encode(insn("beq"), odd), Error);
  const FieldValue foreign[] = {{"vd", 1}};
  try {
    encode(insn("add"), foreign);
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "add: has no field 'vd'");
  }
  try {
    encode(insn("addi"), imm);
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "addi: imm12 value 2048 out of range [-2048, 2047]");
  }
}

TEST(Encode, FieldOperandSignExtendsSignedFields) {
  EXPECT_EQ(field_operand("imm12", 0xfff58513u), -1);
  EXPECT_EQ(field_operand("simm5", 0x022830d7u), -16);
  EXPECT_EQ(field_operand("zimm5", 0x022830d7u), 16);
  EXPECT_EQ(field_operand("imm_s", 0xfea13c27u), -8);  // fsd fa0,-8(sp)
}

TEST(Encode, VtypeAndFenceSetsRoundTrip) {
  for (uint32_t vt = 0; vt < 256; ++vt) {
    if (((vt >> 3) & 7) > 3 || (vt & 7) == 4) continue;
    auto again = parse_vtype(format_vtype(vt));
    ASSERT_TRUE(again.has_value()) << format_vtype(vt);
    EXPECT_EQ(*again, vt);
  }
  EXPECT_EQ(format_vtype(0x100), "0x100");
  EXPECT_FALSE(parse_vtype("m1,e32").has_value());
  for (uint32_t s = 1; s < 16; ++s) EXPECT_EQ(parse_fence_set(format_fence_set(s)), s);
  EXPECT_FALSE(parse_fence_set("wr").has_value());
}

TEST(Encode, RegisterNames) {
  EXPECT_EQ(parse_xreg("fp"), 8u);
  EXPECT_EQ(parse_xreg("x31"), 31u);
  EXPECT_FALSE(parse_xreg("x32").has_value());
  EXPECT_FALSE(parse_xreg("x01").has_value());
  EXPECT_EQ(parse_freg("fs11"), 27u);
  EXPECT_EQ(parse_freg("f0"), 0u);
  EXPECT_EQ(parse_vreg("v31"), 31u);
  EXPECT_FALSE(parse_vreg("v0.t").has_value());
  EXPECT_EQ(xreg_name(8), "s0");
  EXPECT_EQ(freg_name(31), "ft11");
}

}  // namespace
}  // namespace opforge::isa
