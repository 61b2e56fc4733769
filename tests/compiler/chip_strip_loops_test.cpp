//===- chip_strip_loops_test.cpp - RVV strip loops of element-wise bodies vs the interpreter ===//
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>

#include "diff_harness.h"
#include "ir_text.h"

namespace opforge::compiler::testing {
namespace {

// What an output buffer holds before the kernel runs: an element still
// holding it after the chip run was not written.
constexpr double kFloatSentinel = -12345.25;
constexpr int64_t kIntSentinel = 0x7EADBEEF;

HostTensor filled(DType d, int64_t n, double f, int64_t i) {
  HostTensor t(d, {n});
  for (int64_t k = 0; k < n; ++k) {
    if (dtype_is_float(d))
      t.set_double(k, f);
    else
      t.set_int(k, i);
  }
  return t;
}

HostTensor sentinel_tensor(DType d, int64_t n) {
  return filled(d, n, kFloatSentinel, kIntSentinel);
}

// int32 values over the whole range (high bits set, both signs).
HostTensor wide_ints(int64_t n, uint32_t seed) {
  HostTensor t(DType::Int32, {n});
  std::mt19937 rng(seed);
  for (int64_t k = 0; k < n; ++k) t.set_int(k, static_cast<int32_t>(rng()));
  return t;
}

// The raw bytes of element k (the low element_size() bytes).
uint64_t bits_of(const HostTensor &t, int64_t k) {
  uint64_t b = 0;
  std::memcpy(&b, t.element_ptr(t.linear_to_offset(k)), t.element_size());
  return b;
}

// Element k as its value and, for floats, its bit pattern.
std::string describe(const HostTensor &t, int64_t k) {
  char hex[32];
  std::snprintf(hex, sizeof hex, " (0x%llx)", static_cast<unsigned long long>(bits_of(t, k)));
  if (dtype_is_float(t.dtype())) return std::to_string(t.get_double(k)) + hex;
  return std::to_string(t.get_int(k));
}

// The llir stage's text of the case's kernel.
std::string llir_of(const DiffCase &c) {
  register_codegen_stages();
  CompileState s = compile_file(kernel_path(c.file), options(c), "llir");
  return dump_stage(s, "llir");
}

// Runs `c` on the interpreter and on the chip: every tensor bit-identical
// (NaNs included: HostTensor::equals compares bytes); the tensor at
// each of `outs` holds no sentinel element afterwards on the chip.
ChipRun expect_bit_identical(const DiffCase &c, const std::vector<size_t> &outs) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  EXPECT_TRUE(chip.launch.ok()) << (chip.launch.traps.empty() ? "" : chip.launch.traps.front());
  EXPECT_EQ(ref.size(), chip.tensors.size());
  for (size_t t = 0; t < ref.size() && t < chip.tensors.size(); ++t) {
    if (ref[t].equals(chip.tensors[t])) continue;
    int shown = 0;
    std::string diffs;
    for (int64_t k = 0; k < ref[t].numel() && shown < 8; ++k) {
      if (bits_of(ref[t], k) == bits_of(chip.tensors[t], k)) continue;
      ++shown;
      diffs += "\n  element " + std::to_string(k) + ": chip " + describe(chip.tensors[t], k) +
               " interpreter " + describe(ref[t], k);
    }
    ADD_FAILURE() << c.kernel << " tensor " << t << " differs bitwise:" << diffs;
  }
  for (size_t out : outs) {
    const HostTensor &o = chip.tensors.at(out);
    const uint64_t sentinel = bits_of(sentinel_tensor(o.dtype(), 1), 0);
    int64_t unwritten = 0;
    for (int64_t k = 0; k < o.numel(); ++k) unwritten += bits_of(o, k) == sentinel;
    EXPECT_EQ(unwritten, 0) << c.kernel << ": elements of tensor " << out << " never written";
  }
  return chip;
}

// float_ops(X, Y, Z, O, n, OP, BLOCK) over n elements, one program a block.
DiffCase float_ops(const std::string &op, int64_t n, int64_t block, uint32_t seed) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "float_ops";
  c.signature = "X=*fp32,Y=*fp32,Z=*fp32,O=*fp32,n=i32";
  c.constexprs = {"OP='" + op + "'", "BLOCK=" + std::to_string(block)};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {n}, seed)),
            KArg::tensor(random_tensor(DType::Float32, {n}, seed + 1)),
            KArg::tensor(random_tensor(DType::Float32, {n}, seed + 2)),
            KArg::tensor(sentinel_tensor(DType::Float32, n)), KArg::integer(n)};
  c.grid.x = (n + block - 1) / block;
  return c;
}

