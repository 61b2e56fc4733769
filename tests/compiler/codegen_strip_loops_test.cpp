//===- codegen_strip_loops_test.cpp - element loops emitted as RVV strip loops (llir) ===//
#include <gtest/gtest.h>

#include <memory>
#include <regex>

#include "ir_text.h"
#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions options(const std::string &kernel, const std::string &signature,
                       std::vector<std::string> constexprs) {
  CompileOptions o;
  o.knobs = Knobs{};
  o.kernel = kernel;
  add_signature(o.spec, signature);
  for (auto &c : constexprs) add_constexpr(o.spec, c);
  return o;
}

std::string vector_add_signature(const std::string &ty) {
  return "x_ptr=*" + ty + ",y_ptr=*" + ty + ",output_ptr=*" + ty + ",n_elements=i32,alpha=fp32";
}

// The llir stage's text without the instructions' line-table suffixes
// (", !dbg !N"): these tests match instructions up to the end of the line.
std::string llir_text(const CompileState &s) {
  static const std::regex dbg(", !dbg ![0-9]+");
  return std::regex_replace(dump_stage(s, "llir"), dbg, "");
}

// The bodies of the strip loops in `ir`: each from the block label in front
// of its vsetvli to the branch back to the loop head.
std::vector<std::string> strip_bodies(const std::string &ir) {
  const std::string vsetvli = "call i64 @llvm.riscv.vsetvli.i64(";
  std::vector<std::string> bodies;
  for (size_t at = ir.find(vsetvli); at != std::string::npos; at = ir.find(vsetvli, at + 1)) {
    size_t from = ir.rfind("\nL", at);
    size_t to = ir.find("\n  br label %", at);
    if (from == std::string::npos || to == std::string::npos) continue;
    bodies.push_back(ir.substr(from, to - from));
  }
  return bodies;
}

// The strip loop bodies whose vsetvli asks for `hi` minus the index (a loop
// up to the constant `hi`).
std::vector<std::string> strips_up_to(const std::string &ir, int64_t hi) {
  std::vector<std::string> r;
  for (auto &b : strip_bodies(ir))
    if (b.find("= sub i64 " + std::to_string(hi) + ", %") != std::string::npos) r.push_back(b);
  return r;
}

// The lines of `ir` containing `what`.
std::vector<std::string> lines_with(const std::string &ir, const std::string &what) {
  std::vector<std::string> r;
  for (size_t at = ir.find(what); at != std::string::npos; at = ir.find(what, at + 1)) {
    size_t bol = ir.rfind('\n', at), eol = ir.find('\n', at);
    bol = bol == std::string::npos ? 0 : bol + 1;
    r.push_back(ir.substr(bol, eol == std::string::npos ? std::string::npos : eol - bol));
  }
  return r;
}

bool ends_with(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Whether some line of `ir` contains `op` and ends with `tail`.
bool has_line(const std::string &ir, const std::string &op, const std::string &tail) {
  for (auto &l : lines_with(ir, op))
    if (ends_with(l, tail)) return true;
  return false;
}

TEST(CodegenStripLoops, Fp32VectorAddIsOneStripLoopWithNoScalarArithmetic) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py",
                        options("", vector_add_signature("fp32"), {"BLOCK_SIZE=1024"}), "llir");
  std::string ir = llir_text(s);
  // x + alpha * y over the block: vector loads of x and y, alpha splat,
  // vp.fmul and vp.fadd at vl, one vector store; e32 at LMUL 8.
  std::vector<std::string> compute;
  for (auto &b : strips_up_to(ir, 1024))
    if (b.find("@llvm.vp.fadd.") != std::string::npos) compute.push_back(b);
  ASSERT_EQ(compute.size(), 1u) << ir;
  const std::string &b = compute[0];
  EXPECT_EQ(count(b, "@llvm.vp.load.nxv16f32.p0("), 2u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fmul.nxv16f32("), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fadd.nxv16f32("), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.store.nxv16f32.p0("), 1u) << b;
  EXPECT_NE(b.find("i64 2, i64 3)"), std::string::npos) << b;  // e32, m8
  // No scalar element loop is left for LLVM's vectorizer.
  EXPECT_EQ(count(ir, "fadd float"), 0u) << ir;
  EXPECT_EQ(count(ir, "fmul float"), 0u) << ir;
}

TEST(CodegenStripLoops, Bf16VectorAddKeepsTheScalarElementLoopAndCompiles) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py",
                        options("", vector_add_signature("bf16"), {"BLOCK_SIZE=1024"}), "bin");
  std::string ir = llir_text(s);
  // bf16 arithmetic has no strip form: the element loop computes in scalar
  // float (bf16 widened by zext/shl, rounded back) and no partial vector
  // code of the abandoned attempt is left behind.
  EXPECT_EQ(count(ir, "@llvm.vp.fadd."), 0u) << ir;
  EXPECT_EQ(count(ir, "@llvm.vp.fmul."), 0u) << ir;
  EXPECT_EQ(count(ir, "@llvm.vp.load."), 0u) << ir;
  EXPECT_EQ(count(ir, "fadd float"), 1u) << ir;
  EXPECT_EQ(count(ir, "fmul float"), 1u) << ir;
  for (auto &b : strip_bodies(ir)) EXPECT_EQ(count(b, "fadd float"), 0u) << b;
  const auto &bin = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
  EXPECT_FALSE(bin.elf.empty());
}

