//===- interp_ir_test.cpp - the ttir interpreter on hand-written IR --------===//
#include <gtest/gtest.h>

#include <cmath>

#include "opforge/compiler/interp.h"
#include "opforge/compiler/ir_parser.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::ttir;

namespace {

const char *kAdd = R"(tt.func @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {
  %0 = tt.get_program_id {axis = 0} : i32
  %1 = arith.constant {value = 4} : i32
  %2 = arith.muli %0, %1 : i32
  %3 = tt.make_range {end = 4, start = 0} : tensor<4xi32>
  %4 = tt.splat %2 : tensor<4xi32>
  %5 = arith.addi %4, %3 : tensor<4xi32>
  %6 = tt.splat %n : tensor<4xi32>
  %7 = arith.cmpi %5, %6 {predicate = "slt"} : tensor<4xi1>
  %8 = tt.splat %x : tensor<4x!tt.ptr<f32>>
  %9 = tt.addptr %8, %5 : tensor<4x!tt.ptr<f32>>
  %10 = tt.load %9, %7 : tensor<4xf32>
  %11 = tt.splat %y : tensor<4x!tt.ptr<f32>>
  %12 = tt.addptr %11, %5 : tensor<4x!tt.ptr<f32>>
  %13 = tt.load %12, %7 : tensor<4xf32>
  %14 = arith.addf %10, %13 : tensor<4xf32>
  %15 = tt.splat %o : tensor<4x!tt.ptr<f32>>
  %16 = tt.addptr %15, %5 : tensor<4x!tt.ptr<f32>>
  tt.store %16, %14, %7
  tt.return
}
)";

HostTensor iota(int64_t n, double scale) {
  HostTensor t(DType::Float32, {n});
  for (int64_t i = 0; i < n; ++i) t.set_double(i, static_cast<double>(i) * scale);
  return t;
}

TEST(InterpIr, MaskedVectorAddOverAGridWithATail) {
  auto m = parse_module(kAdd);
  InterpMemory mem;
  HostTensor x = iota(10, 1.0), y = iota(10, 0.5), o(DType::Float32, {10});
  Interpreter in(mem);
  auto r = in.run(*m, "add",
                  {KernelArg::pointer(mem.address_of(x)), KernelArg::pointer(mem.address_of(y)),
                   KernelArg::pointer(mem.address_of(o)), KernelArg::integer(10)},
                  Grid{3, 1, 1});
  EXPECT_EQ(r.programs_run, 3);
  for (int64_t i = 0; i < 10; ++i) EXPECT_EQ(o.get_double(i), 1.5 * static_cast<double>(i)) << i;
}

TEST(InterpIr, UnmaskedOutOfBoundsLoadNamesOpProgramAndElement) {
  std::string text = kAdd;
  // Drop the masks: the tail program reads past the end.
  for (std::string from : {"tt.load %9, %7", "tt.load %12, %7", "tt.store %16, %14, %7"}) {
    std::string to = from.substr(0, from.rfind(','));
    text.replace(text.find(from), from.size(), to);
  }
  auto m = parse_module(text);
  InterpMemory mem;
  HostTensor x = iota(6, 1.0), y = iota(6, 1.0), o(DType::Float32, {6});
  Interpreter in(mem);
  try {
    in.run(*m, "add",
           {KernelArg::pointer(mem.address_of(x)), KernelArg::pointer(mem.address_of(y)),
            KernelArg::pointer(mem.address_of(o)), KernelArg::integer(6)},
           Grid{2, 1, 1});
    FAIL() << "expected an out-of-bounds error";
  } catch (const Error &e) {
    std::string msg = e.message();
    EXPECT_NE(msg.find("tt.load"), std::string::npos) << msg;
    EXPECT_NE(msg.find("program (1, 0, 0)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("out-of-bounds load at element 2"), std::string::npos) << msg;
  }
}

TEST(InterpIr, ReduceScanAndIntegerWrap) {
  const char *text = R"(tt.func @k(%o: !tt.ptr<i32>) {
  %0 = tt.make_range {end = 8, start = 0} : tensor<8xi32>
  %1 = tt.reduce %0 {axis = 0} : i32 {
  ^bb(%2: i32, %3: i32):
    %4 = arith.addi %2, %3 : i32
    tt.reduce.return %4
  }
  tt.store %o, %1
  %5 = tt.scan %0 {axis = 0, reverse = false} : tensor<8xi32> {
  ^bb(%6: i32, %7: i32):
    %8 = arith.addi %6, %7 : i32
    tt.scan.return %8
  }
  %9 = tt.splat %o : tensor<8x!tt.ptr<i32>>
  %10 = arith.constant {value = 1} : tensor<8xi32>
  %11 = arith.addi %0, %10 : tensor<8xi32>
  %12 = tt.addptr %9, %11 : tensor<8x!tt.ptr<i32>>
  tt.store %12, %5
  %13 = arith.constant {value = 2147483647} : i32
  %14 = arith.constant {value = 1} : i32
  %15 = arith.addi %13, %14 : i32
  %16 = arith.constant {value = 9} : i32
  %17 = tt.addptr %o, %16 : !tt.ptr<i32>
  tt.store %17, %15
  tt.return
}
)";
  auto m = parse_module(text);
  InterpMemory mem;
  HostTensor o(DType::Int32, {10});
  Interpreter in(mem);
  in.run(*m, "k", {KernelArg::pointer(mem.address_of(o))}, Grid{});
  EXPECT_EQ(o.get_int(0), 28);
  const int64_t cumsum[] = {0, 1, 3, 6, 10, 15, 21, 28};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o.get_int(1 + i), cumsum[i]);
  EXPECT_EQ(o.get_int(9), -2147483648LL);
}

