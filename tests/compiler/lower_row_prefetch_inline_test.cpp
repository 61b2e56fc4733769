//===- lower_row_prefetch_inline_test.cpp - prefetched rows issued in the row loop ===//
#include <gtest/gtest.h>

#include "ir_text.h"
#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

TEST(LowerRowPrefetchInline, WholeRowsAreIssuedInTheKernelNotThroughTheDmaRoutine) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  o.kernel = "_layer_norm_fwd_rows";
  add_signature(o.spec,
                "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,"
                "eps=fp32");
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  auto s = compile_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/layer_norm.py",
                        o, "llir");
  std::string ir = dump_stage(s, "llir");
  size_t begin = ir.find("define void @_start");
  ASSERT_NE(begin, std::string::npos) << ir;
  std::string kernel = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  // xmtia.dma issued in the kernel itself: at least the argument block, the
  // weights' and biases' blocks, and in the loop the ring slot's transfer
  // when a row was not prefetched (the first row too) and for the next row
  // (every whole contiguous row is issued inline; partial rows and strided
  // forms are calls of the runtime library's row routine).
  const std::string issue = "\"r,r,~{memory}\"(ptr";
  EXPECT_GE(count(kernel, issue), 4u) << kernel;
  EXPECT_GE(count(kernel, "call void @__opforge_rt_row("), 1u) << kernel;
  EXPECT_EQ(count(kernel, "call void @__opforge_rt_dma_tile"), 0u) << kernel;
}

}  // namespace
}  // namespace opforge::compiler
