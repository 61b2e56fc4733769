//===- ext_errors_test.cpp - bad extension files are errors naming what is wrong ===//
#include <gtest/gtest.h>

#include <fstream>

#include "ext_test_util.h"
#include "opforge/isa/extension.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

using namespace opforge::isa;

namespace {

// A valid one-instruction file; each test breaks one line of it.
std::string file_text(const std::string &mnemonic, const std::string &encoding,
                      const std::string &semantics = "exp(x) * y",
                      const std::string &intrinsic = "bad_test", const std::string &extra = "") {
  return "extension xbad_" + std::to_string(std::hash<std::string>{}(mnemonic) % 100000) +
         "\n"
         "description a test\n"
         "insn " +
         mnemonic +
         "\n"
         "  encoding   " +
         encoding +
         "\n"
         "  operands   vf\n"
         "  semantics  " +
         semantics +
         "\n"
         "  unit       sfu\n"
         "  latency    4\n"
         "  throughput 8\n" +
         extra + "  intrinsic  " + intrinsic + "\n";
}

// The error's formatted text ("file:line:col: field: message").
std::string parse_error(const std::string &text) {
  try {
    parse_extension(text, "bad.ext");
  } catch (const opforge::Error &e) {
    return e.what();
  }
  return "(no error)";
}

std::string register_error(const std::string &text, const std::string &file) {
  try {
    register_extension(parse_extension(text, file));
  } catch (const opforge::Error &e) {
    return e.what();
  }
  return "(no error)";
}

const char *kFreeEncoding = "31..26=0x2a vm vs2 rs1 14..12=5 vd 6..0=0x5B";

}  // namespace

TEST(ExtErrors, MalformedFilesNameFileLineAndField) {
  // A bad value of a known key.
  EXPECT_EQ(
      parse_error(file_text("vb.vf", kFreeEncoding, "exp(x) * y", "bad_test", "  latency 9\n")),
      "bad.ext:10: latency: 'latency' given twice (first at line 8)");
  std::string t = file_text("vb.vf", kFreeEncoding);
  t.replace(t.find("throughput 8"), 12, "throughput 0");
  EXPECT_EQ(parse_error(t), "bad.ext:9:14: throughput: expected an integer 1..4096, got '0'");
  t = file_text("vb.vf", kFreeEncoding);
  t.replace(t.find("unit       sfu"), 14, "unit       dpe");
  EXPECT_EQ(parse_error(t), "bad.ext:7:14: unit: expected sfu, vfp or valu, got 'dpe'");
  // A malformed encoding: the tables' own checks, under the field `encoding`.
  EXPECT_EQ(parse_error(file_text("vb.vf", "31..26=0x2a vm vs2 rs1 14..12=5 vd")),
            "bad.ext:4:14: encoding: vb.vf: bits not covered by a value or a field: 6 5 4 3 2 "
            "1 0");
  EXPECT_EQ(parse_error(file_text("vb.vf", "31..26=0x2a vm vs2 rs1 14..12=5 vd 6..0=0x57")),
            "bad.ext:4:14: encoding: bits 6..0 must select a custom opcode: custom-0 0x0B, "
            "custom-1 0x2B, custom-2 0x5B or custom-3 0x7B");
  EXPECT_EQ(parse_error(file_text("vb.vf", "31..26=0x2a vm vs2 vs1 14..12=5 vd 6..0=0x5B")),
            "bad.ext:4: encoding: operands vf need the fields fs1 vd vs2 (and optionally vm); "
            "the encoding has vm vs2 vs1 vd");
  // Missing and unknown keys; a key outside an instruction.
  t = file_text("vb.vf", kFreeEncoding);
  t.erase(t.find("  latency    4\n"), 15);
  EXPECT_EQ(parse_error(t), "bad.ext:3: latency: instruction 'vb.vf' has no 'latency' line");
  EXPECT_EQ(
      parse_error(file_text("vb.vf", kFreeEncoding, "exp(x) * y", "bad_test", "  latncy 3\n")),
      "bad.ext:10: latncy: unknown key 'latncy' (expected extension, description, insn, "
      "encoding, operands, sew, semantics, unit, latency, throughput, occupancy or "
      "intrinsic)");
  EXPECT_EQ(parse_error("extension xa\nlatency 3\n"),
            "bad.ext:2: latency: 'latency' outside an 'insn' block");
  EXPECT_EQ(parse_error("insn va.v\n"),
            "bad.ext:1: extension: the file must start with 'extension NAME'");
  // Syntax errors in the expression point at the column.
  EXPECT_EQ(parse_error(file_text("vb.vf", kFreeEncoding, "exp(x * y")),
            "bad.ext:6:23: semantics: expected ')' before the end");
  EXPECT_EQ(parse_error(file_text("vb.vf", kFreeEncoding, "x ^ y")),
            "bad.ext:6:16: semantics: unexpected '^'");
  // A file that cannot be read names itself.
  try {
    load_extension("/nonexistent/x.ext");
    ADD_FAILURE() << "no error";
  } catch (const opforge::Error &e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.ext: cannot open ISA extension file");
  }
}

