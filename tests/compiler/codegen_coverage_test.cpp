//===- codegen_coverage_test.cpp - GNU as on SFU/atomic/scan/while asm dumps; lowering plans ===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "opforge/compiler/codegen.h"
#include "opforge/isa/asm.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions opts(const std::string &sig, const std::vector<std::string> &constexprs) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, sig);
  for (auto &c : constexprs) add_constexpr(o.spec, c);
  return o;
}

struct Kernel {
  std::string file, sig;
  std::vector<std::string> constexprs;
  std::string must_contain;  // in the asm text
};

std::vector<Kernel> kernels_with_new_lowerings() {
  return {
      {"math_fn.py", "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32", {"FN='tanh'", "BLOCK=32"},
       ".insn r 43"},  // SFU vftanh.v on custom-1, vector registers written as x registers
      {"atomic_rmw.py",
       "x_ptr=*i32,hist_ptr=*i32,stats_ptr=*i32,fsum_ptr=*fp32,slots_ptr=*i32,old_ptr=*i32,n=i32",
       {"NBINS=16", "BLOCK=32"},
       "amoadd.w"},
      {"atomic_ticket.py", "counter_ptr=*i32,tickets_ptr=*i32,slots_ptr=*i32,found_ptr=*i32",
       {"ROUNDS=2"}, "lr.w"},
      {"scan_2d.py", "x_ptr=*fp32,sum_ptr=*fp32,prod_ptr=*fp32,M=i32,N=i32",
       {"AXIS=1", "REVERSE=False", "BLOCK_M=8", "BLOCK_N=16"}, "fadd"},
      {"while_loops.py", "x_ptr=*i32,y_ptr=*i32,rounds_ptr=*i32,z_ptr=*fp32,n=i32,trips=i32",
       {"LIMIT=10", "BLOCK=32"}, ""},
  };
}

TEST(CodegenCoverage, GnuAsAssemblesSfuAtomicScanAndWhileKernelsToTheSameTextBytes) {
#ifndef RISCV_AS
  GTEST_SKIP() << "riscv64-unknown-elf-as not found";
#else
  register_codegen_stages();
  for (const Kernel &k : kernels_with_new_lowerings()) {
    auto s = compile_file(kernels() + k.file, opts(k.sig, k.constexprs), "asm");
    std::string text = dump_stage(s, "asm");
    if (!k.must_contain.empty()) {
      EXPECT_NE(text.find(k.must_contain), std::string::npos) << k.file << " lacks " << k.must_contain;
    }
    isa::AsmUnit unit = isa::assemble(text, k.file + ".s");
    const isa::AsmSection *ours = nullptr;
    for (auto &sec : unit.sections)
      if (sec.name == ".text") ours = &sec;
    ASSERT_NE(ours, nullptr) << k.file;
    std::string dir = ::testing::TempDir();
    std::string src = dir + "/cov_" + k.file + ".s", obj = dir + "/cov_" + k.file + ".o",
                bin = dir + "/cov_" + k.file + ".bin";
    std::ofstream(src) << text;
    std::string cmd = std::string(RISCV_AS) + " -march=rv64imafdv -o " + obj + " " + src +
                      " && riscv64-unknown-elf-objcopy -O binary -j .text " + obj + " " + bin;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(bin, std::ios::binary);
    std::vector<uint8_t> gnu((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    ASSERT_FALSE(gnu.empty()) << k.file;
    EXPECT_EQ(gnu, ours->data) << k.file;
  }
#endif
}

TEST(CodegenCoverage, BlockPointersBecomeMaskedDmaTransfers) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "block_ptr_rows.py",
                        opts("x_ptr=*fp32,out_ptr=*fp32,M=i32,N=i32,stride_m=i32", {"BM=8", "BN=16"}),
                        "lowered");
  std::string plan = dump_stage(s, "lowered");
  EXPECT_NE(plan.find("dma load"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dma store"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("make_tensor_ptr"), std::string::npos) << plan;
}

TEST(CodegenCoverage, ABlockPointerChangingItsBaseInALoopIsNamedInTheError) {
  register_codegen_stages();
  std::string path = ::testing::TempDir() + "/block_ptr_rebased.py";
  std::ofstream(path) << "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                         "def k(x_ptr, y_ptr, N, B: tl.constexpr):\n"
                         "    p = tl.make_block_ptr(x_ptr, (N,), (1,), (0,), (B,), (0,))\n"
                         "    acc = tl.zeros((B,), tl.float32)\n"
                         "    for i in range(0, 4):\n"
                         "        acc += tl.load(p, boundary_check=(0,))\n"
                         "        p = tl.make_block_ptr(y_ptr, (N,), (1,), (i,), (B,), (0,))\n"
                         "    tl.store(x_ptr + tl.arange(0, B), acc)\n";
  try {
    compile_file(path, opts("x_ptr=*fp32,y_ptr=*fp32,N=i32", {"B=16"}), "lowered");
    FAIL() << "expected an error";
  } catch (const Error &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("scf.for"), std::string::npos) << m;
    EXPECT_NE(m.find("base, shape and strides"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace opforge::compiler
