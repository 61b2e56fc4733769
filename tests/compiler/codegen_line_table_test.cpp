//===- codegen_line_table_test.cpp - Triton source lines of a kernel's code ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

struct Case {
  const char *file, *kernel, *signature;
  std::vector<std::string> constexprs;
};

const char *kMatmul =
    "M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,"
    "stride_cn=i32";

// The bench kernels (bench/compile/bench_compile_binary.cpp), and math_fn's
// asin (constants in .sdata).
const std::vector<Case> kBenchCases = {
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
    {"argmax.py",
     "argmax_rows_kernel",
     "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32",
     {"BLOCK_SIZE=1024"}},
    {"matmul.py",
     "",
     "a_ptr=*fp32,b_ptr=*fp32,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=4"}},
    {"matmul.py",
     "",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
    {"matmul.py",
     "",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
    {"math_fn.py", "", "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32", {"FN=\"asin\"", "BLOCK=256"}},
};

struct Compiled {
  CompileState state;  // owns the function the plan points into
  LoweredKernelPlan plan;
  std::string spec_key;
  int def_line = 0;
};

Compiled plan_case(const Case &c) {
  register_codegen_stages();
  CompileOptions o;
  o.kernel = c.kernel;
  o.knobs = Knobs{};
  std::string sig = c.signature;
  if (sig.back() == ',') sig += kMatmul;
  add_signature(o.spec, sig);
  for (auto &ce : c.constexprs) add_constexpr(o.spec, ce);
  Compiled r;
  r.state = compile_file(kernels() + c.file, o, "opt");
  const ttir::Function &f = *r.state.opt->find(r.state.kernel);
  r.plan = plan_kernel(f, o.target);
  r.spec_key = o.spec.key();
  r.def_line = f.loc.line;
  return r;
}

KernelBinary link(const Compiled &k, bool line_table) {
  TargetOptions t;
  return link_kernel_object(llvm_ir_to_object(emit_llvm_ir(k.plan, line_table), t), k.plan,
                            k.spec_key, t);
}

int lines_in(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  return static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
}

// Debug info must not change code generation: the executables (code, data,
// symbols, metadata; the linker leaves .debug_* out) are byte for byte the same.
TEST(CodegenLineTable, TheLineTableLeavesTheCodeUnchanged) {
  for (const Case &c : kBenchCases) {
    SCOPED_TRACE(std::string(c.file) + " " + c.signature + " " + c.constexprs[0]);
    Compiled k = plan_case(c);
    KernelBinary with = link(k, true), without = link(k, false);
    EXPECT_FALSE(with.lines.empty());
    EXPECT_TRUE(without.lines.empty());
    EXPECT_EQ(with.entry, without.entry);
    EXPECT_TRUE(with.elf == without.elf)
        << with.elf.size() << " vs " << without.elf.size() << " ELF bytes";
  }
}

TEST(CodegenLineTable, AKernelsLinesLieWithinItsSourceAndCoverItsCode) {
  for (const Case &c : {kBenchCases[0], kBenchCases[5]}) {
    SCOPED_TRACE(c.file);
    Compiled k = plan_case(c);
    KernelBinary b = link(k, true);
    ASSERT_FALSE(b.lines.empty());
    ASSERT_EQ(b.source_files.size(), 1u);
    EXPECT_EQ(b.source_files[0], c.file);  // as the front end's locations name it
    EXPECT_LT(b.code_begin, b.code_end);
    EXPECT_EQ(b.code_begin, b.text_base);
    const int last = lines_in(kernels() + c.file);
    std::set<uint32_t> seen;
    for (const SourceLine &l : b.lines) {
      EXPECT_GE(l.pc, b.code_begin);
      EXPECT_LE(l.pc, b.code_end);
      if (!l.line) continue;
      EXPECT_GE(static_cast<int>(l.line), k.def_line);
      EXPECT_LE(static_cast<int>(l.line), last);
      seen.insert(l.line);
    }
    EXPECT_GT(seen.size(), 2u) << "the kernel's statements have lines of their own";
    // The entry is the argument block's DMA: the def line.
    ASSERT_NE(b.line_at(b.entry), nullptr);
    EXPECT_EQ(static_cast<int>(b.line_at(b.entry)->line), k.def_line);
    EXPECT_EQ(b.line_at(b.code_begin - 4), nullptr);
    EXPECT_EQ(b.line_at(b.code_end), nullptr);
  }
}

}  // namespace
}  // namespace opforge::compiler
