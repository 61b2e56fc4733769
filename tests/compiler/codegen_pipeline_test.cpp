//===- codegen_pipeline_test.cpp - lowered/llir/asm/bin stages on real kernels ===//
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "opforge/compiler/codegen.h"
#include "opforge/isa/asm.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions vector_add_options() {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32");
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  return o;
}

TEST(CodegenPipeline, StagesAfterOptAreRegisteredInOrder) {
  register_codegen_stages();
  std::vector<std::string> names;
  for (auto &s : stages()) names.push_back(s.name);
  auto at = [&](const std::string &n) {
    return std::find(names.begin(), names.end(), n) - names.begin();
  };
  ASSERT_LT(at("opt"), at("lowered"));
  EXPECT_LT(at("lowered"), at("llir"));
  EXPECT_LT(at("llir"), at("asm"));
  EXPECT_LT(at("asm"), at("bin"));
  EXPECT_EQ(at("bin"), static_cast<long>(names.size()) - 1);
}

TEST(CodegenPipeline, VectorAddMovesBothLoadsAndTheStoreByDma) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py", vector_add_options(), "lowered");
  std::string plan = dump_stage(s, "lowered");
  // Two 4 KiB load buffers and one 4 KiB store buffer; no other block buffers.
  EXPECT_NE(plan.find("local memory: 12288 bytes in 0 buffers"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dma load into a 4096-byte buffer"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dma store from a 4096-byte buffer"), std::string::npos) << plan;
  EXPECT_NE(plan.find("args (40 bytes)"), std::string::npos) << plan;
}

TEST(CodegenPipeline, VectorAddAsmIsVectorizedAndUsesXmtiaFromTheTables) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py", vector_add_options(), "asm");
  std::string ir = dump_stage(s, "llir");
  EXPECT_NE(ir.find("define void @_start(ptr %args)"), std::string::npos);
  EXPECT_NE(ir.find("csrr $0, 0xfc0"), std::string::npos) << "program id from mtia.pid_x";
  EXPECT_NE(ir.find(".insn r 11, 0, 0, x0, x0, x0"), std::string::npos) << "xmtia.done";
  EXPECT_NE(ir.find(".insn r 11, 1, 0, x0, $0, $1"), std::string::npos) << "xmtia.dma";
  EXPECT_NE(ir.find(".insn r 11, 2, 0, x0, $0, x0"), std::string::npos) << "xmtia.dmawait";
  std::string text = dump_stage(s, "asm");
  EXPECT_NE(text.find("vsetvli"), std::string::npos) << text;
}

TEST(CodegenPipeline, GnuAsAssemblesTheAsmStageToTheSameTextBytes) {
#ifndef RISCV_AS
  GTEST_SKIP() << "riscv64-unknown-elf-as not found";
#else
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py", vector_add_options(), "asm");
  std::string text = dump_stage(s, "asm");
  isa::AsmUnit unit = isa::assemble(text, "vector_add.s");
  const isa::AsmSection *ours = nullptr;
  for (auto &sec : unit.sections)
    if (sec.name == ".text") ours = &sec;
  ASSERT_NE(ours, nullptr);
  std::string dir = ::testing::TempDir();
  std::string src = dir + "/codegen_va.s", obj = dir + "/codegen_va.o",
              bin = dir + "/codegen_va.bin";
  std::ofstream(src) << text;
  std::string cmd = std::string(RISCV_AS) + " -march=rv64imafdv -o " + obj + " " + src +
                    " && riscv64-unknown-elf-objcopy -O binary -j .text " + obj + " " + bin;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(bin, std::ios::binary);
  std::vector<uint8_t> gnu((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(gnu.empty());
  EXPECT_EQ(gnu, ours->data);
#endif
}

TEST(CodegenPipeline, BinaryCarriesEntryArgumentLayoutAndMetadata) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "vector_add.py", vector_add_options(), "bin");
  const auto &b = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
  EXPECT_EQ(b.kernel, "add_kernel");
  EXPECT_EQ(b.entry, 0x80000000u);
  ASSERT_EQ(b.args.size(), 5u);
  EXPECT_EQ(b.args[3].name, "n_elements");
  EXPECT_EQ(b.args[3].offset_bytes, 24u);
  EXPECT_EQ(b.arg_block_bytes, 40u);
  EXPECT_NE(b.spec_key.find("BLOCK_SIZE"), std::string::npos);
  ASSERT_GE(b.elf.size(), 64u);
  EXPECT_EQ(b.elf[0], 0x7f);
  EXPECT_EQ(b.elf[1], 'E');
  std::string elf(b.elf.begin(), b.elf.end());
  EXPECT_NE(elf.find(".opforge.meta"), std::string::npos);
  EXPECT_NE(elf.find("\"local_mem_bytes\":12288"), std::string::npos);
  // Argument packing refuses a tensor where an integer goes.
  std::vector<ArgValue> bad(5, ArgValue{ArgValue::Kind::Address, 0x1000, 0, 0});
  EXPECT_THROW(b.pack_args(bad), Error);
}

TEST(CodegenPipeline, UnsupportedOpsAreNamedInTheError) {
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, "x_ptr=*fp32,n=i32");
  add_constexpr(o.spec, "BLOCK=64");
  try {
    std::string path = ::testing::TempDir() + "/print_values.py";
    std::ofstream(path) << "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                           "def print_values_kernel(x_ptr, n, BLOCK: tl.constexpr):\n"
                           "    offs = tl.arange(0, BLOCK)\n"
                           "    tl.device_print(\"x\", tl.load(x_ptr + offs, mask=offs < n))\n";
    compile_file(path, o, "lowered");
    FAIL() << "tt.print has no lowering; expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("tt.print"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace opforge::compiler
