//===- codegen_deterministic_test.cpp - same kernel, same code, any heap ---===//
//
// The code generator must emit the same LLVM IR for the same kernel whatever
// the host heap looks like: an order taken from Value or Operation addresses
// (a std::set<const Value *> iterated) changes the emitted code from one
// compile to the next. A prefetched bf16 matmul once did so (the K loop's
// carried values in pointer order: different stack slots, so different DRAM
// and NoC wait counters on the chip model, about one process in five).
// These compile the kernel several times in one process, between them
// reshaping the heap's free lists (blocks freed in address order come back
// last-freed first, so objects allocated one after the other then sit at
// falling addresses), and compare the IR.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/pipeline.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions matmul_bf16_options() {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (const char *c : {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"})
    add_constexpr(o.spec, c);
  return o;
}

std::string matmul_llir() {
  register_codegen_stages();
  CompileState s = compile_file(kernels() + "matmul.py", matmul_bf16_options(), "llir");
  return dump_stage(s, "llir");
}

// Leaves the small-block free lists holding `per_size` blocks of each size
// up to 1 KB, last-freed (highest address) first, and keeps `keep` alive so
// that the next compile's objects land elsewhere.
void reshape_heap(int per_size, std::vector<std::unique_ptr<char[]>> &keep) {
  std::vector<std::unique_ptr<char[]>> blocks;
  for (size_t bytes = 16; bytes <= 1024; bytes += 16)
    for (int i = 0; i < per_size; ++i) {
      blocks.emplace_back(new char[bytes]);
      if (i % 5 == 0) keep.emplace_back(new char[bytes * 3]);
    }
  blocks.clear();  // freed in allocation (mostly rising address) order
}

TEST(CodegenDeterministic, MatmulBf16IrDoesNotDependOnTheHeap) {
  const std::string first = matmul_llir();
  ASSERT_NE(first.find("define"), std::string::npos);
  std::vector<std::unique_ptr<char[]>> keep;
  for (int per_size : {8, 64, 200, 3, 500}) {
    reshape_heap(per_size, keep);
    EXPECT_EQ(matmul_llir(), first)
        << "after reshaping the heap with " << per_size << " blocks of each size";
  }
}

}  // namespace
}  // namespace opforge::compiler
