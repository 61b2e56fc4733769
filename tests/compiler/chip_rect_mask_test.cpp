//===- chip_rect_mask_test.cpp - masked tiles as clamped DMA rectangles, chip vs interpreter ===//
//
// Masks of `&`-ed compares of one-axis index blocks against bounds select a
// rectangle of the tile; the code generator moves it by one clamped DMA
// (plus a fill of `other`) instead of an element loop. Every case is
// checked bit for bit against the IR interpreter on the tiny preset: lower
// and upper bounds, decreasing and strided indices, 2-D windows with
// transposed operands, bf16 and int8 fills, a wrapping index sequence (the
// run-time check falls back to the element path) and a triangle (not a
// rectangle: the element path at compile time). 2-D tiles that are not
// wholly active go through the runtime library's __opforge_rt_tile: its
// rectangles, fills of `other` in every width, its element path for
// wrapping indices (loads and masked stores).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <string>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

DiffCase window_copy(DType d, int64_t n, int64_t lo, int64_t hi, double other) {
  DiffCase c;
  c.file = "rect_masks.py";
  c.kernel = "window_copy";
  c.signature =
      "x_ptr=*" + tl_type(d) + ",y_ptr=*" + tl_type(d) + ",n=i32,lo=i32,hi=i32,other=fp32";
  c.constexprs = {"BLOCK=64"};
  c.args = {KArg::tensor(random_tensor(d, {n}, 5)),
            KArg::tensor(HostTensor(d, {n})),
            KArg::integer(n),
            KArg::integer(lo),
            KArg::integer(hi),
            KArg::floating(other)};
  c.grid.x = (n + 63) / 64;
  return c;
}

TEST(ChipRectMask, TwoSidedWindowsAreExact) {
  // Windows inside one tile, across tiles, empty, whole, and negative bounds.
  const int64_t windows[][2] = {{5, 40},   {30, 170}, {64, 128}, {90, 90},
                                {-7, 200}, {0, 200},  {150, 10}};
  for (auto &w : windows) {
    SCOPED_TRACE("window [" + std::to_string(w[0]) + ", " + std::to_string(w[1]) + ")");
    expect_close(window_copy(DType::Float32, 200, w[0], w[1], -2.5), 0, 0);
  }
}

TEST(ChipRectMask, NarrowTypesFillOtherExactly) {
  expect_close(window_copy(DType::BFloat16, 150, 3, 77, 1.25), 0, 0);
  expect_close(window_copy(DType::Float16, 70, 10, 65, -0.75), 0, 0);
  expect_close(window_copy(DType::Int8, 100, 20, 90, 9), 0, 0);
}

TEST(ChipRectMask, DecreasingIndicesAreExact) {
  for (int64_t n : {1, 31, 32, 75}) {
    DiffCase c;
    c.file = "rect_masks.py";
    c.kernel = "reversed_copy";
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,n=i32";
    c.constexprs = {"BLOCK=32"};
    c.args = {KArg::tensor(random_tensor(DType::Float32, {n}, 9)),
              KArg::tensor(HostTensor(DType::Float32, {n})), KArg::integer(n)};
    c.grid.x = (n + 31) / 32;
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_close(c, 0, 0);
  }
}

TEST(ChipRectMask, StridedIndicesAreExact) {
  for (int64_t n : {1, 64, 97}) {
    DiffCase c;
    c.file = "rect_masks.py";
    c.kernel = "strided_gather";
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,n=i32";
    c.constexprs = {"STEP=3", "BLOCK=16"};
    const int64_t out = (n + 2) / 3;
    c.args = {KArg::tensor(random_tensor(DType::Float32, {n}, 4)),
              KArg::tensor(HostTensor(DType::Float32, {(out + 15) / 16 * 16})), KArg::integer(n)};
    c.grid.x = (out + 15) / 16;
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_close(c, 0, 0);
  }
}

