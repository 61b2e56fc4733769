//===- chip_coverage_test.cpp - scans, atomics and while loops: chip vs IR interpreter ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// Every tensor of the chip run within rtol/atol of the interpreter's (bit-exact
// when both are 0; NaN matches NaN). Returns the chip's tensors.
std::vector<HostTensor> expect_same(const DiffCase &c, double rtol = 0, double atol = 0) {
  return expect_chip_close(c, rtol, atol).tensors;
}

HostTensor filled(DType d, std::vector<int64_t> sizes, double v) {
  HostTensor t(d, std::move(sizes));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, v);
  return t;
}

DiffCase scan_2d(DType d, int64_t m, int64_t n, int axis, bool reverse) {
  DiffCase c;
  c.file = "scan_2d.py";
  std::string t = tl_type(d);
  c.signature = "x_ptr=*" + t + ",sum_ptr=*" + t + ",prod_ptr=*" + t + ",M=i32,N=i32";
  c.constexprs = {"AXIS=" + std::to_string(axis),
                  std::string("REVERSE=") + (reverse ? "True" : "False"), "BLOCK_M=8",
                  "BLOCK_N=16"};
  HostTensor x = random_tensor(d, {m, n}, 11);
  if (!dtype_is_float(d))  // keep products from overflowing into the same bits by luck
    for (int64_t i = 0; i < x.numel(); ++i) x.set_int(i, x.get_int(i) % 5);
  c.args = {KArg::tensor(x), KArg::tensor(HostTensor(d, {m, n})),
            KArg::tensor(HostTensor(d, {m, n})), KArg::integer(m), KArg::integer(n)};
  c.grid.x = 1;
  return c;
}

TEST(ChipScan, CumsumAndCumprodAlongRowsOfAPartialFp32TileAreBitExact) {
  expect_same(scan_2d(DType::Float32, 7, 13, 1, false));
}

TEST(ChipScan, ReverseCumsumAlongColumnsIsBitExact) {
  expect_same(scan_2d(DType::Float32, 8, 16, 0, true));
}

TEST(ChipScan, Int32ScansWrapLikeTheInterpreter) {
  expect_same(scan_2d(DType::Int32, 5, 16, 1, true));
  expect_same(scan_2d(DType::Int32, 8, 9, 0, false));
}

TEST(ChipScan, Bf16AndFp16ScansRoundEveryStepLikeTheInterpreter) {
  expect_same(scan_2d(DType::BFloat16, 8, 11, 1, false));
  expect_same(scan_2d(DType::Float16, 6, 16, 0, false));
}

TEST(ChipScan, AssociativeScanWithATwoOperandCombineFunctionIsExact) {
  const int64_t rows = 3, cols = 50;
  DiffCase c;
  c.file = "scan_running_argmax.py";
  c.signature = "x_ptr=*fp32,val_ptr=*fp32,idx_ptr=*i32,n_cols=i32";
  c.constexprs = {"BLOCK=64"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {rows, cols}, 12)),
            KArg::tensor(HostTensor(DType::Float32, {rows, cols})),
            KArg::tensor(HostTensor(DType::Int32, {rows, cols})), KArg::integer(cols)};
  c.grid.x = rows;
  auto out = expect_same(c);
  // The running maximum never decreases along a row.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 1; k < cols; ++k)
      EXPECT_GE(out[1].get_double(r * cols + k), out[1].get_double(r * cols + k - 1));
}

TEST(ChipAtomics, ProgramsRacingOnBinSumsAndScalarStatsMatchTheInterpreter) {
  const int64_t n = 300, block = 32, nbins = 16;
  DiffCase c;
  c.file = "atomic_rmw.py";
  c.signature =
      "x_ptr=*i32,hist_ptr=*i32,stats_ptr=*i32,fsum_ptr=*fp32,slots_ptr=*i32,"
      "old_ptr=*i32,n=i32";
  c.constexprs = {"NBINS=" + std::to_string(nbins), "BLOCK=" + std::to_string(block)};
  HostTensor stats(DType::Int32, {5});
  stats.set_int(0, -5000);
  stats.set_int(1, 5000);
  stats.set_int(2, 0);
  stats.set_int(3, -1);
  stats.set_int(4, 0x5a5a);
  c.args = {KArg::tensor(random_tensor(DType::Int32, {n}, 13)),
            KArg::tensor(HostTensor(DType::Int32, {nbins})),
            KArg::tensor(stats),
            KArg::tensor(HostTensor(DType::Float32, {(n + block - 1) / block})),
            KArg::tensor(random_tensor(DType::Int32, {n}, 14)),
            KArg::tensor(filled(DType::Int32, {n}, 7)),
            KArg::integer(n)};
  c.grid.x = (n + block - 1) / block;  // 10 programs on the tiny chip's PEs
  auto out = expect_same(c);
  int64_t total = 0, want = 0;
  for (int64_t b = 0; b < nbins; ++b) total += out[1].get_int(b);
  for (int64_t i = 0; i < n; ++i) want += c.args[0].t.get_int(i);
  EXPECT_EQ(total, want) << "every element added once";
}

