//===- lower_row_prefetch_test.cpp - prefetched row loads, ring depth, RVV tree levels ===//
#include <gtest/gtest.h>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions options(const std::string &kernel, const std::string &signature,
                       std::vector<std::string> constexprs) {
  CompileOptions o;
  o.kernel = kernel;
  o.knobs = Knobs{};
  add_signature(o.spec, signature);
  for (auto &c : constexprs) add_constexpr(o.spec, c);
  return o;
}

const char *kSoftmaxSig =
    "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_"
    "cols=i32";

// The plan points into the compiled module: keep both.
struct Planned {
  CompileState state;
  LoweredKernelPlan plan;
};
Planned plan_of(const std::string &file, const CompileOptions &o) {
  Planned p{compile_file(kernels() + file, o, "opt"), {}};
  p.plan = plan_kernel(*p.state.opt->find(p.state.kernel), o.target);
  return p;
}

std::string llir_of(const std::string &file, const CompileOptions &o) {
  register_codegen_stages();
  return dump_stage(compile_file(kernels() + file, o, "llir"), "llir");
}

TEST(LowerRowPrefetch, PersistentSoftmaxRowLoadGetsASecondBuffer) {
  auto o = options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=1024"});
  Planned p = plan_of("fused_softmax.py", o);
  const LoweredKernelPlan &plan = p.plan;
  ASSERT_EQ(plan.row_prefetched_loads.size(), 1u);
  EXPECT_EQ((*plan.row_prefetched_loads.begin())->kind, ttir::OpKind::Load);
  EXPECT_EQ(plan.row_prefetch_depth, 2);
  // Load, exp and store buffers (4 KiB each) plus the second row buffer.
  EXPECT_EQ(plan.local_mem_bytes, 3 * 4096 + 4096);
  std::string ir = llir_of("fused_softmax.py", o);
  EXPECT_NE(ir.find("urem i64"), std::string::npos) << "the ring slot advances";
}

// A ring deeper than the DMA tags below the K-loop pipeline's allow is an
// error naming the depth and the tags, not two transfers sharing a tag.
TEST(LowerRowPrefetch, ARingTooDeepForTheDmaTagsIsAnError) {
  Planned p =
      plan_of("fused_softmax.py", options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=1024"}));
  ASSERT_FALSE(p.plan.row_prefetched_loads.empty());
  p.plan.row_prefetch_depth = 11;
  try {
    emit_llvm_ir(p.plan);
    ADD_FAILURE() << "no error for a ring of 11 slots";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("row prefetch ring of 11 slots needs DMA tags 4..14"),
              std::string::npos)
        << e.what();
  }
  p.plan.row_prefetch_depth = 10;  // tags 4..13: fits
  EXPECT_NE(emit_llvm_ir(p.plan).find("define void @_start"), std::string::npos);
}

