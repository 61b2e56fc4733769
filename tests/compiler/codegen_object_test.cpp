//===- codegen_object_test.cpp - LLVM's object linked straight into a KernelBinary ===//
#include <gtest/gtest.h>

#include <elf.h>

#include <cstring>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

struct Case {
  const char *file, *signature;
  std::vector<std::string> constexprs;
};

// vector_add: DMA and strip loops; softmax: SFU inline asm; matmul on bf16:
// DPE descriptors; asin: constants in .sdata reached through
// %pcrel_hi/%pcrel_lo relocations.
const std::vector<Case> kCases = {
    {"vector_add.py",
     "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
     {"BLOCK_SIZE=1024"}},
    {"fused_softmax.py",
     "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,"
     "n_cols=i32",
     {"BLOCK_SIZE=1024"}},
    {"matmul.py",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
     "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32",
     {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
    {"math_fn.py", "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32", {"FN=\"asin\"", "BLOCK=256"}},
};

struct Compiled {
  CompileState state;  // owns the function the plan points into
  LoweredKernelPlan plan;
  std::string ir, spec_key;
};

Compiled compile_to_llir(const Case &c) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, c.signature);
  for (auto &ce : c.constexprs) add_constexpr(o.spec, ce);
  Compiled r;
  r.state = compile_file(kernels() + c.file, o, "opt");
  r.plan = plan_kernel(*r.state.opt->find(r.state.kernel), o.target);
  r.spec_key = o.spec.key();
  r.ir = emit_llvm_ir(r.plan);
  return r;
}

TEST(CodegenObject, ObjectPathLinksTheSameExecutableAsTheAssemblyPath) {
  TargetOptions t;
  for (const Case &c : kCases) {
    SCOPED_TRACE(c.file);
    Compiled k = compile_to_llir(c);
    KernelBinary via_asm = link_kernel_binary(llvm_ir_to_asm(k.ir, t), k.plan, k.spec_key, t);
    KernelBinary via_obj = link_kernel_object(llvm_ir_to_object(k.ir, t), k.plan, k.spec_key, t);
    EXPECT_EQ(via_obj.entry, via_asm.entry);
    EXPECT_EQ(via_obj.metadata_json, via_asm.metadata_json);
    EXPECT_TRUE(via_obj.asm_text.empty());
    ASSERT_GT(via_obj.elf.size(), 64u);
    EXPECT_TRUE(via_obj.elf == via_asm.elf)
        << via_obj.elf.size() << " vs " << via_asm.elf.size() << " ELF bytes";
  }
}

TEST(CodegenObject, LlvmReportsWhereItsTimeWent) {
  Compiled k = compile_to_llir(kCases[0]);
  LlvmTimes times;
  std::vector<uint8_t> obj = llvm_ir_to_object(k.ir, TargetOptions{}, &times);
  EXPECT_FALSE(obj.empty());
  EXPECT_GT(times.parse_ms, 0.0);
  EXPECT_GT(times.opt_ms, 0.0);
  EXPECT_GT(times.codegen_ms, 0.0);
}

TEST(CodegenObject, LlvmDefaultPipelineIsSelectableAndUnknownNamesAreErrors) {
  Compiled k = compile_to_llir(kCases[0]);
  TargetOptions t;
  t.opt_pipeline = "default";
  EXPECT_NE(t.key(), TargetOptions{}.key());
  KernelBinary b = link_kernel_object(llvm_ir_to_object(k.ir, t), k.plan, k.spec_key, t);
  EXPECT_GT(b.elf.size(), 64u);
  t.opt_pipeline = "fastest";
  try {
    llvm_ir_to_object(k.ir, t);
    FAIL() << "an unknown pipeline name compiled";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("fastest"), std::string::npos) << e.what();
  }
}

std::string link_error(const std::vector<uint8_t> &obj, const LoweredKernelPlan &plan) {
  try {
    link_kernel_object(obj, plan, "", TargetOptions{});
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(CodegenObject, BadObjectsAreErrorsNamingWhatIsWrong) {
  Compiled k = compile_to_llir(kCases[3]);
  std::vector<uint8_t> obj = llvm_ir_to_object(k.ir, TargetOptions{});
  EXPECT_NE(link_error({1, 2, 3}, k.plan).find("outside the object"), std::string::npos);
  std::vector<uint8_t> not_elf = obj;
  not_elf[0] = 0;
  EXPECT_NE(link_error(not_elf, k.plan).find("not an ELF64"), std::string::npos);
  std::vector<uint8_t> truncated(obj.begin(), obj.begin() + 200);
  EXPECT_NE(link_error(truncated, k.plan).find("section header"), std::string::npos)
      << link_error(truncated, k.plan);
  // Turn asin's first %pcrel_hi relocation into R_RISCV_RELAX, which the kernel
  // linker does not take.
  Elf64_Ehdr eh;
  std::memcpy(&eh, obj.data(), sizeof eh);
  bool patched = false;
  for (size_t i = 0; i < eh.e_shnum && !patched; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, obj.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_RELA) continue;
    for (size_t r = 0; r < sh.sh_size / sizeof(Elf64_Rela) && !patched; ++r) {
      Elf64_Rela rela;
      std::memcpy(&rela, obj.data() + sh.sh_offset + r * sizeof rela, sizeof rela);
      if (ELF64_R_TYPE(rela.r_info) != R_RISCV_PCREL_HI20) continue;
      rela.r_info = ELF64_R_INFO(ELF64_R_SYM(rela.r_info), R_RISCV_RELAX);
      std::memcpy(obj.data() + sh.sh_offset + r * sizeof rela, &rela, sizeof rela);
      patched = true;
    }
  }
  ASSERT_TRUE(patched) << "asin's object has no %pcrel_hi relocation";
  std::string e = link_error(obj, k.plan);
  EXPECT_NE(e.find("relocation type 51"), std::string::npos) << e;
  EXPECT_NE(e.find(".text+"), std::string::npos) << e;
}

}  // namespace
}  // namespace opforge::compiler