DiffCase window_2d(int64_t m, int64_t n, int64_t r0, int64_t c0, bool transposed_x,
                   bool transposed_y) {
  DiffCase c;
  c.file = "rect_masks.py";
  c.kernel = "window_2d";
  c.signature =
      "x_ptr=*fp32,y_ptr=*fp32,z_ptr=*fp32,M=i32,N=i32,r0=i32,c0=i32,stride_xm=i32,"
      "stride_xn=i32,stride_ym=i32,stride_yn=i32";
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {m * n}, 2)),
            KArg::tensor(HostTensor(DType::Float32, {m * n})),
            KArg::tensor(HostTensor(DType::Float32, {m * n})),
            KArg::integer(m),
            KArg::integer(n),
            KArg::integer(r0),
            KArg::integer(c0),
            KArg::integer(transposed_x ? 1 : n),
            KArg::integer(transposed_x ? m : 1),
            KArg::integer(transposed_y ? 1 : n),
            KArg::integer(transposed_y ? m : 1)};
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  return c;
}

TEST(ChipRectMask, TwoDimensionalWindowsAreExact) {
  expect_close(window_2d(37, 29, 5, 3, false, false), 0, 0);
  expect_close(window_2d(37, 29, 20, 17, true, false), 0, 0);  // element-row DMA reads
  expect_close(window_2d(18, 40, 0, -1, false, true), 0, 0);   // element-row DMA writes
  expect_close(window_2d(16, 16, 16, 0, false, false), 0, 0);  // empty window
}

TEST(ChipRectMask, WrappingIndicesTakeTheElementPathAndAreExact) {
  for (int64_t base : {int64_t{2147483647} - 5, int64_t{2147483647} - 40, int64_t{-20}}) {
    DiffCase c;
    c.file = "rect_masks.py";
    c.kernel = "wrapping_offsets";
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,base=i32";
    c.constexprs = {"BLOCK=32"};
    c.args = {KArg::tensor(random_tensor(DType::Float32, {32}, 6)),
              KArg::tensor(HostTensor(DType::Float32, {32})), KArg::integer(base)};
    c.grid.x = 1;
    SCOPED_TRACE("base = " + std::to_string(base));
    ChipRun r = expect_chip_close(c, 0, 0);
    // Elements past the wrap hold `other`.
    if (base > int64_t{2147483647} - 31 && r.tensors.size() == 2) {
      EXPECT_EQ(r.tensors[1].get_double(31), -1.0);
    }
  }
}

// 2-D tiles whose partial forms go through the runtime library
// (__opforge_rt_tile): a wrapping row index (element by element, load and
// masked store), and windows of narrow types with `other`, plain and
// transposed (a strided column: element-sized DMA rows).
TEST(ChipRectMask, TwoDimensionalWrappingIndicesAreExact) {
  for (int64_t base : {int64_t{2147483647} - 5, int64_t{2147483647} - 12, int64_t{-20}}) {
    DiffCase c;
    c.file = "rect_masks.py";
    c.kernel = "wrapping_2d";
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,z_ptr=*fp32,base=i32,n=i32";
    c.constexprs = {"BLOCK_M=16", "BLOCK_N=8"};
    c.args = {KArg::tensor(random_tensor(DType::Float32, {128}, 12)),
              KArg::tensor(HostTensor(DType::Float32, {128})),
              KArg::tensor(HostTensor(DType::Float32, {128})), KArg::integer(base),
              KArg::integer(6)};
    c.grid.x = 1;
    SCOPED_TRACE("base = " + std::to_string(base));
    ChipRun r = expect_chip_close(c, 0, 0);
    // Row 15 lies past the wrap for the first base: it holds `other`.
    if (base == int64_t{2147483647} - 5 && r.tensors.size() == 3) {
      EXPECT_EQ(r.tensors[1].get_double(15 * 8), -1.0);
    }
  }
}

