//===- codegen_llir_values_test.cpp - the emitter's typed values (llir_ir.h's LlVal) ===//
//
// Constants are known from the value's record (LlVal::constant) or from the
// ops that define a block, never by reading a value's text: a load's
// `other` of +0.0 passes no fill bits, -0.0 does.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llir_ir.h"

namespace opforge::compiler {
namespace {

using llir::LlVal;

TEST(LlirValues, AConstantKnowsItsValueAndPrintsAsALiteral) {
  const LlVal seven = LlVal::integer(7);
  EXPECT_EQ(seven.ref, "7");
  EXPECT_EQ(seven.type, "i64");
  EXPECT_TRUE(seven.is(7));
  EXPECT_FALSE(seven.is(0));
  EXPECT_EQ(seven.typed(), "i64 7");
  const LlVal minus = LlVal::integer(-3, "i32");
  EXPECT_EQ(minus.typed(), "i32 -3");
  EXPECT_EQ(*minus.constant, -3);
}

TEST(LlirValues, BooleansAreI1ConstantsZeroOrOne) {
  EXPECT_EQ(LlVal::boolean(true).typed(), "i1 true");
  EXPECT_TRUE(LlVal::boolean(true).is(1));
  EXPECT_TRUE(LlVal::boolean(false).is(0));
  // An i1 integer is a boolean: its low bit.
  EXPECT_EQ(LlVal::integer(3, "i1").ref, "true");
  EXPECT_TRUE(LlVal::integer(2, "i1").is(0));
}

TEST(LlirValues, ADefinedValueIsNoConstantWhateverItsName) {
  const LlVal t = LlVal::of("%t4", "i64");
  EXPECT_FALSE(t.constant);
  EXPECT_EQ(t.typed(), "i64 %t4");
  // A name that reads like a literal is still no constant: only the record says.
  EXPECT_FALSE(LlVal::of("0", "i64").constant);
  EXPECT_FALSE(LlVal::of("true", "i1").is(1));
}

// A masked row load (the partial row goes through __opforge_rt_row) with
// `other` written as OTHER.
std::string row_load_ir(const std::string &other) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "codegen_llir_values";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "row_load.py";
  std::ofstream(file) << "import triton\nimport triton.language as tl\n\n\n"
                         "@triton.jit\n"
                         "def row_load(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
                         "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                         "    x = tl.load(x_ptr + offs, mask=offs < n, other="
                      << other
                      << ")\n"
                         "    tl.store(y_ptr + offs, x + 1.0)\n";
  register_codegen_stages();
  CompileOptions o;
  add_signature(o.spec, "x_ptr=*fp32,y_ptr=*fp32,n=i32");
  add_constexpr(o.spec, "BLOCK=64");
  CompileState state = compile_file(file.string(), o, "opt");
  LoweredKernelPlan plan = plan_kernel(*state.opt->find(state.kernel), o.target);
  return emit_llvm_module(plan).text;
}

// The i64 fill-bits argument of the __opforge_rt_row call (the 8th).
std::string row_fill_bits(const std::string &ir) {
  size_t at = ir.find("call void @__opforge_rt_row(");
  if (at == std::string::npos) return "";
  const size_t end = ir.find(')', at);
  std::string args = ir.substr(at, end - at);
  for (int i = 0; i < 7; ++i) args = args.substr(args.find(", ") + 2);
  return args.substr(0, args.find(','));
}

TEST(LlirValues, APositiveZeroOtherIsKnownFromItsOpAndPassesNoBits) {
  EXPECT_EQ(row_fill_bits(row_load_ir("0.0")), "i64 0");
}

TEST(LlirValues, ANegativeZeroOrOtherConstantPassesItsBits) {
  for (const char *other : {"-0.0", "1.5"}) {
    const std::string bits = row_fill_bits(row_load_ir(other));
    EXPECT_EQ(bits.rfind("i64 %", 0), 0u) << other << ": " << bits;
  }
}

}  // namespace
}  // namespace opforge::compiler
