//===- lower_range_masks_test.cpp - element loops versioned on range masks proved all-true ===//
#include <gtest/gtest.h>

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

const char *kLayerNormSig =
    "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32";

TEST(LowerRangeMasks, LayerNormWhereOfTheRowMaskIsFoldedInTheAllActiveVersion) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "layer_norm.py",
                        options("_layer_norm_fwd_rows", kLayerNormSig, {"BLOCK_SIZE=1024"}), "asm");
  std::string ir = dump_stage(s, "llir");
  // tl.where(mask, x - mean, 0.) in the variance's level 0, which reads the
  // mask at k and k + 512: split where the second read stops holding, the
  // leading part with both reads true (a strip loop with no select: the
  // known mask picks x - mean), the rest in the general strip loop (one
  // vector select per half, on the compare of the column indices).
  EXPECT_EQ(count(ir, "select i1 true, float"), 0u) << ir;
  EXPECT_EQ(count(ir, "select i1 false, float"), 0u) << ir;
  EXPECT_EQ(count(ir, "= call <vscale x 16 x float> @llvm.vp.select."), 2u) << ir;
  EXPECT_GE(count(ir, "@llvm.vp.icmp.nxv16i32("), 2u) << ir;
  // The all-active version reaches RISC-V as an unmasked strip: x - mean
  // with no vector compare of column indices in front of it.
  std::string asm_text = dump_stage(s, "asm");
  size_t sub = asm_text.find("vfsub.vf");
  ASSERT_NE(sub, std::string::npos) << asm_text;
  bool unmasked_strip = false;
  for (size_t at = sub; at != std::string::npos; at = asm_text.find("vfsub.vf", at + 1)) {
    size_t eol = asm_text.find('\n', at);
    std::string insn = asm_text.substr(at, eol - at);
    size_t loop_head = asm_text.rfind(".LBB", at);
    std::string before = asm_text.substr(loop_head, at - loop_head);
    if (insn.find("v0.t") == std::string::npos && before.find("vmslt") == std::string::npos)
      unmasked_strip = true;
  }
  EXPECT_TRUE(unmasked_strip) << asm_text;
}

TEST(LowerRangeMasks, RangeMasksInReductionsAndScatterStoresAreVersioned) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "range_masks.py",
                        options("centered_rows", "X=*fp32,Y=*fp32,S=*fp32,n=i32", {"BLOCK=128"}),
                        "llir");
  std::string ir = dump_stage(s, "llir");
  // tl.where(mask, ...) in the sum's level 0 and in the scatter's value.
  EXPECT_GE(count(ir, "select i1 true, float"), 2u) << ir;
  // The masked scatter: in the all-active version its guard is the constant.
  EXPECT_GE(count(ir, "br i1 true,"), 1u) << ir;
}

TEST(LowerRangeMasks, TwoDimensionalMaskOfTwoRangesIsVersioned) {
  register_codegen_stages();
  auto s = compile_file(
      kernels() + "range_masks.py",
      options("tile_where", "X=*fp32,Y=*fp32,M=i32,N=i32", {"BLOCK_M=8", "BLOCK_N=32"}), "llir");
  std::string ir = dump_stage(s, "llir");
  // (rows[:, None] < M) & (cols[None, :] < N): both halves known true in
  // the all-active version (its level-0 loop reads the mask twice).
  EXPECT_EQ(count(ir, "and i1 true, true"), 2u) << ir;
}

TEST(LowerRangeMasks, DataDependentMaskKeepsOneGeneralLoop) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "range_masks.py",
                        options("positive_rows", "X=*fp32,S=*fp32,n=i32", {"BLOCK=128"}), "llir");
  std::string ir = dump_stage(s, "llir");
  // x > 0 is no range mask: no version with a constant mask (the level 0
  // is a strip loop comparing whole vectors).
  EXPECT_EQ(count(ir, "select i1 true"), 0u) << ir;
  EXPECT_GE(count(ir, "fcmp ogt float") + count(ir, "metadata !\"ogt\""), 1u) << ir;
}

}  // namespace
}  // namespace opforge::compiler
