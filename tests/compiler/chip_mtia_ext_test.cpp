//===- chip_mtia_ext_test.cpp - tl.extra.mtia built-ins: interpreter vs chip ===//
//
// The kernels of bench/kernels/mtia_async.py compiled to Xmtia and run on the
// tiny chip; every output equals the IR interpreter's element for element:
// async_copy/wait (1-D masked, 2-D tiles, a double-buffered loop whose token
// is loop-carried), sfu, dot on the DPE, atomic_add and barrier. The kernel's
// asm carries the instructions each construct maps to.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "diff_harness.h"
#include "opforge/compiler/pipeline.h"

namespace opforge::compiler::testing {
namespace {

const std::string kFile = std::string(OPFORGE_SOURCE_DIR) + "/bench/kernels/mtia_async.py";

DiffCase sumsq_case(const std::string &kernel, int64_t rows, int64_t cols, int64_t block) {
  DiffCase c;
  c.file = kFile;
  c.kernel = kernel;
  c.signature = "x_ptr=*fp32,out_ptr=*fp32,n_cols=i32";
  c.constexprs = {"BLOCK=" + std::to_string(block)};
  HostTensor x = random_tensor(DType::Float32, {rows, cols}, 5);
  c.args = {KArg::tensor(x), KArg::tensor(HostTensor(DType::Float32, {rows})), KArg::integer(cols)};
  c.grid.x = rows;
  return c;
}

DiffCase ops_case(int64_t n, int programs) {
  const int64_t T = 16;
  DiffCase c;
  c.file = kFile;
  c.kernel = "mtia_ops";
  c.signature =
      "x_ptr=*fp32,a_ptr=*fp32,b_ptr=*fp32,sfu_out=*fp32,dot_out=*fp32,hist_ptr=*i32,n=i32";
  c.constexprs = {"BLOCK=64", "T=16"};
  HostTensor a(DType::Float32, {programs * T, T}), b(DType::Float32, {T, T});
  for (int64_t i = 0; i < a.numel(); ++i) a.set_double(i, static_cast<double>(i % 7) - 3);
  for (int64_t i = 0; i < b.numel(); ++i) b.set_double(i, static_cast<double>(i % 5) - 2);
  c.args = {KArg::tensor(random_tensor(DType::Float32, {n}, 9)),
            KArg::tensor(a),
            KArg::tensor(b),
            KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::tensor(HostTensor(DType::Float32, {programs * T, T})),
            KArg::tensor(HostTensor(DType::Int32, {2})),
            KArg::integer(n)};
  c.grid.x = programs;
  return c;
}

void expect_same(const DiffCase &c, const std::vector<size_t> &outputs) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  for (size_t k : outputs)
    for (int64_t i = 0; i < ref[k].numel(); ++i)
      ASSERT_EQ(chip.tensors[k].get_double(i), ref[k].get_double(i))
          << c.kernel << " output " << k << " element " << i;
}

}  // namespace

// The double-buffered loop (the token carried from iteration to iteration,
// the last tile partial, a row shorter than one tile) and its plain twin.
TEST(ChipMtiaExt, DoubleBufferedAsyncCopyMatchesTheInterpreter) {
  for (int64_t cols : {1000, 256, 100})
    for (const char *k : {"row_sumsq_async", "row_sumsq_plain"})
      expect_same(sumsq_case(k, 3, cols, 256), {1});
  // Both kernels compute the same sums.
  auto a = run_interp(sumsq_case("row_sumsq_async", 3, 1000, 256));
  auto p = run_interp(sumsq_case("row_sumsq_plain", 3, 1000, 256));
  for (int64_t r = 0; r < 3; ++r) EXPECT_EQ(a[1].get_double(r), p[1].get_double(r)) << r;
}

// sfu, dot (DPE), atomic_add and barrier; 150 elements over three programs
// (the last block partial: async_copy's `other` fills it).
TEST(ChipMtiaExt, SfuDotAtomicAddAndBarrierMatchTheInterpreter) {
  DiffCase c = ops_case(150, 3);
  expect_same(c, {3, 4, 5});
  auto ref = run_interp(c);
  // Every active element counted once into one of two bins.
  EXPECT_EQ(ref[5].get_int(0) + ref[5].get_int(1), 150);
  // dot: 1 + A_p @ B for program 1, element (2, 3).
  const HostTensor &a = c.args[1].t, &b = c.args[2].t;
  double want = 1;
  for (int k = 0; k < 16; ++k) want += a.get_double((16 + 2) * 16 + k) * b.get_double(k * 16 + 3);
  EXPECT_EQ(ref[4].get_double((16 + 2) * 16 + 3), want);
}

TEST(ChipMtiaExt, TheAsmHoldsTheXmtiaInstructionsOfEachConstruct) {
  register_codegen_stages();
  DiffCase c = ops_case(150, 3);
  CompileState s = compile_file(c.file, options(c), "asm");
  std::string text = dump_stage(s, "asm");
  auto count = [&](const std::string &what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  // custom-0 (11), funct3: 1 xmtia.dma, 2 dmawait, 3 dpe, 4 dpewait
  EXPECT_GE(count(".insn r 11, 1, 0"), 3u);   // three copies at least
  EXPECT_GE(count(".insn r 11, 2, 0"), 18u);  // three waits (and the buffers'), barrier's 15
  EXPECT_GE(count(".insn r 11, 3, 0"), 1u);
  EXPECT_GE(count(".insn r 11, 4, 0"), 1u);
  // vfexp.v, vftanh.v, vfrsqrt.v: custom-1 (43), funct3 1, funct7 = funct6 << 1 | vm
  for (const char *sfu : {".insn r 43, 1, 1,", ".insn r 43, 1, 5,", ".insn r 43, 1, 13,"})
    EXPECT_GE(count(sfu), 1u) << sfu;
  EXPECT_NE(text.find("amoadd.w"), std::string::npos);
}

}  // namespace opforge::compiler::testing