DiffCase atomic_float(DType d, int64_t n) {
  const int64_t block = 16;
  int64_t padded = (n + block - 1) / block * block;
  DiffCase c;
  c.file = "atomic_float.py";
  std::string t = tl_type(d);
  c.signature = "acc_ptr=*" + t + ",mx_ptr=*" + t + ",cas_ptr=*" + t + ",x_ptr=*" + t +
                ",old_add_ptr=*" + t + ",old_max_ptr=*" + t + ",old_cas_ptr=*" + t + ",n=i32";
  c.constexprs = {"BLOCK=" + std::to_string(block)};
  HostTensor mx = random_tensor(d, {n}, 16);
  mx.set_double(1, std::nan(""));
  c.args = {KArg::tensor(random_tensor(d, {n}, 15)),
            KArg::tensor(mx),
            KArg::tensor(random_tensor(d, {padded}, 17)),
            KArg::tensor(random_tensor(d, {padded}, 17)),
            KArg::tensor(HostTensor(d, {n})),
            KArg::tensor(HostTensor(d, {n})),
            KArg::tensor(HostTensor(d, {n})),
            KArg::integer(n)};
  c.grid.x = padded / block;
  return c;
}

TEST(ChipAtomics, Fp32AddMaxMinAndCasReturnTheOldValuesBitExact) {
  expect_same(atomic_float(DType::Float32, 37));
}

TEST(ChipAtomics, Bf16AndFp16AtomicsOnHalfWordsAreBitExact) {
  expect_same(atomic_float(DType::BFloat16, 21));
  expect_same(atomic_float(DType::Float16, 16));
}

TEST(ChipAtomics, RacingTicketsArePermutationsAndIntegerCasReturnsWhatItFound) {
  const int64_t programs = 12, rounds = 3;
  DiffCase c;
  c.file = "atomic_ticket.py";
  c.signature = "counter_ptr=*i32,tickets_ptr=*i32,slots_ptr=*i32,found_ptr=*i32";
  c.constexprs = {"ROUNDS=" + std::to_string(rounds)};
  HostTensor slots(DType::Int32, {programs});
  for (int64_t p = 0; p < programs; ++p) slots.set_int(p, p % 3 == 0 ? p : 100 + p);
  c.args = {KArg::tensor(HostTensor(DType::Int32, {1})),
            KArg::tensor(HostTensor(DType::Int32, {programs * rounds})), KArg::tensor(slots),
            KArg::tensor(HostTensor(DType::Int32, {programs}))};
  c.grid.x = programs;
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
  EXPECT_EQ(chip.tensors[0].get_int(0), programs * rounds);
  std::vector<int64_t> tickets;
  for (int64_t i = 0; i < programs * rounds; ++i) tickets.push_back(chip.tensors[1].get_int(i));
  // Each program's own tickets increase; all tickets together are 0..n-1.
  for (int64_t p = 0; p < programs; ++p)
    for (int64_t r = 1; r < rounds; ++r)
      EXPECT_LT(tickets[p * rounds + r - 1], tickets[p * rounds + r]);
  std::sort(tickets.begin(), tickets.end());
  for (int64_t i = 0; i < programs * rounds; ++i) EXPECT_EQ(tickets[i], i);
  auto ref = run_interp(c);
  EXPECT_EQ(ref[0].get_int(0), programs * rounds);
  for (int64_t p = 0; p < programs; ++p) {
    EXPECT_EQ(chip.tensors[2].get_int(p), ref[2].get_int(p)) << "slot " << p;
    EXPECT_EQ(chip.tensors[3].get_int(p), slots.get_int(p)) << "cas of program " << p;
  }
}

DiffCase while_case(int64_t n, int64_t trips) {
  const int64_t block = 32;
  DiffCase c;
  c.file = "while_loops.py";
  c.signature = "x_ptr=*i32,y_ptr=*i32,rounds_ptr=*i32,z_ptr=*fp32,n=i32,trips=i32";
  c.constexprs = {"LIMIT=10", "BLOCK=" + std::to_string(block)};
  int64_t programs = (n + block - 1) / block;
  HostTensor x = random_tensor(DType::Int32, {n}, 18);
  for (int64_t i = 0; i < n; ++i) x.set_int(i, x.get_int(i) * (1 + i % 7) * 40);
  c.args = {KArg::tensor(x),
            KArg::tensor(HostTensor(DType::Int32, {n})),
            KArg::tensor(filled(DType::Int32, {programs}, -1)),
            KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::integer(n),
            KArg::integer(trips)};
  c.grid.x = programs;
  return c;
}

