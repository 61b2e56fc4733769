//===- lower_dma_test.cpp - the lowered stage picks DMA for affine accesses and the DPE for dots
//===//
#include <gtest/gtest.h>

#include <cstdlib>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/ir_parser.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

// Plans the only function of a ttir module; the module stays alive with it.
struct Planned {
  std::unique_ptr<ttir::Module> module;
  LoweredKernelPlan plan;
};
Planned plan_text(const std::string &text) {
  Planned p;
  p.module = ttir::parse_module(text);
  p.plan = plan_kernel(*p.module->functions.front());
  return p;
}

const char *kGather = R"(tt.func @gather(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %y: !tt.ptr<f32>) {
  %0 = tt.make_range {end = 16, start = 0} : tensor<16xi32>
  %1 = tt.splat %idx : tensor<16x!tt.ptr<i32>>
  %2 = tt.addptr %1, %0 : tensor<16x!tt.ptr<i32>>
  %3 = tt.load %2 : tensor<16xi32>
  %4 = tt.splat %x : tensor<16x!tt.ptr<f32>>
  %5 = tt.addptr %4, %3 : tensor<16x!tt.ptr<f32>>
  %6 = tt.load %5 : tensor<16xf32>
  %7 = tt.splat %y : tensor<16x!tt.ptr<f32>>
  %8 = tt.addptr %7, %0 : tensor<16x!tt.ptr<f32>>
  tt.store %8, %6
  tt.return
}
)";

TEST(LowerDma, ContiguousIndexLoadAndStoreAreDmaButTheGatherIsNot) {
  Planned p = plan_text(kGather);
  const ttir::Block &body = *p.module->functions.front()->body;
  const ttir::Operation *index_load = body.ops[3].get(), *gather = body.ops[6].get(),
                        *store = body.ops[9].get();
  ASSERT_EQ(index_load->kind, ttir::OpKind::Load);
  ASSERT_EQ(gather->kind, ttir::OpKind::Load);
  ASSERT_EQ(store->kind, ttir::OpKind::Store);
  EXPECT_TRUE(p.plan.dma_loads.count(index_load));
  EXPECT_FALSE(p.plan.dma_loads.count(gather)) << "offsets come from memory: not affine";
  EXPECT_TRUE(p.plan.dma_stores.count(store));
  // 16 i32 in and 16 f32 out.
  EXPECT_EQ(p.plan.local_mem_bytes, 128);
}

TEST(LowerDma, AProductOfTwoRangesIsNotAffine) {
  const char *text = R"(tt.func @sq(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %0 = tt.make_range {end = 8, start = 0} : tensor<8xi32>
  %1 = arith.muli %0, %0 : tensor<8xi32>
  %2 = tt.splat %x : tensor<8x!tt.ptr<f32>>
  %3 = tt.addptr %2, %1 : tensor<8x!tt.ptr<f32>>
  %4 = tt.load %3 : tensor<8xf32>
  %5 = tt.splat %y : tensor<8x!tt.ptr<f32>>
  %6 = tt.addptr %5, %0 : tensor<8x!tt.ptr<f32>>
  tt.store %6, %4
  tt.return
}
)";
  Planned p = plan_text(text);
  const ttir::Block &body = *p.module->functions.front()->body;
  EXPECT_FALSE(is_affine_block(body.ops[1]->result()));
  EXPECT_FALSE(p.plan.dma_loads.count(body.ops[4].get()));
  EXPECT_TRUE(p.plan.dma_stores.count(body.ops[7].get()));
}

CompileOptions matmul_options(const std::string &dtype, const std::string &precision) {
  CompileOptions o;
  o.knobs = Knobs{};
  o.knobs.dot_precision = precision;
  add_signature(o.spec, "a_ptr=*" + dtype + ",b_ptr=*" + dtype +
                            ",c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
                            "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=4"})
    add_constexpr(o.spec, c);
  return o;
}

TEST(LowerDma, LoopCarriedPointerBlocksOfMatmulAreDmaAndBf16DotRunsOnTheDpe) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py", matmul_options("bf16", "ieee"), "lowered");
  std::string plan = dump_stage(s, "lowered");
  // A and B tiles (32x32 bf16 = 2 KiB each) advance by a uniform step per iteration.
  size_t first = plan.find("dma load into a 2048-byte buffer");
  ASSERT_NE(first, std::string::npos) << plan;
  EXPECT_NE(plan.find("dma load into a 2048-byte buffer", first + 1), std::string::npos) << plan;
  EXPECT_NE(plan.find("tt.dot"), std::string::npos) << plan;
  EXPECT_NE(plan.find("(dpe)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dma store from a 4096-byte buffer"), std::string::npos) << plan;
}

TEST(LowerDma, Tf32DotStaysOnTheVectorUnit) {
  register_codegen_stages();
  auto ieee = compile_file(kernels() + "matmul.py", matmul_options("fp32", "ieee"), "lowered");
  EXPECT_NE(dump_stage(ieee, "lowered").find("(dpe)"), std::string::npos);
  // The semantic layer takes the default input_precision from the environment knob.
  setenv("OPFORGE_DOT_PRECISION", "tf32", 1);
  auto tf32 = compile_file(kernels() + "matmul.py", matmul_options("fp32", "tf32"), "lowered");
  unsetenv("OPFORGE_DOT_PRECISION");
  EXPECT_EQ(dump_stage(tf32, "lowered").find("(dpe)"), std::string::npos)
      << "the DPE has no tf32 rounding of its inputs";
}

TEST(LowerDma, DpeAndDmaInstructionsComeFromTheIsaTables) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py", matmul_options("bf16", "ieee"), "llir");
  std::string ir = dump_stage(s, "llir");
  EXPECT_NE(ir.find(".insn r 11, 3, 0, x0, $0, x0"), std::string::npos) << "xmtia.dpe";
  EXPECT_NE(ir.find(".insn r 11, 4, 0, x0, x0, x0"), std::string::npos) << "xmtia.dpewait";
  EXPECT_NE(ir.find(".insn r 11, 1, 0, x0, $0, $1"), std::string::npos) << "xmtia.dma";
}

}  // namespace
}  // namespace opforge::compiler