// NaN in X every 5th element, in Y every 7th (both every 35th); with
// `signed_zeros`, also -0 against +0 and +0 against -0.
void put_nans(DiffCase &c, bool signed_zeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  HostTensor &x = c.args[0].t, &y = c.args[1].t;
  for (int64_t k = 0; k < x.numel(); ++k) {
    if (k % 5 == 0) x.set_double(k, nan);
    if (k % 7 == 0) y.set_double(k, nan);
    if (signed_zeros && k % 11 == 1) x.set_double(k, -0.0), y.set_double(k, 0.0);
    if (signed_zeros && k % 13 == 1) x.set_double(k, 0.0), y.set_double(k, -0.0);
  }
}

// Every float_ops OP and the llvm.vp / llvm.riscv intrinsics its strip loop
// uses. Unary minus is 0 - x in the frontend (as in Triton): a vector fsub.
struct OpCase {
  const char *op;
  std::vector<const char *> intrinsics;
};

const OpCase kFloatOps[] = {
    {"div", {"@llvm.vp.fdiv."}},
    {"neg", {"@llvm.vp.fsub.", "@llvm.vp.fmul."}},
    {"sqrt_abs", {"@llvm.vp.sqrt.", "@llvm.vp.fabs.", "@llvm.vp.fsub."}},
    {"fma", {"@llvm.vp.fma."}},
    {"max", {"@llvm.riscv.vfmax."}},
    {"min", {"@llvm.riscv.vfmin."}},
    // propagate_nan=ALL: vfmax/vfmin, then NaN where an input is unordered.
    {"max_nan", {"@llvm.riscv.vfmax.", "metadata !\"uno\"", "@llvm.vp.select."}},
    {"min_nan", {"@llvm.riscv.vfmin.", "metadata !\"uno\"", "@llvm.vp.select."}},
    {"where", {"metadata !\"ogt\"", "@llvm.vp.select.", "@llvm.vp.fmul.", "@llvm.vp.fsub."}}};

// The llir of `c` runs a vsetvli strip loop using every one of `intrinsics`.
void expect_strip_loop(const DiffCase &c, const std::vector<const char *> &intrinsics) {
  std::string ir = llir_of(c);
  EXPECT_GE(count(ir, "@llvm.riscv.vsetvli"), 1u) << ir;
  for (const char *i : intrinsics) EXPECT_GE(count(ir, i), 1u) << i << "\n" << ir;
}

TEST(ChipStripLoops, Fp32OperationsAreStripLoops) {
  for (auto &[op, intrinsics] : kFloatOps) {
    SCOPED_TRACE(op);
    expect_strip_loop(float_ops(op, 37, 64, 1), intrinsics);
  }
}

TEST(ChipStripLoops, Fp32OperationsMatchTheInterpreterWithPartialBlocks) {
  for (const OpCase &o : kFloatOps) {
    SCOPED_TRACE(o.op);
    // One partial block of 1000 in 1024; 37 in blocks of 16 (two full, one partial).
    expect_bit_identical(float_ops(o.op, 1000, 1024, 11), {3});
    expect_bit_identical(float_ops(o.op, 37, 16, 21), {3});
  }
}

TEST(ChipStripLoops, Fp32OperationsWithNaNInputsMatchTheInterpreter) {
  // The NaNs put in X and Y are the default NaN (0x7fc00000), the one RVV
  // operations return for NaN operands and the one the interpreter passes
  // on; x > y of tl.where is false where an input is NaN.
  for (const OpCase &o : kFloatOps) {
    SCOPED_TRACE(o.op);
    DiffCase c = float_ops(o.op, 1000, 1024, 26);
    put_nans(c, false);
    expect_bit_identical(c, {3});
  }
}

