//===- lower_wrap_test.cpp - (x0 + arange) % M offsets lower to DMA tiles, not gathers ===//
#include <gtest/gtest.h>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/ir_parser.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

CompileOptions wrap_options(const char *block_m, const char *block_n, const char *block_k) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {block_m, block_n, block_k, "GROUP_SIZE_M=8"}) add_constexpr(o.spec, c);
  return o;
}

TEST(LowerWrap, TutorialModuloOffsetsAreDmaTilesPrefetchedLikeTheLibraryMatmul) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul_wrap.py",
                        wrap_options("BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64"),
                        "lowered");
  std::string plan = dump_stage(s, "lowered");
  // A: 128x64 bf16 = 16 KiB, B: 64x256 bf16 = 32 KiB, each in two buffers;
  // the loop-carried pointer blocks are scalars, not 64/128 KiB pointer buffers.
  EXPECT_NE(plan.find("dma load into a 16384-byte buffer x2, prefetched one iteration ahead"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("dma load into a 32768-byte buffer x2, prefetched one iteration ahead"),
            std::string::npos)
      << plan;
  EXPECT_EQ(count(plan, "affine, carried as its element 0"), 2u) << plan;
  EXPECT_NE(plan.find("(dpe)"), std::string::npos) << plan;
}

TEST(LowerWrap, TheTileCodeIssuesDmaUnderTheWrapGuardAndKeepsAColdElementCopy) {
  register_codegen_stages();
  auto s =
      compile_file(kernels() + "matmul_wrap.py",
                   wrap_options("BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32"), "llir");
  std::string ir = dump_stage(s, "llir");
  EXPECT_NE(ir.find(".insn r 11, 1, 0, x0, $0, $1"), std::string::npos) << "xmtia.dma";
  EXPECT_NE(ir.find("!opforge.cold"), std::string::npos) << "the wrapped tile's element copy";
}

ttir::Value *result_of(ttir::Module &m, size_t op) {
  return m.functions.front()->body->ops[op]->result();
}

TEST(LowerWrap, ARemainderOfAnAffineBlockByAUniformOneIsWrappedAffineOnly) {
  const char *text = R"(tt.func @w(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %m: i32, %b: i32) {
  %0 = tt.make_range {end = 16, start = 0} : tensor<16xi32>
  %1 = tt.splat %b : tensor<16xi32>
  %2 = arith.addi %1, %0 : tensor<16xi32>
  %3 = tt.splat %m : tensor<16xi32>
  %4 = arith.remsi %2, %3 : tensor<16xi32>
  %5 = tt.splat %x : tensor<16x!tt.ptr<f32>>
  %6 = tt.addptr %5, %4 : tensor<16x!tt.ptr<f32>>
  %7 = tt.load %6 : tensor<16xf32>
  %8 = arith.muli %0, %0 : tensor<16xi32>
  %9 = arith.remsi %8, %3 : tensor<16xi32>
  %10 = tt.addptr %5, %9 : tensor<16x!tt.ptr<f32>>
  %11 = tt.load %10 : tensor<16xf32>
  %12 = arith.addf %7, %11 : tensor<16xf32>
  %13 = tt.splat %y : tensor<16x!tt.ptr<f32>>
  %14 = tt.addptr %13, %4 : tensor<16x!tt.ptr<f32>>
  tt.store %14, %12
  tt.return
}
)";
  auto m = ttir::parse_module(text);
  LoweredKernelPlan plan = plan_kernel(*m->functions.front());
  const auto &ops = m->functions.front()->body->ops;
  const ttir::Value *wrapped = result_of(*m, 6), *squares = result_of(*m, 10);
  EXPECT_FALSE(is_affine_block(wrapped));
  EXPECT_TRUE(is_wrapped_affine_block(wrapped));
  EXPECT_EQ(wrap_remainders(wrapped).size(), 1u);
  EXPECT_TRUE(plan.dma_loads.count(ops[7].get())) << "(b + arange) % m: a DMA load";
  EXPECT_FALSE(is_wrapped_affine_block(squares)) << "(i * i) % m is not affine inside";
  EXPECT_FALSE(plan.dma_loads.count(ops[11].get()));
  EXPECT_FALSE(plan.dma_stores.count(ops[15].get())) << "stores stay affine-only";
}

}  // namespace
}  // namespace opforge::compiler
