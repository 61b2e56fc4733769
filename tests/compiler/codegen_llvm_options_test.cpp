//===- codegen_llvm_options_test.cpp - the backend's LLVM switches and pass-manager reuse ===//
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llvm_options.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

struct Case {
  const char *file, *kernel, *signature;
  std::vector<std::string> constexprs;
};

// Element loops with DMA (vector_add), a reduction with SFU inline asm
// (softmax), a persistent row loop with prefetch (layer_norm), DPE tiles
// (bf16 matmul).
const std::vector<Case> kCases = {
    {"vector_add.py",
     "",
     "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
     {"BLOCK_SIZE=1024"}},
    {"fused_softmax.py",
     "",
     "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,"
     "n_cols=i32",
     {"BLOCK_SIZE=1024"}},
    {"layer_norm.py",
     "_layer_norm_fwd_rows",
     "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32",
     {"BLOCK_SIZE=1024"}},
    {"matmul.py",
     "",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
     "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32",
     {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
};

std::string llir(const Case &c) {
  register_codegen_stages();
  CompileOptions o;
  o.kernel = c.kernel;
  o.knobs = Knobs{};
  add_signature(o.spec, c.signature);
  for (auto &ce : c.constexprs) add_constexpr(o.spec, ce);
  CompileState s = compile_file(kernels() + c.file, o, "opt");
  return emit_llvm_ir(plan_kernel(*s.opt->find(s.kernel), o.target));
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

std::vector<LlvmSwitch> llvm_defaults(std::vector<LlvmSwitch> switches) {
  for (LlvmSwitch &sw : switches) sw.value = sw.default_value;
  return switches;
}

TEST(LlvmOptions, CodegenSwitchesAreInEffectOnceLlvmHasStarted) {
  llvm_warm_up();
  std::vector<LlvmSwitch> switches = llvm_codegen_switches();
  ASSERT_FALSE(switches.empty());
  for (const LlvmSwitch &sw : switches) {
    SCOPED_TRACE(sw.name);
    EXPECT_NE(sw.value, sw.default_value);
    EXPECT_EQ(llvm_switch_value(sw.name), sw.value);
  }
  // Switches the backend leaves alone read back LLVM's defaults.
  EXPECT_EQ(llvm_switch_value("disable-lsr"), "false");
  EXPECT_EQ(llvm_switch_value("riscv-v-fixed-length-vector-lmul-max"), "8");
}

TEST(LlvmOptions, AnOptionLlvmDoesNotHaveIsAnErrorNamingIt) {
  std::string e = error_of([] {
    set_llvm_switches({{"opforge-no-such-switch", "true", "false"}});
  });
  EXPECT_NE(e.find("-opforge-no-such-switch"), std::string::npos) << e;
  e = error_of([] { llvm_switch_value("opforge-no-such-switch"); });
  EXPECT_NE(e.find("-opforge-no-such-switch"), std::string::npos) << e;
}

TEST(LlvmOptions, AValueTheOptionDoesNotTakeIsAnErrorNamingIt) {
  std::string e = error_of([] { set_llvm_switches({{"instcombine-max-iterations", "many", ""}}); });
  EXPECT_NE(e.find("-instcombine-max-iterations"), std::string::npos) << e;
  EXPECT_NE(e.find("'many'"), std::string::npos) << e;
  e = error_of([] { set_llvm_switches({{"disable-lsr", "perhaps", ""}}); });
  EXPECT_NE(e.find("-disable-lsr"), std::string::npos) << e;
  EXPECT_EQ(llvm_switch_value("disable-lsr"), "false");
}

// The switches leave the code of these kernels (the bench kernels' kinds)
// byte-identical; -instcombine-max-iterations=1 changes a few test kernels'
// code, so a difference here means the simulated cycles need a new
// comparison (docs/compiler/compile_time.md).
TEST(LlvmOptions, SwitchesLeaveTheBenchKernelsObjectsByteIdentical) {
  TargetOptions t;
  std::vector<std::vector<uint8_t>> with, without;
  std::vector<std::string> irs;
  for (const Case &c : kCases) irs.push_back(llir(c));
  for (const std::string &ir : irs) with.push_back(llvm_ir_to_object(ir, t));
  set_llvm_switches(llvm_defaults(llvm_codegen_switches()));
  for (const LlvmSwitch &sw : llvm_codegen_switches())
    EXPECT_EQ(llvm_switch_value(sw.name), sw.default_value);
  for (const std::string &ir : irs) without.push_back(llvm_ir_to_object(ir, t));
  set_llvm_switches(llvm_codegen_switches());
  for (size_t i = 0; i < kCases.size(); ++i) {
    SCOPED_TRACE(kCases[i].file);
    ASSERT_GT(with[i].size(), 64u);
    EXPECT_TRUE(with[i] == without[i]) << with[i].size() << " vs " << without[i].size() << " bytes";
  }
}

// Code-generation switches are read when the pass manager is built; the
// reused one is rebuilt after set_llvm_switches(), so a switch set between
// compiles takes effect (without it the comparison above would compare the
// middle end's switch only).
TEST(LlvmOptions, ASwitchSetBetweenCompilesTakesEffectInTheReusedPassManager) {
  TargetOptions t;
  std::string ir = llir(kCases[3]);  // bf16 matmul: block placement moves its blocks
  std::vector<uint8_t> placed = llvm_ir_to_object(ir, t);
  set_llvm_switches({{"disable-block-placement", "true", "false"}});
  std::vector<uint8_t> unplaced = llvm_ir_to_object(ir, t);
  set_llvm_switches({{"disable-block-placement", "false", "false"}});
  std::vector<uint8_t> placed_again = llvm_ir_to_object(ir, t);
  ASSERT_GT(placed.size(), 64u);
  ASSERT_GT(unplaced.size(), 64u);
  EXPECT_TRUE(placed != unplaced);
  EXPECT_TRUE(placed == placed_again);
}

TEST(LlvmOptions, ReusedPassManagerGivesTheSameObjectsAsOneBuiltPerCompile) {
  TargetOptions t;
  std::vector<std::string> irs;
  for (const Case &c : kCases) irs.push_back(llir(c));
  // Each kernel twice, interleaved with the others, through the reused
  // pass manager; then through one built per compile.
  std::vector<std::vector<uint8_t>> reused, fresh;
  for (int round = 0; round < 2; ++round)
    for (const std::string &ir : irs) reused.push_back(llvm_ir_to_object(ir, t));
  set_llvm_codegen_pm_reuse(false);
  for (const std::string &ir : irs) fresh.push_back(llvm_ir_to_object(ir, t));
  set_llvm_codegen_pm_reuse(true);
  for (size_t i = 0; i < kCases.size(); ++i) {
    SCOPED_TRACE(kCases[i].file);
    ASSERT_GT(fresh[i].size(), 64u);
    EXPECT_TRUE(reused[i] == fresh[i]);
    EXPECT_TRUE(reused[i + kCases.size()] == fresh[i]);
  }
}

// The backend replaces its LLVMContext every 256 compiles; the reused pass
// manager must keep giving the same bytes across that.
TEST(LlvmOptions, ReusedPassManagerOutlivesTheLlvmContextReplacement) {
  const std::string ir = R"(define void @_start(ptr %args) nounwind {
entry:
  %n = load i64, ptr %args
  %px = getelementptr i8, ptr %args, i64 8
  %x = load ptr, ptr %px
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %p
  %w = fmul float %v, 2.0
  store float %w, ptr %p
  %i1 = add nsw i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";
  TargetOptions t;
  std::vector<uint8_t> first = llvm_ir_to_object(ir, t);
  ASSERT_GT(first.size(), 64u);
  int differing = 0;
  for (int i = 0; i < 300; ++i) differing += llvm_ir_to_object(ir, t) != first;
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace opforge::compiler
