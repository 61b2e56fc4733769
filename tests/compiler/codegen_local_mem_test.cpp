//===- codegen_local_mem_test.cpp - the stack a kernel needs; spill planning ===//
#include <gtest/gtest.h>

#include <string>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

// _start's frame plus its deepest callee's, from .stack_sizes and the calls.
TEST(CodegenLocalMem, StackBytesAreTheEntryFramePlusTheDeepestCallChain) {
  // Each alloca escapes (to @sink, defined nowhere: no frame of its own) so
  // that it stays whole.
  const std::string ir = R"(
declare void @sink(ptr)
define void @leaf(ptr %p) noinline {
  %b = alloca [5000 x i8], align 16
  call void @sink(ptr %b)
  ret void
}
define void @shallow(ptr %p) noinline {
  %c = alloca [200 x i8], align 16
  call void @sink(ptr %c)
  ret void
}
define void @_start(ptr %args) {
  %a = alloca [100000 x i8], align 16
  call void @sink(ptr %a)
  call void @leaf(ptr %a)
  call void @shallow(ptr %a)
  ret void
}
)";
  TargetOptions t;
  const std::vector<uint8_t> obj = llvm_ir_to_object(ir, t);
  const int64_t need = object_stack_bytes(obj, t);
  EXPECT_GE(need, 105000);
  EXPECT_LT(need, 105000 + 256);  // the frames' own rounding and saved registers only
  const int64_t leaf = object_stack_bytes(obj, t, "leaf");
  EXPECT_GE(leaf, 5000);
  EXPECT_LT(leaf, 5000 + 64);
  EXPECT_LT(object_stack_bytes(obj, t, "shallow"), 1000);
}

CompileState softmax_lowered(uint64_t local_mem) {
  register_codegen_stages();
  CompileOptions o;
  o.kernel = "softmax_rows_kernel";
  add_signature(o.spec, "x_ptr=*fp32,out_ptr=*fp32,n_cols=i32");
  add_constexpr(o.spec, "BLOCK_SIZE=65536");
  o.target.local_mem_bytes = local_mem;
  return compile_file(std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten/_softmax.py", o,
                      "lowered");
}

// 65536-wide rows: three 256 KiB buffers (the load's, exp's, the store's).
TEST(CodegenLocalMem, TheLoweredDumpReportsTheMeasuredStackAndTheSpilledBuffers) {
  CompileState s = softmax_lowered(384 * 1024);
  const std::string dump = dump_stage(s, "lowered");
  EXPECT_NE(dump.find("bytes measured in the object, of 393216 (pe.local_mem.size_bytes)"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("spilled: "), std::string::npos) << dump;
  EXPECT_NE(dump.find("262144 bytes: buffer of 'tt.store' at "), std::string::npos) << dump;
  const auto warnings = compile_warnings(s);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("kernel softmax_rows_kernel (BLOCK_SIZE=65536): block buffers need "),
            std::string::npos)
      << warnings[0];
  // Without a target chip nothing is measured or moved.
  CompileState u = softmax_lowered(0);
  EXPECT_EQ(dump_stage(u, "lowered").find("spilled"), std::string::npos);
  EXPECT_TRUE(compile_warnings(u).empty());
}

}  // namespace
}  // namespace opforge::compiler