TEST(InterpIr, Fp16ArithmeticRoundsToHalfAndMaximumPropagatesNaN) {
  const char *text = R"(tt.func @k(%o: !tt.ptr<f16>, %p: !tt.ptr<f32>) {
  %0 = arith.constant {value = 2048.0} : f16
  %1 = arith.constant {value = 1.0} : f16
  %2 = arith.addf %0, %1 : f16
  tt.store %o, %2
  %3 = arith.constant {value = nan} : f32
  %4 = arith.constant {value = 1.0} : f32
  %5 = arith.maximumf %3, %4 : f32
  tt.store %p, %5
  %6 = arith.maxnumf %3, %4 : f32
  %7 = arith.constant {value = 1} : i32
  %8 = tt.addptr %p, %7 : !tt.ptr<f32>
  tt.store %8, %6
  tt.return
}
)";
  auto m = parse_module(text);
  InterpMemory mem;
  HostTensor o(DType::Float16, {1}), p(DType::Float32, {2});
  Interpreter in(mem);
  in.run(*m, "k", {KernelArg::pointer(mem.address_of(o)), KernelArg::pointer(mem.address_of(p))},
         Grid{});
  EXPECT_EQ(o.get_double(0), 2048.0);  // 2049 is not representable in fp16 (RNE -> 2048)
  EXPECT_TRUE(std::isnan(p.get_double(0)));
  EXPECT_EQ(p.get_double(1), 1.0);
}

TEST(InterpIr, DotAccumulatesAndLoopsCarryValues) {
  const char *text = R"(tt.func @k(%o: !tt.ptr<f32>) {
  %0 = arith.constant {value = 1.0} : tensor<2x4xf32>
  %1 = arith.constant {value = 2.0} : tensor<4x2xf32>
  %2 = arith.constant {value = 0.0} : tensor<2x2xf32>
  %3 = arith.constant {value = 0} : i32
  %4 = arith.constant {value = 3} : i32
  %5 = arith.constant {value = 1} : i32
  %6 = scf.for %3, %4, %5, %2 : tensor<2x2xf32> {
  ^bb(%7: i32, %8: tensor<2x2xf32>):
    %9 = tt.dot %0, %1, %8 {input_precision = "ieee"} : tensor<2x2xf32>
    scf.yield %9
  }
  %10 = tt.make_range {end = 2, start = 0} : tensor<2xi32>
  %11 = tt.expand_dims %10 {axis = 1} : tensor<2x1xi32>
  %12 = arith.constant {value = 2} : tensor<2x1xi32>
  %13 = arith.muli %11, %12 : tensor<2x1xi32>
  %14 = tt.broadcast %13 : tensor<2x2xi32>
  %15 = tt.expand_dims %10 {axis = 0} : tensor<1x2xi32>
  %16 = tt.broadcast %15 : tensor<2x2xi32>
  %17 = arith.addi %14, %16 : tensor<2x2xi32>
  %18 = tt.splat %o : tensor<2x2x!tt.ptr<f32>>
  %19 = tt.addptr %18, %17 : tensor<2x2x!tt.ptr<f32>>
  tt.store %19, %6
  tt.return
}
)";
  auto m = parse_module(text);
  InterpMemory mem;
  HostTensor o(DType::Float32, {2, 2});
  Interpreter in(mem);
  in.run(*m, "k", {KernelArg::pointer(mem.address_of(o))}, Grid{});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(o.get_double(i), 24.0);
}

}  // namespace