TEST(ChipStripLoops, MaximumAndMinimumWithNaNsMatchTheInterpreter) {
  // tl.maximum / tl.minimum without propagate_nan get no -0 against +0: the
  // interpreter's std::fmax / std::fmin may return either zero there, RISC-V
  // fmax / vfmax orders -0 below +0 (the scalar llvm.maxnum path as well).
  for (const char *op : {"max", "min"}) {
    SCOPED_TRACE(op);
    DiffCase c = float_ops(op, 1000, 1024, 31);
    put_nans(c, false);
    ChipRun r = expect_bit_identical(c, {3});
    // Where exactly one input is NaN the number wins; both NaN give NaN.
    const HostTensor &o = r.tensors[3];
    EXPECT_FALSE(std::isnan(o.get_double(5)));
    EXPECT_EQ(o.get_double(5), c.args[1].t.get_double(5));
    EXPECT_TRUE(std::isnan(o.get_double(35)));
  }
  for (const char *op : {"max_nan", "min_nan"}) {
    SCOPED_TRACE(op);
    DiffCase c = float_ops(op, 1000, 1024, 41);
    put_nans(c, true);
    ChipRun r = expect_bit_identical(c, {3});
    // propagate_nan=ALL: one NaN input gives NaN.
    EXPECT_TRUE(std::isnan(r.tensors[3].get_double(5)));
    EXPECT_TRUE(std::isnan(r.tensors[3].get_double(7)));
  }
}

// int_ops(A, B, O, n, OP, BLOCK): A over the whole int32 range, B small
// (-100..99: shift amounts beyond 31 and negative ones too).
DiffCase int_ops(const std::string &op, int64_t n, int64_t block, uint32_t seed) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "int_ops";
  c.signature = "A=*i32,B=*i32,O=*i32,n=i32";
  c.constexprs = {"OP='" + op + "'", "BLOCK=" + std::to_string(block)};
  c.args = {KArg::tensor(wide_ints(n, seed)),
            KArg::tensor(random_tensor(DType::Int32, {n}, seed + 1)),
            KArg::tensor(sentinel_tensor(DType::Int32, n)), KArg::integer(n)};
  c.grid.x = (n + block - 1) / block;
  return c;
}

// Shift amounts are masked to 0..31 (vp.and), as the interpreter does.
const OpCase kIntOps[] = {{"add_mul", {"@llvm.vp.add.", "@llvm.vp.sub.", "@llvm.vp.mul."}},
                          {"bitwise", {"@llvm.vp.and.", "@llvm.vp.or.", "@llvm.vp.xor."}},
                          {"shl", {"@llvm.vp.and.", "@llvm.vp.shl."}},
                          {"shr", {"@llvm.vp.and.", "@llvm.vp.ashr."}},
                          {"max_min", {"@llvm.riscv.vmax.", "@llvm.riscv.vmin."}}};

TEST(ChipStripLoops, Int32OperationsAreStripLoops) {
  for (auto &[op, intrinsics] : kIntOps) {
    SCOPED_TRACE(op);
    expect_strip_loop(int_ops(op, 37, 64, 1), intrinsics);
  }
}

TEST(ChipStripLoops, Int32OperationsMatchTheInterpreterWithPartialBlocks) {
  for (const OpCase &o : kIntOps) {
    SCOPED_TRACE(o.op);
    expect_bit_identical(int_ops(o.op, 1000, 1024, 51), {2});
    expect_bit_identical(int_ops(o.op, 37, 16, 61), {2});
  }
}

TEST(ChipStripLoops, Int32DivisionFallsBackToTheElementLoopAndMatches) {
  // No strip form for integer division: the whole body is the scalar loop.
  DiffCase c = int_ops("div_mul", 1000, 1024, 66);
  c.args[0].t.set_int(0, std::numeric_limits<int32_t>::min());  // INT_MIN / -1 wraps
  c.args[1].t.set_int(0, -1);
  std::string ir = llir_of(c);
  EXPECT_GE(count(ir, "sdiv i32"), 1u) << ir;
  EXPECT_EQ(count(ir, "@llvm.vp.mul."), 0u) << ir;
  expect_bit_identical(c, {2});
}

