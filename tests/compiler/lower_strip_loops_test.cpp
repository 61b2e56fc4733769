//===- lower_strip_loops_test.cpp - carried affine pointers, tree reductions, LMUL by pressure ===//
#include <gtest/gtest.h>

#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions options(const std::string &signature, std::vector<std::string> constexprs) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, signature);
  for (auto &c : constexprs) add_constexpr(o.spec, c);
  return o;
}

CompileOptions matmul_bf16() {
  return options(
      "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
      "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32",
      {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"});
}

// The LMUL flag the llir stage gave the module.
int lmul_of(const std::string &ir) {
  std::string key = std::string("!\"") + kLmulFlag + "\", i32 ";
  size_t at = ir.find(key);
  if (at == std::string::npos) return 0;
  return std::stoi(ir.substr(at + key.size()));
}

TEST(LowerStripLoops, LmulFollowsTheLiveVectorCount) {
  EXPECT_EQ(vector_lmul(0), 8);
  EXPECT_EQ(vector_lmul(3), 8);
  EXPECT_EQ(vector_lmul(4), 4);
  EXPECT_EQ(vector_lmul(7), 4);
  EXPECT_EQ(vector_lmul(8), 2);
  EXPECT_EQ(vector_lmul(15), 2);
  EXPECT_EQ(vector_lmul(16), 1);
}

TEST(LowerStripLoops, VectorAddGetsLmul8AndLlvmUsesIt) {
  register_codegen_stages();
  auto s =
      compile_file(kernels() + "vector_add.py",
                   options("x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
                           {"BLOCK_SIZE=1024"}),
                   "asm");
  // In the store loop y dies into alpha * y, x and alpha * y into the sum:
  // at most three values live at once, m8.
  EXPECT_EQ(lmul_of(dump_stage(s, "llir")), 8);
  std::string asm_text = dump_stage(s, "asm");
  EXPECT_NE(asm_text.find("e32, m8"), std::string::npos) << asm_text;
}

TEST(LowerStripLoops, MatmulPointerBlocksAreCarriedAsOneAddressEach) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py", matmul_bf16(), "llir");
  std::string plan = dump_stage(s, "lowered");
  // a_ptrs and b_ptrs: loop results carried as element 0, no 64x64 pointer buffers.
  size_t first = plan.find("affine, carried as its element 0");
  ASSERT_NE(first, std::string::npos) << plan;
  EXPECT_NE(plan.find("affine, carried as its element 0", first + 1), std::string::npos) << plan;
  EXPECT_EQ(plan.find("x!tt.ptr<bf16>>: buffer"), std::string::npos) << plan;
  // No pointer-sized buffer of 4096 elements is allocated in the emitted IR.
  std::string ir = dump_stage(s, "llir");
  EXPECT_EQ(ir.find("alloca ptr, i64 4096"), std::string::npos);
}

TEST(LowerStripLoops, RowMaskOfAnArangeIsCheckedAtItsEndsNotPerElement) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "fused_softmax.py",
                        options("output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_"
                                "stride=i32,n_rows=i32,n_cols=i32",
                                {"BLOCK_SIZE=1024"}),
                        "llir");
  std::string ir = dump_stage(s, "llir");
  // col_offsets < n_cols: columns 0 and 1023 are compared (with a no-wrap
  // check in i64), and no i1 accumulator slot walks the 1024 mask elements.
  EXPECT_NE(ir.find("sext i32"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("alloca i1"), std::string::npos) << ir;
}

TEST(LowerStripLoops, ReductionsRunAsALoopOverTreeLevels) {
  register_codegen_stages();
  auto s = compile_file(
      kernels() + "argmax.py",
      options("x_ptr=*fp32,out_ptr=*i64,n_cols=i32,row_stride=i32", {"BLOCK_SIZE=1024"}), "llir");
  std::string ir = dump_stage(s, "llir");
  // Level 0 halves 1024 into 512 temporaries (value and index); the later
  // levels halve a run-time length (lshr) in one loop.
  EXPECT_NE(ir.find("alloca float, i64 512"), std::string::npos) << ir;
  EXPECT_NE(ir.find("alloca i32, i64 512"), std::string::npos) << ir;
  EXPECT_NE(ir.find("lshr i64"), std::string::npos) << ir;
}

}  // namespace
}  // namespace opforge::compiler
