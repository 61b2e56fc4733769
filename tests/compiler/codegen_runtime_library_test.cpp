//===- codegen_runtime_library_test.cpp - the runtime library linked into kernel binaries ===//
//
// Routines `__opforge_rt_*` are compiled once per process and linked into
// the kernels that call them: a masked matmul (its partial tiles call
// __opforge_rt_tile_<n>) links and names them in its symbol table, the
// binary's metadata carries the key of the runtime's text, the key changes
// with that text, and a call of a routine the runtime lacks is a link error
// naming it; a softmax links the routines of its reductions' later levels.
// (Running such kernels on the chip, bit for bit against the
// interpreter: chip_rect_mask_test.cpp.)
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <elf.h>

#include <cstring>
#include <set>
#include <string>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

struct Compiled {
  CompileState state;  // owns the function the plan points into
  LoweredKernelPlan plan;
  std::string ir, spec_key;
};

Compiled masked_matmul() {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (const char *c : {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=4"})
    add_constexpr(o.spec, c);
  Compiled r;
  r.state =
      compile_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/matmul.py", o, "opt");
  r.plan = plan_kernel(*r.state.opt->find(r.state.kernel), o.target);
  r.spec_key = o.spec.key();
  r.ir = emit_llvm_ir(r.plan);
  return r;
}

// The names in the executable's symbol table.
std::set<std::string> symbol_names(const std::vector<uint8_t> &elf) {
  std::set<std::string> names;
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, elf.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_SYMTAB) continue;
    Elf64_Shdr strtab;
    std::memcpy(&strtab, elf.data() + eh.e_shoff + sh.sh_link * sizeof strtab, sizeof strtab);
    for (size_t k = 1; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym s;
      std::memcpy(&s, elf.data() + sh.sh_offset + k * sizeof s, sizeof s);
      names.insert(reinterpret_cast<const char *>(elf.data() + strtab.sh_offset + s.st_name));
    }
  }
  return names;
}

TEST(CodegenRuntimeLibrary, MaskedTilesCallItAndTheKernelLinksItsRoutines) {
  Compiled k = masked_matmul();
  EXPECT_NE(k.ir.find("call void @__opforge_rt_tile_"), std::string::npos) << k.ir;
  EXPECT_EQ(k.ir.find("define void @__opforge_rt_"), std::string::npos)
      << "runtime routines are not compiled in the kernel's module";
  EXPECT_EQ(k.ir.find("__opforge_cold_"), std::string::npos)
      << "the matmul's partial tiles need no per-site fallback function";
  TargetOptions t;
  KernelBinary b = link_kernel_object(llvm_ir_to_object(k.ir, t), k.plan, k.spec_key, t);
  std::set<std::string> names = symbol_names(b.elf);
  bool tile_entry = false;
  for (const std::string &n : names) tile_entry |= n.rfind("__opforge_rt_tile_", 0) == 0;
  EXPECT_TRUE(tile_entry);
  EXPECT_TRUE(names.count("_start"));
  // The same kernel links to the same bytes again (the runtime is cached).
  KernelBinary again = link_kernel_object(llvm_ir_to_object(k.ir, t), k.plan, k.spec_key, t);
  EXPECT_TRUE(again.elf == b.elf);
}

TEST(CodegenRuntimeLibrary, ReductionLevelsAreRoutinesTheSoftmaxLinks) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,"
                "n_rows=i32,n_cols=i32");
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  CompileState st = compile_file(
      std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/fused_softmax.py", o, "opt");
  LoweredKernelPlan plan = plan_kernel(*st.opt->find(st.kernel), o.target);
  std::string ir = emit_llvm_ir(plan);
  // tl.max and tl.sum: level 0 in the kernel, the other levels one call each.
  EXPECT_NE(ir.find("\"call __opforge_rt_levels_max_f32\", \"{x10},{x11},"), std::string::npos)
      << ir;
  EXPECT_NE(ir.find("\"call __opforge_rt_levels_sum_f32\", \"{x10},{x11},"), std::string::npos)
      << ir;
  TargetOptions t;
  KernelBinary b = link_kernel_object(llvm_ir_to_object(ir, t), plan, o.spec.key(), t);
  std::set<std::string> names = symbol_names(b.elf);
  EXPECT_TRUE(names.count("__opforge_rt_levels_max_f32"));
  EXPECT_TRUE(names.count("__opforge_rt_levels_sum_f32"));
}

TEST(CodegenRuntimeLibrary, TheBinaryCarriesAKeyThatChangesWithTheRuntimeText) {
  const std::string key = runtime_library_key();
  EXPECT_EQ(key.rfind("rt-", 0), 0u) << key;
  EXPECT_NE(runtime_library_key("define void @f() {\n  ret void\n}\n"), key);
  EXPECT_NE(runtime_library_key("a"), runtime_library_key("b"));
  EXPECT_EQ(runtime_library_key("a"), runtime_library_key("a"));
  Compiled k = masked_matmul();
  TargetOptions t;
  KernelBinary b = link_kernel_object(llvm_ir_to_object(k.ir, t), k.plan, k.spec_key, t);
  EXPECT_NE(b.metadata_json.find("\"runtime\":\"" + key + "\""), std::string::npos)
      << b.metadata_json;
}

TEST(CodegenRuntimeLibrary, AMissingRoutineIsALinkErrorNamingIt) {
  Compiled k = masked_matmul();
  // The kernel's first instruction calls a routine the runtime does not have.
  std::string ir = k.ir;
  const std::string body = "body:\n";
  size_t at = ir.find(body);
  ASSERT_NE(at, std::string::npos);
  ir.insert(at + body.size(), "  call void @__opforge_rt_no_such_routine(i64 7)\n");
  ir += "declare void @__opforge_rt_no_such_routine(i64)\n";
  TargetOptions t;
  std::vector<uint8_t> object = llvm_ir_to_object(ir, t);
  try {
    link_kernel_object(object, k.plan, k.spec_key, t);
    FAIL() << "linked a call of a missing runtime routine";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("__opforge_rt_no_such_routine"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("runtime library"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::compiler