TEST(ChipStripLoops, Uint32ShiftsMinMaxAndToFp32MatchTheInterpreter) {
  // *u32 buffers (int32 host tensors, the same bits): lshr, vmaxu/vminu, uitofp.
  for (int64_t n : {1000L, 37L}) {
    SCOPED_TRACE(n);
    DiffCase c;
    c.file = "strip_ops.py";
    c.kernel = "uint_ops";
    c.signature = "A=*u32,B=*u32,O=*u32,F=*fp32,n=i32";
    c.constexprs = {"BLOCK=" + std::string(n == 37 ? "16" : "1024")};
    c.args = {KArg::tensor(wide_ints(n, 111)), KArg::tensor(random_tensor(DType::Int32, {n}, 112)),
              KArg::tensor(sentinel_tensor(DType::Int32, n)),
              KArg::tensor(sentinel_tensor(DType::Float32, n)), KArg::integer(n)};
    c.args[0].t.set_int(0, -1);  // 0xffffffff: 2^32 - 1 rounds up to 2^32
    c.grid.x = n == 37 ? 3 : 1;
    expect_strip_loop(
        c, {"@llvm.vp.lshr.", "@llvm.riscv.vmaxu.", "@llvm.riscv.vminu.", "@llvm.vp.uitofp."});
    ChipRun r = expect_bit_identical(c, {2, 3});
    EXPECT_EQ(r.tensors[3].get_double(0), 4294967296.0);
  }
}

TEST(ChipStripLoops, Bf16RowsCopiedInALoopKeepTheirBits) {
  // In a loop the store packs its block from the load's buffer: bf16 strips
  // widened (zext, shl) and narrowed (lshr, trunc) again.
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "copy_rows";
  c.signature = "X=*bf16,O=*bf16,n=i32";
  c.constexprs = {"ROWS=3", "BLOCK=64"};
  const int64_t n = 45;
  HostTensor x = random_tensor(DType::BFloat16, {3 * n}, 121);
  // -0, +inf, -inf, a subnormal, the largest finite and two quiet NaNs (one
  // negative, with a payload), as bits. (A signaling NaN is left out: the
  // interpreter quiets it on the way through double, the chip copies bits.)
  const uint16_t special[] = {0x8000, 0x7f80, 0xff80, 0x0001, 0x7f7f, 0x7fc0, 0xffc1};
  for (size_t k = 0; k < std::size(special); ++k)
    std::memcpy(x.element_ptr(x.linear_to_offset(static_cast<int64_t>(7 * k))), &special[k], 2);
  c.args = {KArg::tensor(x), KArg::tensor(sentinel_tensor(DType::BFloat16, 3 * n)),
            KArg::integer(n)};
  c.grid.x = 1;
  expect_strip_loop(c, {"@llvm.vp.zext.", "@llvm.vp.shl.", "@llvm.vp.lshr.", "@llvm.vp.trunc."});
  ChipRun r = expect_bit_identical(c, {1});
  EXPECT_TRUE(r.tensors[1].equals(x)) << r.tensors[1].to_string(200);
}

TEST(ChipStripLoops, Int32ToFp32RoundsLikeTheInterpreter) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "int_to_float";
  c.signature = "A=*i32,F=*fp32,n=i32";
  c.constexprs = {"BLOCK=1024"};
  // Values beyond 2^24 round (ties included: 2^24 + 1, 2^24 + 3).
  HostTensor a = wide_ints(1000, 71);
  a.set_int(0, (1 << 24) + 1);
  a.set_int(1, (1 << 24) + 3);
  a.set_int(2, std::numeric_limits<int32_t>::min());
  a.set_int(3, std::numeric_limits<int32_t>::max());
  c.args = {KArg::tensor(a), KArg::tensor(sentinel_tensor(DType::Float32, 1000)),
            KArg::integer(1000)};
  c.grid.x = 1;
  expect_strip_loop(c, {"@llvm.vp.sitofp.", "@llvm.vp.fmul."});
  ChipRun r = expect_bit_identical(c, {1});
  EXPECT_EQ(r.tensors[1].get_double(0), 0.5 * 16777216.0);
  EXPECT_EQ(r.tensors[1].get_double(1), 0.5 * 16777220.0);
}

