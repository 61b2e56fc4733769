//===- lower_row_prefetch_start_test.cpp - a prefetched loop's first row moves inside it ===//
#include <gtest/gtest.h>

#include <tuple>

#include "ir_text.h"
#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

// The kernel function's IR of a persistent-row kernel.
std::string kernel_ir(const std::string &file, const std::string &kernel,
                      const std::string &signature) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  o.kernel = kernel;
  add_signature(o.spec, signature);
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  auto s =
      compile_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/" + file, o, "llir");
  std::string ir = dump_stage(s, "llir");
  size_t begin = ir.find("define void @_start");
  if (begin == std::string::npos) return ir;
  return ir.substr(begin, ir.find("\n}\n", begin) - begin);
}

// Inline xmtia.dma issues whose tag is a run-time value: a ring slot's
// transfer (every other transfer of these kernels has a constant tag).
size_t ring_transfers(const std::string &ir) {
  const std::string issue = "\"r,r,~{memory}\"(ptr %";
  size_t n = 0;
  for (size_t at = ir.find(issue); at != std::string::npos; at = ir.find(issue, at + 1))
    if (ir.substr(at, ir.find('\n', at) - at).find(", i64 %") != std::string::npos) ++n;
  return n;
}

// With a ring of two, nothing is transferred before the loop: slot 0 starts
// not ready and the first iteration's own transfer (the path of a row that
// was not prefetched) fills it. Two copies of the transfer code remain, each
// with the whole-row issue and the partial tile's clamped issue: that path
// and the next row's prefetch (a copy before the loop made six issues).
TEST(LowerRowPrefetchStart, LayerNormFirstRowTakesTheNotPrefetchedPath) {
  std::string ir = kernel_ir(
      "layer_norm.py", "_layer_norm_fwd_rows",
      "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32");
  EXPECT_GE(ring_transfers(ir), 2u) << ir;
  EXPECT_LE(ring_transfers(ir), 4u) << ir;
  EXPECT_GE(count(ir, "store i8 0, ptr %a"), 1u) << ir;
}

TEST(LowerRowPrefetchStart, SoftmaxAndArgmaxFirstRowsTakeTheNotPrefetchedPath) {
  for (auto [file, kernel, signature] :
       {std::tuple<const char *, const char *, const char *>{
            "fused_softmax.py", "softmax_kernel",
            "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows="
            "i32,n_cols=i32"},
        {"argmax.py", "argmax_rows_kernel",
         "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32"}}) {
    std::string ir = kernel_ir(file, kernel, signature);
    EXPECT_GE(ring_transfers(ir), 2u) << kernel << "\n" << ir;
    EXPECT_LE(ring_transfers(ir), 4u) << kernel << "\n" << ir;
    EXPECT_GE(count(ir, "store i8 0, ptr %a"), 1u) << kernel << "\n" << ir;
  }
}

}  // namespace
}  // namespace opforge::compiler