TEST(ExtErrors, UnknownHelperIsNamed) {
  EXPECT_EQ(parse_error(file_text("vb.vf", kFreeEncoding, "exp(x) * softplus(y)")),
            "bad.ext:6:23: semantics: unknown helper 'softplus' (element names: x y; helpers: "
            "exp log tanh erf sin cos rsqrt recip sqrt fma min max abs round_p)");
  EXPECT_EQ(parse_error(file_text("vb.vf", kFreeEncoding, "fma(x, y)")),
            "bad.ext:6:22: semantics: expected ',' at ')'");
  std::string t = file_text("vb.vf", kFreeEncoding, "exp(y)");
  t.replace(t.find("operands   vf"), 13, "operands   v ");
  t.replace(t.find("vs2 rs1"), 7, "vs2 19..15=0");
  EXPECT_EQ(parse_error(t),
            "bad.ext:6:14: semantics: 'y' needs operands vv or vf (this "
            "instruction has v)");
}

TEST(ExtErrors, EncodingOverlapNamesBothInstructions) {
  // funct6 0x00 funct3 1 in custom-1 is vfexp.v (isa/spec/xmtia.opcodes).
  const std::string msg =
      register_error(file_text("vover.v", "31..26=0x00 vm vs2 rs1 14..12=1 vd 6..0=0x2B",
                               "exp(x) * y", "over_test"),
                     "over.ext");
  EXPECT_EQ(msg,
            "over.ext: encoding: encoding of 'vover.v' (over.ext:3) overlaps 'vfexp.v' "
            "(isa/spec/xmtia.opcodes:10)");
  EXPECT_EQ(find_insn("vover.v"), nullptr);
  // Two registered extensions that overlap each other.
  EXPECT_EQ(register_error(file_text("vfirst.vf", "31..26=0x2b vm vs2 rs1 14..12=5 vd 6..0=0x5B",
                                     "x", "first_test"),
                           "first.ext"),
            "(no error)");
  EXPECT_EQ(register_error(file_text("vsecond.vf", "31..26=0x2b vm vs2 rs1 14..12=5 vd 6..0=0x5B",
                                     "y", "second_test"),
                           "second.ext"),
            "second.ext: encoding: encoding of 'vsecond.vf' (second.ext:3) overlaps 'vfirst.vf' "
            "(first.ext:3)");
  EXPECT_EQ(find_insn("vsecond.vf"), nullptr);
}

TEST(ExtErrors, DuplicateMnemonicOrIntrinsicIsRejected) {
  // A built-in mnemonic.
  EXPECT_EQ(register_error(
                file_text("vfexp.v", "31..26=0x2c vm vs2 rs1 14..12=5 vd 6..0=0x5B", "x", "dup_a"),
                "dup.ext"),
            "dup.ext: insn: duplicate mnemonic: 'vfexp.v' (dup.ext:3) is already 'vfexp.v' "
            "(isa/spec/xmtia.opcodes:10)");
  // A mnemonic twice in one file.
  EXPECT_EQ(parse_error("extension xd\n"
                        "insn vd1.vf\n encoding 31..26=0x2d vm vs2 rs1 14..12=5 vd 6..0=0x5B\n"
                        " operands vf\n semantics x\n unit sfu\n latency 1\n throughput 1\n"
                        " intrinsic d1\n"
                        "insn vd1.vf\n"),
            "bad.ext:10: insn: duplicate mnemonic 'vd1.vf' (first at bad.ext:2)");
  // An intrinsic another extension has.
  ASSERT_EQ(register_error(file_text("vint1.vf", "31..26=0x2e vm vs2 rs1 14..12=5 vd 6..0=0x5B",
                                     "x", "same_intrinsic"),
                           "int1.ext"),
            "(no error)");
  EXPECT_EQ(register_error(file_text("vint2.vf", "31..26=0x2f vm vs2 rs1 14..12=5 vd 6..0=0x5B",
                                     "x", "same_intrinsic"),
                           "int2.ext"),
            "int2.ext: intrinsic: intrinsic 'same_intrinsic' of 'vint2.vf' (int2.ext:3) is already "
            "that of 'vint1.vf' (int1.ext:3)");
  // The same extension name with other instructions.
  std::string other =
      file_text("vint1.vf", "31..26=0x2e vm vs2 rs1 14..12=5 vd 6..0=0x5B", "y", "same_intrinsic");
  EXPECT_EQ(register_error(other, "int1b.ext"),
            "int1b.ext: extension: extension '" + parse_extension(other, "x").name +
                "' is already registered from int1.ext with other instructions");
}
