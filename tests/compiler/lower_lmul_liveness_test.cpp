//===- lower_lmul_liveness_test.cpp - LMUL from the values a strip keeps live together ===//
#include <gtest/gtest.h>

#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

int lmul_of(const std::string &kernel_file, const std::string &kernel, const std::string &sig) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  o.kernel = kernel;
  add_signature(o.spec, sig);
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  auto s = compile_file(kernels() + kernel_file, o, "llir");
  std::string ir = dump_stage(s, "llir");
  std::string key = std::string("!\"") + kLmulFlag + "\", i32 ";
  size_t at = ir.find(key);
  if (at == std::string::npos) return 0;
  return std::stoi(ir.substr(at + key.size()));
}

TEST(LowerLmulLiveness, ChainOfElementOpsKeepsFewValuesLiveAndGetsLmul8) {
  // y = (x - mean) * rstd * w + b: seven values in the store loop, but each
  // dies into the next; the variance's level 0 likewise. Register groups of 8.
  EXPECT_EQ(lmul_of("layer_norm.py", "_layer_norm_fwd_rows",
                    "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,"
                    "eps=fp32"),
            8);
}

TEST(LowerLmulLiveness, TwoOperandReductionKeepsItsValuesLiveAndStaysAtLmul4) {
  // argmax's level 0 holds both halves' values and indices until the
  // combine region reads them: four groups, m4 (m8 spills).
  EXPECT_EQ(lmul_of("argmax.py", "argmax_rows_kernel",
                    "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32"),
            4);
}

}  // namespace
}  // namespace opforge::compiler