TEST(LowerRowPrefetch, SecondBuffersStayWithinTheLocalMemoryBudget) {
  // 64 KiB rows: the second buffer fits the 64 KiB budget; 128 KiB rows do
  // not (the load is not prefetched).
  auto bigger =
      plan_of("fused_softmax.py", options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=16384"}));
  EXPECT_EQ(bigger.plan.row_prefetch_depth, 2);
  EXPECT_EQ(bigger.plan.row_prefetched_loads.size(), 1u);
  auto huge =
      plan_of("fused_softmax.py", options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=32768"}));
  EXPECT_TRUE(huge.plan.row_prefetched_loads.empty());
}

TEST(LowerRowPrefetch, LoopsCarryingBlocksAreNotPrefetched) {
  // The tutorial layer norm's first two column loops carry accumulator
  // blocks: their loads are not prefetched. The persistent variant's row loop
  // carries nothing and is.
  const char *sig =
      "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,N=i32,eps=fp32";
  auto fused = plan_of("layer_norm.py", options("_layer_norm_fwd_fused", sig, {"BLOCK_SIZE=256"}));
  // Only the last column loop's loads (W, B, X: it carries nothing).
  EXPECT_EQ(fused.plan.row_prefetched_loads.size(), 3u);
  for (auto *load : fused.plan.row_prefetched_loads) {
    const ttir::Operation *loop = load->parent->parent;
    ASSERT_NE(loop, nullptr);
    EXPECT_EQ(loop->kind, ttir::OpKind::For);
    EXPECT_TRUE(loop->results.empty()) << "a loop carrying blocks was prefetched";
  }
  const char *rows_sig =
      "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32";
  auto rows =
      plan_of("layer_norm.py", options("_layer_norm_fwd_rows", rows_sig, {"BLOCK_SIZE=256"}));
  // Only the row's X load: W and B are loaded once, before the loop.
  EXPECT_EQ(rows.plan.row_prefetched_loads.size(), 1u);
}

TEST(LowerRowPrefetch, MatmulKLoopsAreLeftToTheDotPipeline) {
  auto o = options("matmul_kernel",
                   "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak="
                   "i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32",
                   {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"});
  EXPECT_TRUE(plan_of("matmul.py", o).plan.row_prefetched_loads.empty());
}

TEST(LowerRowPrefetch, SoftmaxExpOfRowMinusMaxIsOneSfuStripLoop) {
  // exp(x - max) reads the row buffer, subtracts and applies the SFU in one
  // strip loop (no element loop writing x - max first); exp of a value not in
  // a buffer keeps the two-pass form.
  std::string sm =
      llir_of("fused_softmax.py", options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=1024"}));
  EXPECT_NE(sm.find(".Lsfx"), std::string::npos);
  EXPECT_NE(sm.find("vfsub.vf v8, v8, $7"), std::string::npos);
  EXPECT_EQ(sm.find(".Lsfu"), std::string::npos);
  std::string th =
      llir_of("math_fn.py", options("math_fn_kernel", "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32",
                                    {"FN='tanh'", "BLOCK=32"}));
  EXPECT_NE(th.find(".Lsfu"), std::string::npos) << "tanh(x): the in-place SFU loop";
  EXPECT_EQ(th.find(".Lsfx"), std::string::npos);
}

TEST(LowerRowPrefetch, TreeLevelsRunAsRvvStripsAndRegisterSlides) {
  // Single-operand sums/maxima: level 0 as vsetvli strips in the kernel,
  // the later levels one call of the runtime library's routine for the
  // combine (memory levels as strips, the last levels in registers by
  // vslidedown); argmax's two-operand combine as vector-predicated compares
  // and selects in the kernel.
  std::string sm =
      llir_of("fused_softmax.py", options("softmax_kernel", kSoftmaxSig, {"BLOCK_SIZE=1024"}));
  EXPECT_NE(sm.find("@llvm.riscv.vsetvli.i64"), std::string::npos);
  EXPECT_NE(sm.find("@llvm.vp.fadd.nxv16f32"), std::string::npos);
  EXPECT_NE(sm.find("@llvm.riscv.vfmax.nxv16f32"), std::string::npos);
  EXPECT_NE(sm.find("\"call __opforge_rt_levels_max_f32\", \"{x10},{x11},"), std::string::npos)
      << sm;
  EXPECT_NE(sm.find("\"call __opforge_rt_levels_sum_f32\", \"{x10},{x11},"), std::string::npos)
      << sm;
  EXPECT_EQ(sm.find("vslidedown"), std::string::npos) << "the register levels are the routine's";
  std::string am = llir_of("argmax.py", options("argmax_rows_kernel",
                                                "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,"
                                                "row_stride=i32",
                                                {"BLOCK_SIZE=1024"}));
  EXPECT_NE(am.find("@llvm.vp.fcmp.nxv8f32"), std::string::npos);
  EXPECT_NE(am.find("@llvm.vp.select.nxv8i32"), std::string::npos);
  EXPECT_EQ(am.find("vslidedown"), std::string::npos) << "two operands stay in memory levels";
}

}  // namespace
}  // namespace opforge::compiler
