//===- ir_roundtrip_test.cpp - ttir printer/parser round trip and verifier --===//
#include <gtest/gtest.h>

#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::ttir;

namespace {

const char *kAddKernel =
    R"(tt.func @add_kernel(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {
  %0 = tt.get_program_id {axis = 0} : i32
  %1 = arith.constant {value = 1024} : i32
  %2 = arith.muli %0, %1 : i32
  %3 = tt.make_range {end = 1024, start = 0} : tensor<1024xi32>
  %4 = tt.splat %2 : tensor<1024xi32>
  %5 = arith.addi %4, %3 : tensor<1024xi32>
  %6 = tt.splat %n : tensor<1024xi32>
  %7 = arith.cmpi %5, %6 {predicate = "slt"} : tensor<1024xi1>
  %8 = tt.splat %x_ptr : tensor<1024x!tt.ptr<f32>>
  %9 = tt.addptr %8, %5 : tensor<1024x!tt.ptr<f32>>
  %10 = tt.load %9, %7 : tensor<1024xf32>
  %11 = tt.splat %y_ptr : tensor<1024x!tt.ptr<f32>>
  %12 = tt.addptr %11, %5 : tensor<1024x!tt.ptr<f32>>
  %13 = tt.load %12, %7 : tensor<1024xf32>
  %14 = arith.addf %10, %13 : tensor<1024xf32>
  %15 = tt.splat %out_ptr : tensor<1024x!tt.ptr<f32>>
  %16 = tt.addptr %15, %5 : tensor<1024x!tt.ptr<f32>>
  tt.store %16, %14, %7
  tt.return
}
)";

const char *kRegions = R"(tt.func @loops(%n: i32, %x: f32) -> (f32) {
  %0 = arith.constant {value = 0} : i32
  %1 = arith.constant {value = 1} : i32
  %2 = arith.constant {value = 0.5} : f32
  %3, %4 = scf.for %0, %n, %1, %x, %2 : f32, f32 {
  ^bb(%5: i32, %6: f32, %7: f32):
    %8 = arith.addf %6, %7 : f32
    scf.yield %8, %7
  }
  %9 = arith.cmpf %3, %2 {predicate = "ogt"} : i1
  %10 = scf.if %9 : f32 {
    scf.yield %3
  } {
    %11 = arith.constant {value = -inf} : f32
    scf.yield %11
  }
  %12 = tt.make_range {end = 8, start = 0} : tensor<8xi32>
  %13 = tt.reduce %12 {axis = 0} : i32 {
  ^bb(%14: i32, %15: i32):
    %16 = arith.addi %14, %15 : i32
    tt.reduce.return %16
  }
  %17 = scf.while %x : f32 {
  ^bb(%18: f32):
    %19 = arith.cmpf %18, %2 {predicate = "olt"} : i1
    scf.condition %19, %18
  } {
  ^bb(%20: f32):
    %21 = arith.addf %20, %2 : f32
    scf.yield %21
  }
  tt.return %10
}
)";

TEST(IrRoundTrip, VectorAddPrintsBackIdentically) {
  auto m = parse_module(kAddKernel, "add.ttir");
  EXPECT_EQ(print(*m), kAddKernel);
}

TEST(IrRoundTrip, RegionsForIfReduceWhilePrintBackIdentically) {
  auto m = parse_module(kRegions, "loops.ttir");
  EXPECT_EQ(print(*m), kRegions);
  ASSERT_EQ(m->functions.size(), 1u);
  EXPECT_EQ(m->functions[0]->result_types.size(), 1u);
}

TEST(IrTypes, ParseAndPrintEveryTypeForm) {
  for (std::string t :
       {"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "!tt.ptr<f16>",
        "tensor<4x8xbf16>", "tensor<16x!tt.ptr<i32>>", "!tt.ptr<tensor<64x32xf16>>"})
    EXPECT_EQ(parse_type(t).str(), t);
  EXPECT_THROW(parse_type("tensor<4xq7>"), Error);
  EXPECT_THROW(parse_type("f32x"), Error);
}

TEST(IrParser, UndefinedValueNamesLineAndColumn) {
  const char *bad = "tt.func @f(%a: i32) {\n  %0 = arith.addi %a, %b : i32\n  tt.return\n}\n";
  try {
    parse_module(bad, "bad.ttir");
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, "bad.ttir");
    EXPECT_EQ(e.context().line, 2);
    EXPECT_EQ(e.context().col, 23);
    EXPECT_NE(e.message().find("undefined value '%b'"), std::string::npos) << e.message();
  }
}

TEST(IrParser, UnknownOperationIsReported) {
  const char *bad = "tt.func @f(%a: i32) {\n  %0 = arith.frobnicate %a : i32\n  tt.return\n}\n";
  EXPECT_THROW(parse_module(bad), Error);
}

TEST(IrVerifier, RejectsMismatchedOperandTypes) {
  const char *bad =
      "tt.func @f(%a: i32, %b: i64) {\n  %0 = arith.addi %a, %b : i32\n  tt.return\n}\n";
  try {
    parse_module(bad, "v.ttir");
    FAIL() << "expected a verifier error";
  } catch (const Error &e) {
    EXPECT_NE(e.message().find("operand types"), std::string::npos) << e.message();
    EXPECT_EQ(e.context().line, 2);
  }
}

TEST(IrVerifier, RejectsBadBroadcastAndMakeRange) {
  EXPECT_THROW(parse_module("tt.func @f(%a: i32) {\n  %0 = tt.make_range {end = 8, start = 0} : "
                            "tensor<4xi32>\n  tt.return\n}\n"),
               Error);
  EXPECT_THROW(
      parse_module("tt.func @f() {\n  %0 = tt.make_range {end = 8, start = 0} : tensor<8xi32>\n"
                   "  %1 = tt.broadcast %0 : tensor<4xi32>\n  tt.return\n}\n"),
      Error);
}

TEST(IrVerifier, RejectsUseBeforeDefinitionAcrossRegions) {
  // %3 is defined inside the loop body and used after it: not dominating.
  const char *bad = R"(tt.func @f(%n: i32) {
  %0 = arith.constant {value = 0} : i32
  %1 = arith.constant {value = 1} : i32
  scf.for %0, %n, %1 {
  ^bb(%2: i32):
    %3 = arith.addi %2, %1 : i32
    scf.yield
  }
  %4 = arith.addi %3, %1 : i32
  tt.return
}
)";
  EXPECT_THROW(parse_module(bad), Error);
}

TEST(IrVerifier, ForYieldTypesMustMatchIterArgs) {
  const char *bad = R"(tt.func @f(%n: i32, %x: f32) {
  %0 = arith.constant {value = 0} : i32
  %1 = arith.constant {value = 1} : i32
  %2 = scf.for %0, %n, %1, %x : f32 {
  ^bb(%3: i32, %4: f32):
    scf.yield %3
  }
  tt.return
}
)";
  EXPECT_THROW(parse_module(bad), Error);
}

}  // namespace

namespace {
TEST(IrParser, EveryTruncationOfAValidModuleFailsCleanly) {
  std::string text = kRegions;
  int errors = 0;
  for (size_t n = 0; n + 1 < text.size(); n += 7) {
    try {
      parse_module(text.substr(0, n), "cut.ttir");
    } catch (const Error &) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 50);
}
}  // namespace
