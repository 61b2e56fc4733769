//===- codegen_llir_records_test.cpp - the emitter's structured record of its IR (llir_ir.h) ===//
//
// The facts later steps read from the instruction records, never from the
// text: cold regions (outlined by the backend), the helpers the code calls,
// and the text itself printed from the records.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llir_ir.h"

namespace opforge::compiler {
namespace {

using llir::InstRole;

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

struct Planned {
  CompileState state;  // owns the function the plan points into
  LoweredKernelPlan plan;
  std::string spec_key;
};

Planned plan_of(const std::string &file, const std::string &kernel, const std::string &signature,
                const std::vector<std::string> &constexprs) {
  register_codegen_stages();
  CompileOptions o;
  o.kernel = kernel;
  add_signature(o.spec, signature);
  for (auto &c : constexprs) add_constexpr(o.spec, c);
  Planned p;
  p.state = compile_file(kernels() + file, o, "opt");
  p.plan = plan_kernel(*p.state.opt->find(p.state.kernel), o.target);
  p.spec_key = o.spec.key();
  return p;
}

// A rectangle-masked load and store: each has a cold element path (llir_cold.cpp).
Planned window_copy() {
  return plan_of("rect_masks.py", "window_copy",
                 "x_ptr=*fp32,y_ptr=*fp32,n=i32,lo=i32,hi=i32,other=fp32", {"BLOCK=64"});
}

TEST(LlirRecords, ABodyPrintsItsBlocksAndCutsBackToAMark) {
  llir::IrBody body;
  body.add({"%t0", "add i64 1, 2", 7});
  const llir::IrBody::Mark m = body.mark();
  body.add({"", "br label %L0"});
  body.start("L0");
  body.add({"%t1", "call float @h(float 1.0)", 0, InstRole::Plain, "h"});
  EXPECT_TRUE(body.calls("h"));
  body.cut(m);
  EXPECT_FALSE(body.calls("h"));
  ASSERT_EQ(body.block_count(), 1u);
  body.add({"", "br label %L1", 0, InstRole::ColdEntry, "__opforge_cold_0"});
  body.start("L1");
  body.add({"", "br label %L2", 3, InstRole::ColdExit});
  std::string text;
  body.print(text);
  EXPECT_EQ(text,
            "body:\n  %t0 = add i64 1, 2, !dbg !7\n"
            "  br label %L1, !opforge.cold !{!\"__opforge_cold_0\"}\n"
            "L1:\n  br label %L2, !opforge.cold.end !{}, !dbg !3\n");
}

TEST(LlirRecords, ColdPathsAreRecordedAsRegionsBetweenTheirMarkedBranches) {
  Planned p = window_copy();
  LlirModule m = emit_llvm_module(p.plan);
  ASSERT_GE(m.cold_regions.size(), 1u);
  const auto &blocks = m.body.blocks();
  for (size_t i = 0; i < m.cold_regions.size(); ++i) {
    const llir::ColdRegion &r = m.cold_regions[i];
    SCOPED_TRACE(r.function);
    EXPECT_EQ(r.function, "__opforge_cold_" + std::to_string(i));
    ASSERT_GT(r.first_block, 0u);
    ASSERT_LE(r.first_block, r.last_block);
    ASSERT_LT(r.last_block + 1, blocks.size());
    const llir::Inst &into = blocks[r.first_block - 1].insts.back();
    EXPECT_EQ(into.role, InstRole::ColdEntry);
    EXPECT_EQ(into.callee, r.function);
    EXPECT_EQ(into.text, "br label %" + blocks[r.first_block].label);
    const llir::Inst &out = blocks[r.last_block].insts.back();
    EXPECT_EQ(out.role, InstRole::ColdExit);
    EXPECT_EQ(out.text, "br label %" + blocks[r.last_block + 1].label);
    // Nothing inside is marked: regions do not nest.
    for (size_t b = r.first_block; b <= r.last_block; ++b)
      for (size_t k = 0; k < blocks[b].insts.size(); ++k) {
        if (b != r.last_block || k + 1 != blocks[b].insts.size()) {
          EXPECT_EQ(blocks[b].insts[k].role, InstRole::Plain);
        }
      }
    EXPECT_NE(m.text.find("!opforge.cold !{!\"" + r.function + "\"}"), std::string::npos);
  }
  // The text is the records printed.
  std::string body;
  m.body.print(body);
  EXPECT_NE(m.text.find(body), std::string::npos);
  for (const llir::Inst &a : m.allocas) {
    std::string line;
    a.print(line);
    EXPECT_NE(m.text.find(line), std::string::npos) << line;
  }
}

TEST(LlirRecords, TheBackendOutlinesEachColdRegionIntoItsFunction) {
  Planned p = window_copy();
  LlirModule m = emit_llvm_module(p.plan);
  ASSERT_FALSE(m.cold_regions.empty());
  const std::string s = llvm_ir_to_asm(m.text, TargetOptions{});
  for (const llir::ColdRegion &r : m.cold_regions) {
    EXPECT_NE(s.find(r.function + ":"), std::string::npos) << r.function << "\n" << s;
    EXPECT_NE(s.find("call\t" + r.function), std::string::npos) << r.function;
  }
  EXPECT_EQ(s.find("opforge.cold"), std::string::npos);
}

// The outlined functions' lines (their own subprograms) lie in the kernel's
// source, and the line table still leaves the code unchanged.
TEST(LlirRecords, OutlinedColdPathsKeepTheirSourceLines) {
  Planned p = window_copy();
  TargetOptions t;
  KernelBinary with =
      link_kernel_object(llvm_ir_to_object(emit_llvm_ir(p.plan, true), t), p.plan, p.spec_key, t);
  KernelBinary without =
      link_kernel_object(llvm_ir_to_object(emit_llvm_ir(p.plan, false), t), p.plan, p.spec_key, t);
  ASSERT_FALSE(with.lines.empty());
  EXPECT_TRUE(with.elf == without.elf);
  for (const SourceLine &l : with.lines)
    if (l.line) {
      // rect_masks.py: from the kernel's decorator to the line its end is
      // located at (the next kernel's decorator, as before outlining moved).
      EXPECT_GE(l.line, 9u);
      EXPECT_LE(l.line, 18u);
    }
}

// The asm of function `name` in `s`, its block labels numbered from 0.
std::string function_asm(const std::string &s, const std::string &name) {
  const size_t at = s.find(name + ":\n");
  if (at == std::string::npos) return "";
  std::string f = s.substr(at, s.find(".Lfunc_end", at) - at);
  std::string out;
  for (size_t i = 0; i < f.size();) {
    if (f.compare(i, 4, ".LBB") == 0) {
      out += ".LBB";
      i += 4;
      while (i < f.size() && f[i] != '_') ++i;  // the function's number
      continue;
    }
    out += f[i++];
  }
  return out;
}

// A cold region whose free values are first used in the order %t2, %t10,
// %p outlines into the function the emitter wrote itself before the
// backend outlined (e1adba9): parameters in the order of the names (%p,
// %t10, %t2), an entry block, the region, a return at its end.
TEST(LlirRecords, AnOutlinedColdFunctionCompilesAsTheOneTheEmitterWroteBefore) {
  const std::string head =
      "define void @_start(ptr %args) nounwind \"no-builtins\" {\n"
      "body:\n"
      "  %t2 = load i64, ptr %args\n"
      "  %p = getelementptr i64, ptr %args, i64 1\n"
      "  %t10 = load i64, ptr %p\n"
      "  %c = icmp eq i64 %t2, 0\n"
      "  br i1 %c, label %L0, label %L2\n"
      "L0:\n";
  const std::string region =
      "  %s = mul i64 %t2, %t10\n"
      "  %q = getelementptr i64, ptr %p, i64 1\n"
      "  store i64 %s, ptr %q\n";
  const std::string marked = head +
                             "  br label %L1, !opforge.cold !{!\"__opforge_cold_0\"}\n"
                             "L1:\n" +
                             region +
                             "  br label %L2, !opforge.cold.end !{}\n"
                             "L2:\n  ret void\n}\n";
  const std::string written =
      head +
      "  call void @__opforge_cold_0(ptr %p, i64 %t10, i64 %t2)\n"
      "  br label %L2\n"
      "L2:\n  ret void\n}\n"
      "define internal void @__opforge_cold_0(ptr %p, i64 %t10, i64 %t2) noinline optnone "
      "nounwind \"no-builtins\" {\nentry:\n  br label %cold\ncold:\n" +
      region + "  ret void\n}\n";
  const std::string a = llvm_ir_to_asm(marked, TargetOptions{});
  const std::string b = llvm_ir_to_asm(written, TargetOptions{});
  ASSERT_FALSE(function_asm(b, "__opforge_cold_0").empty()) << b;
  EXPECT_EQ(function_asm(a, "__opforge_cold_0"), function_asm(b, "__opforge_cold_0"));
  EXPECT_EQ(function_asm(a, "_start"), function_asm(b, "_start"));
}

TEST(LlirRecords, TheFp16HelpersAreAppendedOnlyWhereTheCodeCallsThem) {
  Planned half = plan_of("vector_add.py", "",
                         "x_ptr=*fp16,y_ptr=*fp16,output_ptr=*fp16,n_elements=i32,alpha=fp32",
                         {"BLOCK_SIZE=1024"});
  LlirModule h = emit_llvm_module(half.plan);
  EXPECT_FALSE(h.helpers.empty());
  for (const std::string &name : h.helpers) {
    EXPECT_TRUE(h.body.calls(name)) << name;
    EXPECT_NE(h.text.find("define internal i16 @__opforge_f32_to_f16"), std::string::npos);
  }
  Planned single = plan_of("vector_add.py", "",
                           "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
                           {"BLOCK_SIZE=1024"});
  LlirModule s = emit_llvm_module(single.plan);
  EXPECT_TRUE(s.helpers.empty());
  EXPECT_EQ(s.text.find("__opforge_f16_to_f32"), std::string::npos);
}

}  // namespace
}  // namespace opforge::compiler