DiffCase window_2d_copy(DType d, int64_t m, int64_t n, int64_t r0, int64_t c0, double other,
                        bool transposed) {
  DiffCase c;
  c.file = "rect_masks.py";
  c.kernel = "window_2d_copy";
  c.signature = "x_ptr=*" + tl_type(d) + ",y_ptr=*" + tl_type(d) +
                ",M=i32,N=i32,r0=i32,c0=i32,other=fp32,stride_xm=i32,stride_xn=i32";
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16"};
  c.args = {KArg::tensor(random_tensor(d, {m * n}, 3)),
            KArg::tensor(HostTensor(d, {m * n})),
            KArg::integer(m),
            KArg::integer(n),
            KArg::integer(r0),
            KArg::integer(c0),
            KArg::floating(other),
            KArg::integer(transposed ? 1 : n),
            KArg::integer(transposed ? m : 1)};
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  return c;
}

TEST(ChipRectMask, TwoDimensionalNarrowTypesFillOtherExactly) {
  expect_close(window_2d_copy(DType::Float16, 21, 19, 3, 2, -0.75, false), 0, 0);
  expect_close(window_2d_copy(DType::BFloat16, 21, 19, 3, 2, 1.25, true), 0, 0);
  expect_close(window_2d_copy(DType::Int8, 19, 21, 1, 4, 9, false), 0, 0);
  expect_close(window_2d_copy(DType::Float32, 33, 17, 20, 0, 2.5, true), 0, 0);
}

TEST(ChipRectMask, ATriangleMaskIsExact) {
  for (int64_t n : {16, 11}) {
    DiffCase c;
    c.file = "rect_masks.py";
    c.kernel = "lower_triangle";
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,n=i32";
    c.constexprs = {"BLOCK=16"};
    c.args = {KArg::tensor(random_tensor(DType::Float32, {256}, 8)),
              KArg::tensor(HostTensor(DType::Float32, {256})), KArg::integer(n)};
    c.grid.x = 1;
    expect_close(c, 0, 0);
  }
}

// The emitted IR: a rectangle mask needs no element loop that LLVM would
// vectorize (its fallback loop is marked not to be), the triangle keeps one.
std::string llir_of(const std::string &kernel, const std::string &signature,
                    const std::vector<std::string> &constexprs) {
  register_codegen_stages();
  CompileOptions o;
  o.kernel = kernel;
  add_signature(o.spec, signature);
  for (auto &e : constexprs) add_constexpr(o.spec, e);
  CompileState s = compile_file(kernel_path("rect_masks.py"), o, "llir");
  return dump_stage(s, "llir");
}

TEST(ChipRectMask, RectangleMasksEmitAClampedDmaAndAColdElementPath) {
  std::string rect = llir_of(
      "window_copy", "x_ptr=*fp32,y_ptr=*fp32,n=i32,lo=i32,hi=i32,other=fp32", {"BLOCK=64"});
  EXPECT_NE(rect.find("llvm.vp.store"), std::string::npos) << "the fill of `other`";
  EXPECT_NE(rect.find("llvm.loop.vectorize.enable\", i1 false"), std::string::npos)
      << "the wrap fallback is not vectorized";
  // The fallback is a cold region, which the backend outlines into a
  // function of its own that LLVM does not optimize (llir_cold.cpp,
  // llvm_outline.cpp; codegen_llir_records_test.cpp checks the function).
  EXPECT_NE(rect.find("!opforge.cold !{!\"__opforge_cold_0\"}"), std::string::npos) << rect;
  EXPECT_NE(rect.find("!opforge.cold.end !{}"), std::string::npos);
  std::string tri = llir_of("lower_triangle", "x_ptr=*fp32,y_ptr=*fp32,n=i32", {"BLOCK=16"});
  EXPECT_EQ(tri.find("llvm.loop.vectorize.enable"), std::string::npos)
      << "a triangle is not a rectangle: its element loops stay vectorizable";
}

}  // namespace
}  // namespace opforge::compiler::testing