TEST(ChipStripLoops, Fp32ComparisonStoredAsBoolMatchesTheInterpreter) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "compare_store";
  c.signature = "X=*fp32,Y=*fp32,M=*i1,n=i32";
  c.constexprs = {"BLOCK=64"};
  const int64_t n = 37;
  c.args = {KArg::tensor(random_tensor(DType::Float32, {n}, 81)),
            KArg::tensor(random_tensor(DType::Float32, {n}, 82)),
            KArg::tensor(HostTensor(DType::Bool, {n})), KArg::integer(n)};
  c.args[1].t.set_double(3, c.args[0].t.get_double(3));  // equal: not less
  put_nans(c, false);
  c.grid.x = 1;
  // The i1 lanes are stored as bytes (vp.zext to i8).
  expect_strip_loop(c, {"metadata !\"olt\"", "@llvm.vp.zext.nxv16i8.nxv16i1"});
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok());
  EXPECT_TRUE(ref[2].equals(chip.tensors[2]))
      << "chip: " << chip.tensors[2].to_string(64) << "\ninterpreter: " << ref[2].to_string(64);
  // The output was written: some comparisons hold (the buffer started all false).
  int64_t trues = 0;
  for (int64_t k = 0; k < n; ++k) trues += chip.tensors[2].get_int(k) != 0;
  EXPECT_GT(trues, 0);
  EXPECT_LT(trues, n);
  EXPECT_EQ(chip.tensors[2].get_int(0), 0);  // NaN < y
  EXPECT_EQ(chip.tensors[2].get_int(3), 0);  // x == y
}

TEST(ChipStripLoops, RowVectorBroadcastAlongColumnsWithPartialEdges) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "row_col_tile";
  c.signature = "X=*fp32,Y=*fp32,O=*fp32,M=i32,N=i32";
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=32"};
  const int64_t m = 37, n = 45;  // partial last row tile and column tile
  c.args = {KArg::tensor(random_tensor(DType::Float32, {m}, 91)),
            KArg::tensor(random_tensor(DType::Float32, {n}, 92)),
            KArg::tensor(sentinel_tensor(DType::Float32, m * n)), KArg::integer(m),
            KArg::integer(n)};
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 31) / 32;
  expect_strip_loop(c, {"@llvm.vp.fmul.", "@llvm.vp.fadd."});
  ChipRun r = expect_bit_identical(c, {2});
  // O[i][j] = X[i] + Y[j] * 3, each operation rounded to fp32 (no fused multiply-add).
  const HostTensor &o = r.tensors[2];
  for (int64_t i : {0L, 17L, m - 1})
    for (int64_t j : {0L, 31L, 32L, n - 1}) {
      float want = static_cast<float>(c.args[0].t.get_double(i)) +
                   static_cast<float>(c.args[1].t.get_double(j)) * 3.0f;
      EXPECT_EQ(static_cast<float>(o.get_double(i * n + j)), want) << i << "," << j;
    }
}

TEST(ChipStripLoops, DataDependentWhereInAReductionLevel0) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "where_row_sums";
  c.signature = "X=*fp32,S=*fp32,n=i32";
  c.constexprs = {"BLOCK=1024"};
  const int64_t rows = 3, n = 1000;
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows * n}, 101)),
            KArg::tensor(sentinel_tensor(DType::Float32, rows)), KArg::integer(n)};
  c.grid.x = rows;
  expect_strip_loop(c, {"metadata !\"ogt\"", "@llvm.vp.select.", "@llvm.vp.fadd."});
  expect_bit_identical(c, {1});
}

// A uniform block is a scalar in a strip loop: stored, it is splat over
// every element of the strip (not only the strip's first), and a
// reduction's level 0 stores its combine of two scalars as a splat too.
TEST(ChipStripLoops, UniformBlocksFillWholeStrips) {
  DiffCase c;
  c.file = "strip_ops.py";
  c.kernel = "uniform_fill";
  c.signature = "O=*fp32,S=*fp32,v=fp32,n=i32";
  c.constexprs = {"BLOCK=1024"};
  const int64_t n = 2500, programs = 3;
  c.args = {KArg::tensor(sentinel_tensor(DType::Float32, n)),
            KArg::tensor(sentinel_tensor(DType::Float32, programs)), KArg::floating(1.75),
            KArg::integer(n)};
  c.grid.x = programs;
  expect_strip_loop(c, {"@llvm.vp.store."});
  ChipRun chip = expect_bit_identical(c, {0, 1});
  ASSERT_EQ(chip.tensors.size(), 2u);
  for (int64_t k = 0; k < n; ++k) ASSERT_EQ(chip.tensors[0].get_double(k), 3.5) << "element " << k;
  EXPECT_EQ(chip.tensors[1].get_double(0), 3.5 * 1024);
}

}  // namespace
}  // namespace opforge::compiler::testing