TEST(CodegenStripLoops, MatmulZerosAccumulatorIsFilledByOneStripLoop) {
  register_codegen_stages();
  CompileOptions o =
      options("",
              "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
              "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32",
              {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"});
  auto s = compile_file(kernels() + "matmul.py", o, "llir");
  std::string ir = llir_text(s);
  // tl.zeros((64, 64)): one strip loop over the 4096 elements storing a
  // splat of 0.0, not a 64 x 64 loop nest of scalar stores.
  std::vector<std::string> fills = strips_up_to(ir, 4096);
  ASSERT_EQ(fills.size(), 1u) << ir;
  const std::string &b = fills[0];
  EXPECT_NE(b.find("insertelement <vscale x 16 x float> poison, float 0x0000000000000000"),
            std::string::npos)
      << b;
  EXPECT_EQ(count(b, "@llvm.vp.store.nxv16f32.p0("), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.load."), 0u) << b;
  EXPECT_EQ(count(b, "br i1"), 0u) << b;  // no inner loop
  EXPECT_EQ(count(ir, "store float 0x0000000000000000"), 0u) << ir;
}

TEST(CodegenStripLoops, LayerNormVarianceLevel0SelectsOnVectorsInBothHalves) {
  register_codegen_stages();
  auto s = compile_file(
      kernels() + "layer_norm.py",
      options("_layer_norm_fwd_rows",
              "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,"
              "eps=fp32",
              {"BLOCK_SIZE=1024"}),
      "llir");
  std::string ir = llir_text(s);
  // tl.sum(xc * xc) of xc = tl.where(mask, x - mean, 0.): the general
  // version of level 0 (up to 512) reads both halves (k and k + 512) in one
  // strip: column indices from stepvector, the mask by vp.icmp, one
  // vp.select per half, the halves combined by vp.fadd into the 512-element
  // temporary.
  std::vector<std::string> selecting;
  for (auto &b : strips_up_to(ir, 512))
    if (b.find("@llvm.vp.select.") != std::string::npos) selecting.push_back(b);
  ASSERT_EQ(selecting.size(), 1u) << ir;
  const std::string &b = selecting[0];
  EXPECT_EQ(count(b, "@llvm.vp.select.nxv16f32("), 2u) << b;
  EXPECT_EQ(count(b, "@llvm.experimental.stepvector."), 2u) << b;
  EXPECT_EQ(count(b, "metadata !\"slt\""), 2u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fsub.nxv16f32("), 2u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fmul.nxv16f32("), 2u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fadd.nxv16f32("), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.store.nxv16f32.p0("), 1u) << b;
  EXPECT_NE(b.find(", 512\n"), std::string::npos) << b;  // the second half's index
  // No scalar select of a float is left in any strip.
  EXPECT_EQ(count(b, "select i1 %"), 0u) << b;
}

TEST(CodegenStripLoops, RowBroadcastAlongColumnsIsAScalarSplatInTheColumnStrip) {
  register_codegen_stages();
  auto s = compile_file(
      kernels() + "strip_ops.py",
      options("row_col_tile", "X=*fp32,Y=*fp32,O=*fp32,M=i32,N=i32", {"BLOCK_M=16", "BLOCK_N=32"}),
      "llir");
  std::string ir = llir_text(s);
  // x[:, None] + y[None, :] * 3 packed for the store: rows in a scalar
  // loop, columns in a strip; x[row] is loaded once as a scalar and splat,
  // y is the only vector load.
  std::vector<std::string> compute;
  for (auto &b : strips_up_to(ir, 32))
    if (b.find("@llvm.vp.fadd.") != std::string::npos) compute.push_back(b);
  ASSERT_EQ(compute.size(), 1u) << ir;
  const std::string &b = compute[0];
  EXPECT_EQ(count(b, "= load float, ptr"), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.load."), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.fmul."), 1u) << b;
  EXPECT_EQ(count(b, "@llvm.vp.store."), 1u) << b;
  EXPECT_NE(b.find("insertelement <vscale x"), std::string::npos) << b;
}

TEST(CodegenStripLoops, IntegerDivisionFallsBackToTheElementLoopWhole) {
  register_codegen_stages();
  auto with = [](const std::string &op) {
    auto s = compile_file(
        kernels() + "strip_ops.py",
        options("int_ops", "A=*i32,B=*i32,O=*i32,n=i32", {"OP='" + op + "'", "BLOCK=1024"}),
        "llir");
    return llir_text(s);
  };
  // a // (b | 1) + a * 3: the division has no strip form, so the whole
  // packing loop (its or, mul and add too) stays scalar.
  std::string ir = with("div_mul");
  EXPECT_GE(count(ir, "sdiv i32"), 1u) << ir;
  EXPECT_TRUE(has_line(ir, "= or i32 %", ", 1")) << ir;   // b | 1
  EXPECT_TRUE(has_line(ir, "= mul i32 %", ", 3")) << ir;  // a * 3
  EXPECT_EQ(count(ir, "@llvm.vp.mul."), 0u) << ir;
  EXPECT_EQ(count(ir, "@llvm.vp.or."), 0u) << ir;
  EXPECT_EQ(count(ir, "@llvm.vp.load."), 0u) << ir;
  // The same body without the division is a strip loop.
  std::string add_mul = with("add_mul");
  EXPECT_GE(count(add_mul, "@llvm.vp.mul.nxv16i32("), 1u) << add_mul;
  // No scalar (a + b) * (a - 3): no product of two temporaries, no a - 3.
  for (auto &l : lines_with(add_mul, "= mul i32 %"))
    EXPECT_EQ(l.find(", %"), std::string::npos) << l;
  EXPECT_FALSE(has_line(add_mul, "= sub i32 %", ", 3")) << add_mul;
}

}  // namespace
}  // namespace opforge::compiler