TEST(ChipWhile, DataDependentBlockLoopAndRuntimeTripCountAreBitExact) {
  auto out = expect_same(while_case(70, 5));
  bool some_rounds = false;
  for (int64_t p = 0; p < out[2].numel(); ++p) some_rounds |= out[2].get_int(p) > 0;
  EXPECT_TRUE(some_rounds) << "the data-dependent loop ran";
}

TEST(ChipWhile, ZeroTripLoopsLeaveTheirInitialValues) { expect_same(while_case(20, 0)); }

}  // namespace
}  // namespace opforge::compiler::testing

namespace opforge::compiler::testing {
namespace {

TEST(ChipShape, InterleaveJoinAndSplitAreExact) {
  DiffCase c;
  c.file = "join_split.py";
  c.signature = "a_ptr=*fp32,b_ptr=*fp32,inter_ptr=*fp32,diff_ptr=*fp32";
  c.constexprs = {"BLOCK=16"};
  HostTensor a = random_tensor(DType::Float32, {16}, 21),
             b = random_tensor(DType::Float32, {16}, 22);
  c.args = {KArg::tensor(a), KArg::tensor(b), KArg::tensor(HostTensor(DType::Float32, {32})),
            KArg::tensor(HostTensor(DType::Float32, {16}))};
  auto out = expect_same(c);
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_EQ(out[2].get_double(2 * i), a.get_double(i));
    EXPECT_EQ(out[2].get_double(2 * i + 1), b.get_double(i));
    EXPECT_EQ(out[3].get_double(i),
              static_cast<double>(static_cast<float>(static_cast<float>(b.get_double(i)) -
                                                     static_cast<float>(a.get_double(i)) * 2.0f)));
  }
}

}  // namespace
}  // namespace opforge::compiler::testing

namespace opforge::compiler::testing {
namespace {

TEST(ChipBlockPtr, AdvancedInALoopWithBoundaryChecksIsExact) {
  const int64_t m = 21, n = 37;
  DiffCase c;
  c.file = "block_ptr_rows.py";
  c.signature = "x_ptr=*fp32,out_ptr=*fp32,M=i32,N=i32,stride_m=i32";
  c.constexprs = {"BM=8", "BN=16"};
  c.args = {KArg::tensor(random_tensor(DType::Float32, {m, n}, 31)),
            KArg::tensor(HostTensor(DType::Float32, {m})), KArg::integer(m), KArg::integer(n),
            KArg::integer(n)};
  c.grid.x = (m + 7) / 8;
  expect_same(c);
}

TEST(ChipBlockPtr, Rank3BlockWithNanPaddingAndStridedInputIsExact) {
  const int64_t a = 5, b = 3, cdim = 6;
  DiffCase c;
  c.file = "block_ptr_3d.py";
  c.signature = "x_ptr=*fp32,y_ptr=*fp32,s_ptr=*fp32,A=i32,B=i32,C=i32,sa=i32,sb=i32,sc=i32";
  c.constexprs = {"BA=4", "BB=4", "BC=8"};
  // x stored transposed in its last two dimensions: element (i, j, k) at i*B*C + k*B + j.
  c.args = {KArg::tensor(random_tensor(DType::Float32, {a * b * cdim}, 32)),
            KArg::tensor(HostTensor(DType::Float32, {a * b * cdim})),
            KArg::tensor(HostTensor(DType::Float32, {a * cdim})),
            KArg::integer(a),
            KArg::integer(b),
            KArg::integer(cdim),
            KArg::integer(b * cdim),
            KArg::integer(1),
            KArg::integer(b)};
  c.grid.x = (a + 3) / 4;
  expect_same(c);
}

DiffCase block_ptr_matmul(DType d, int64_t m, int64_t n, int64_t k) {
  DiffCase c;
  c.file = "block_ptr_matmul.py";
  c.signature = matmul_signature(d, DType::Float32);
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16", "BLOCK_K=16"};  // the tiny preset's DPE tile
  c.args = matmul_args(d, DType::Float32, m, n, k, 33);
  c.grid.x = (m + 15) / 16;
  c.grid.y = (n + 15) / 16;
  return c;
}

// Same tolerance as the DPE matmul tests (fmaf accumulation vs a rounded double sum).
TEST(ChipBlockPtr, MatmulThroughBlockPointersWithPartialTilesMatches) {
  expect_same(block_ptr_matmul(DType::BFloat16, 40, 33, 70), 1e-5, 1e-5);
  expect_same(block_ptr_matmul(DType::Float32, 32, 64, 32), 1e-5, 1e-5);
}

}  // namespace
}  // namespace opforge::compiler::testing
