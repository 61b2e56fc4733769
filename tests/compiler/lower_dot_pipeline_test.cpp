//===- lower_dot_pipeline_test.cpp - K loops prefetch the next step's tiles (double buffering) ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "opforge/compiler/codegen.h"

namespace opforge::compiler {
namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions matmul_options(const char *block_m, const char *block_n, const char *block_k) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {block_m, block_n, block_k, "GROUP_SIZE_M=8"}) add_constexpr(o.spec, c);
  return o;
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

const std::string kDmaIssue = ".insn r 11, 1, 0, x0, $0, $1";  // xmtia.dma
const std::string kDmaWait = ".insn r 11, 2, 0, x0, $0, x0";   // xmtia.dmawait
const std::string kDpeIssue = ".insn r 11, 3, 0, x0, $0, x0";  // xmtia.dpe
const std::string kDpeWait = ".insn r 11, 4, 0, x0, x0, x0";   // xmtia.dpewait

TEST(LowerDotPipeline, TutorialMatmulPrefetchesBothOperandTilesIntoTwoBuffers) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py",
                        matmul_options("BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64"),
                        "lowered");
  std::string plan = dump_stage(s, "lowered");
  // A: 128x64 bf16 = 16 KiB, B: 64x256 bf16 = 32 KiB, each twice.
  EXPECT_NE(plan.find("dma load into a 16384-byte buffer x2, prefetched one iteration ahead"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("dma load into a 32768-byte buffer x2, prefetched one iteration ahead"),
            std::string::npos)
      << plan;
  // The footprint counts the second buffers: at least the 128 KiB
  // accumulator and 2 x (16 + 32) KiB of operand tiles.
  size_t at = plan.find("local memory: ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GE(std::stoll(plan.substr(at + 14)), 128 * 1024 + 2 * 48 * 1024) << plan;
}

TEST(LowerDotPipeline, BlockPointerAndInt8KLoopsPrefetchToo) {
  register_codegen_stages();
  // Block pointers carry their offsets as loop-carried scalars.
  CompileOptions bp;
  bp.knobs = Knobs{};
  add_signature(bp.spec,
                "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {"BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=64"}) add_constexpr(bp.spec, c);
  std::string plan =
      dump_stage(compile_file(kernels() + "block_ptr_matmul.py", bp, "lowered"), "lowered");
  EXPECT_EQ(count(plan, "prefetched one iteration ahead"), 2u) << plan;
  CompileOptions i8;
  i8.knobs = Knobs{};
  add_signature(i8.spec,
                "a_ptr=*i8,b_ptr=*i8,c_ptr=*i32,M=i32,N=i32,K=i32,stride_am=i32,"
                "stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {"BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=64"}) add_constexpr(i8.spec, c);
  plan = dump_stage(compile_file(kernels() + "matmul_int8.py", i8, "lowered"), "lowered");
  EXPECT_EQ(count(plan, "prefetched one iteration ahead"), 2u) << plan;
}

// The order in the K loop's LLVM IR: the loop waits for this step's tiles
// and the previous step's DPE commands, gives the DPE its first command,
// then issues the next step's DMAs before the remaining commands; the first
// step issues its own tiles there too and gives its first command after them.
TEST(LowerDotPipeline, KLoopIssuesTheNextStepsDmaBetweenItsDpeCommands) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py",
                        matmul_options("BLOCK_SIZE_M=128", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64"),
                        "llir");
  std::string ir = dump_stage(s, "llir");
  size_t first_dpe = ir.find(kDpeIssue);
  ASSERT_NE(first_dpe, std::string::npos) << ir;
  size_t second_dpe = ir.find(kDpeIssue, first_dpe + 1);
  ASSERT_NE(second_dpe, std::string::npos) << "2x2 commands of 64x64x64 per K step";
  // 2x2 commands per K step, the first one at two sites: later steps give
  // it before issuing the next step's tiles, the first step after its own
  // tiles (issued by the same code) have arrived.
  EXPECT_EQ(count(ir, kDpeIssue), 5u) << ir;
  // Before the loop: the argument block's DMA, no tile (the first step
  // issues its own, so the transfer code exists once).
  const std::string tile_call = "call void @__opforge_rt_tile_";
  EXPECT_GE(count(ir.substr(0, first_dpe), kDmaIssue), 1u);
  EXPECT_EQ(count(ir.substr(0, first_dpe), tile_call), 0u) << ir;
  EXPECT_EQ(count(ir.substr(0, ir.rfind(kDpeIssue)), tile_call), 2u)
      << "one transfer site per tile (A, B) up to the loop's last command";
  // The tiles go out between the first command site and the second, which
  // waits for them (the first step's).
  std::string between = ir.substr(first_dpe, second_dpe - first_dpe);
  EXPECT_EQ(count(between, tile_call), 2u);
  EXPECT_NE(between.find(kDmaWait), std::string::npos);
  // Before the first command: the wait for this step's tiles and for the
  // previous step's commands (the last readers of the buffers refilled next).
  std::string before = ir.substr(0, first_dpe);
  size_t last_dma_wait = before.rfind(kDmaWait), last_dpe_wait = before.rfind(kDpeWait);
  ASSERT_NE(last_dma_wait, std::string::npos);
  ASSERT_NE(last_dpe_wait, std::string::npos);
  EXPECT_GT(last_dpe_wait, before.rfind(kDmaIssue)) << "no DPE wait between prologue and loop";
  // No DMA wait after the first step's first command: the prefetch is not waited for.
  size_t last_dpe = ir.rfind(kDpeIssue);
  EXPECT_EQ(ir.substr(second_dpe, last_dpe - second_dpe).find(kDmaWait), std::string::npos);
}

// tl.zeros accumulators: the K loop's first step writes C with commands that
// do not accumulate (C = A x B, the DPE's sum starting from +0 as C += A x B
// on a zeroed C does), so the 128 KiB zero fill before the loop (vector
// stores, about 2,000 cycles of an idle DPE and DMA at 128x256) runs only
// when the loop has no step.
TEST(LowerDotPipeline, AZeroAccumulatorIsOverwrittenByTheFirstStepNotFilled) {
  register_codegen_stages();
  auto s = compile_file(kernels() + "matmul.py",
                        matmul_options("BLOCK_SIZE_M=128", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64"),
                        "llir");
  std::string ir = dump_stage(s, "llir");
  // The descriptor's flags (bf16 = 0, accumulate = 1 << 8): the first
  // step's k-tile 0 commands store 0, later steps 256.
  EXPECT_GE(count(ir, "select i1 %"), 1u);
  EXPECT_GE(count(ir, ", i64 0, i64 256"), 1u) << ir;
}

// A tile whose address comes from memory read inside the loop cannot be
// computed a step ahead: that load keeps its place (and its own double buffer).
TEST(LowerDotPipeline, ATileAddressedByAValueLoadedInTheLoopIsNotPrefetched) {
  std::string path = ::testing::TempDir() + "/opforge_gathered_rows_matmul.py";
  std::ofstream(path) << R"PY(import triton
import triton.language as tl


@triton.jit
def gathered_k_matmul(a_ptr, b_ptr, c_ptr, kidx_ptr, n_steps, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    b_ptrs = b_ptr + offs[:, None] * BLOCK + offs[None, :]
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for s in range(0, n_steps):
        kb = tl.load(kidx_ptr + s)
        a = tl.load(a_ptr + offs[:, None] * 1024 + kb * BLOCK + offs[None, :])
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        b_ptrs += BLOCK * BLOCK
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)
)PY";
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,kidx_ptr=*i32,n_steps=i32");
  add_constexpr(o.spec, "BLOCK=32");
  auto s = compile_file(path, o, "lowered");
  std::string plan = dump_stage(s, "lowered");
  EXPECT_EQ(count(plan, "prefetched one iteration ahead"), 1u) << "only B: " << plan;
  std::filesystem::remove(path);
}

// A store in the K loop may write what the next step's tile reads: no prefetch.
TEST(LowerDotPipeline, AKLoopThatStoresIsNotPrefetched) {
  std::string path = ::testing::TempDir() + "/opforge_storing_k_loop.py";
  std::ofstream(path) << R"PY(import triton
import triton.language as tl


@triton.jit
def storing_k_loop(a_ptr, b_ptr, c_ptr, n_steps, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a_ptrs = a_ptr + offs[:, None] * BLOCK + offs[None, :]
    b_ptrs = b_ptr + offs[:, None] * BLOCK + offs[None, :]
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for s in range(0, n_steps):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        tl.store(b_ptrs + BLOCK * BLOCK, a)
        a_ptrs += BLOCK * BLOCK
        b_ptrs += BLOCK * BLOCK
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)
)PY";
  register_codegen_stages();
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,n_steps=i32");
  add_constexpr(o.spec, "BLOCK=32");
  std::string plan = dump_stage(compile_file(path, o, "lowered"), "lowered");
  EXPECT_EQ(count(plan, "prefetched one iteration ahead"), 0u) << plan;
  EXPECT_NE(plan.find("dma load"), std::string::npos) << plan;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace opforge::compiler
