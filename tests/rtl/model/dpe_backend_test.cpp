//===- dpe_backend_test.cpp - pe.dpe.impl=rtl|lockstep: the verilated DPE in the chip model -===//
//
// Each test case builds one Device (SystemC elaborates once per process;
// ctest runs every case in its own process).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <random>
#include <sstream>

#include "../fst_test_util.h"
#include "dpe_model_test_util.h"
#include "opforge/rtl/dpe_backends.h"
#include "opforge/rtl/dpe_timing.h"
#include "opforge/support/error.h"

namespace opforge::rtl::testing {
namespace {

std::string dtype_name(DpeDType t) {
  static const char *const kNames[] = {"bf16", "fp16", "fp32", "int8"};
  return kNames[int(t)];
}

struct LockstepCase {
  DpeDType dtype;
  MatmulShape shape;
};

std::string case_name(const ::testing::TestParamInfo<LockstepCase> &i) {
  const MatmulShape &s = i.param.shape;
  return dtype_name(i.param.dtype) + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + "_tile" + std::to_string(s.tm) + "x" + std::to_string(s.tn) + "x" +
         std::to_string(s.tk);
}

class DpeLockstepKernel : public ::testing::TestWithParam<LockstepCase> {};

TEST_P(DpeLockstepKernel, ResultsAndCyclesAgreeOnEveryCommandOfEveryPe) {
  register_model_backends();
  model::Device dev(model::load_params("tiny", {"pe.dpe.impl=lockstep"}));
  MatmulKernel kern(GetParam().shape, GetParam().dtype, 7);
  MatmulRun r = run_matmul(dev, kern);
  ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  const std::vector<uint32_t> want = kern.reference();
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(r.c[i], want[i]) << "C[" << i / kern.s.n << "][" << i % kern.s.n << "]";
  const uint32_t pes = dev.params().num_pes();
  for (uint32_t pe = 0; pe < pes; ++pe) {
    const std::string pre = "pe[" + std::to_string(pe / dev.params().grid.cols) + "][" +
                            std::to_string(pe % dev.params().grid.cols) + "].dpe.";
    EXPECT_EQ(dev.counter(pre + "commands"), kern.commands) << pre;
    EXPECT_EQ(dev.counter(pre + "bad_descriptors"), 0u) << pre;
  }
}

INSTANTIATE_TEST_SUITE_P(Tiny, DpeLockstepKernel,
                         ::testing::Values(LockstepCase{DpeDType::BF16, {8, 8, 16, 8, 8, 16}},
                                           LockstepCase{DpeDType::BF16, {16, 16, 32, 16, 16, 16}},
                                           LockstepCase{DpeDType::BF16, {20, 28, 40, 16, 16, 16}},
                                           LockstepCase{DpeDType::BF16, {5, 7, 9, 4, 8, 5}},
                                           LockstepCase{DpeDType::FP16, {12, 24, 20, 8, 16, 16}},
                                           LockstepCase{DpeDType::INT8, {8, 8, 16, 8, 8, 16}},
                                           LockstepCase{DpeDType::INT8, {16, 16, 32, 16, 16, 16}},
                                           LockstepCase{DpeDType::INT8, {20, 28, 41, 16, 16, 16}},
                                           LockstepCase{DpeDType::INT8, {5, 7, 9, 4, 8, 5}}),
                         case_name);

TEST(DpeBackendRtl, BusyCyclesAreTheTlmPrediction) {
  register_model_backends();
  model::Device dev(model::load_params("tiny", {"pe.dpe.impl=rtl"}));
  MatmulKernel kern({20, 28, 41, 16, 16, 16}, DpeDType::INT8, 3);
  MatmulRun r = run_matmul(dev, kern);
  ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  EXPECT_EQ(r.c, kern.reference());
  // The RTL's cycles (booked by the rtl backend) equal dpe_tlm_cycles().
  uint64_t predicted = 0;
  for (const isa::DpeCommand &c : kern.cmds)
    predicted += model::dpe_tlm_cycles(dev.params().dpe, c);
  EXPECT_EQ(dev.counter("pe[0][0].dpe.busy_cycles"), predicted);
  EXPECT_EQ(dev.counter("pe[1][1].dpe.busy_cycles"), predicted);
}

TEST(DpeBackendLockstep, InjectedFaultStopsTheRunWithAPreciseReport) {
  register_model_backends(RtlBackendOptions{100, true});
  model::Device dev(model::load_params("tiny", {"pe.dpe.impl=lockstep"}));
  // C[0][0] = 1 + 1 * 2^-24 is a tie: nearest-even keeps 1.0, the faulty
  // cell (0,0) rounds away to 1 + 2^-23.
  MatmulKernel kern({8, 8, 16, 8, 8, 16}, DpeDType::BF16, 5);
  const uint16_t one = fp32_to_bf16(1.0f), tiny = fp32_to_bf16(std::ldexp(1.0f, -12));
  std::fill(kern.a.begin(), kern.a.begin() + 2 * kern.s.k, 0);
  std::fill(kern.c0.begin(), kern.c0.end(), 0u);
  for (uint32_t kk = 0; kk < kern.s.k; ++kk) {  // column 0 of B
    kern.b[size_t(kk) * kern.s.n * 2] = 0;
    kern.b[size_t(kk) * kern.s.n * 2 + 1] = 0;
  }
  std::memcpy(&kern.a[0], &one, 2);
  std::memcpy(&kern.b[0], &one, 2);
  std::memcpy(&kern.a[2], &tiny, 2);
  std::memcpy(&kern.b[size_t(kern.s.n) * 2], &tiny, 2);
  MatmulRun r = run_matmul(dev, kern);
  ASSERT_FALSE(r.launch.ok());
  const std::string &msg = r.launch.traps.front();
  EXPECT_NE(msg.find("DPE lockstep divergence at pe["), std::string::npos) << msg;
  EXPECT_NE(msg.find("dpe command #0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dpe bf16 m=8 n=8 k=16 acc=1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("C[0][0] (tile 0,0 cell 0,0) expected 0x3f800000 (1) got 0x3f800001"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("cycles expected"), std::string::npos) << msg;
}

TEST(DpeBackendRtl, WaveformOfTheChosenPeWithinTheWindow) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/dpe_backend_trace_test.fst";
  std::remove(path.c_str());
  register_model_backends();
  model::DpeBackendOptions o;
  o.trace = true;
  o.trace_pe_row = 1;
  o.trace_pe_col = 0;
  o.trace_window_cycles = 50;
  o.trace_path = path;
  model::set_dpe_backend_options(o);
  {
    model::Device dev(model::load_params("tiny", {"pe.dpe.impl=rtl"}));
    MatmulKernel kern({16, 16, 32, 16, 16, 16}, DpeDType::BF16, 9);
    MatmulRun r = run_matmul(dev, kern);
    ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  }
  const FstSummary fst = read_fst(path);
  ASSERT_TRUE(fst.opened) << path << " is not an FST file";
  EXPECT_TRUE(fst.has_var("op_valid"));
  // Value changes, and exactly the window's two half-cycle samples per cycle.
  EXPECT_EQ(fst.times.size(), 100u);
  EXPECT_GT(fst.changes, 100u);
  if (!::testing::Test::HasFailure()) std::remove(path.c_str());
}

// bench/micro/dpe_loop.S assembled with GNU binutils: it copies one DPE
// descriptor to local memory and issues it `iters` times back to back, then
// waits: commands the block can chain.
std::string dpe_loop_elf() {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  const fs::path dir =
      fs::temp_directory_path() / ("opforge_dpe_loop_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string src = (root / "bench/micro/dpe_loop.S").string();
  const std::string obj = (dir / "dpe_loop.o").string(), elf = (dir / "dpe_loop.elf").string();
  const std::string as = "riscv64-unknown-elf-as -march=rv64imafdv_zicsr_zifencei -I " +
                         (root / "bench/micro").string() + " -o " + obj + " " + src;
  const std::string ld = "riscv64-unknown-elf-ld -N -Ttext=0x80000000 -o " + elf + " " + obj;
  if (std::system(as.c_str()) != 0 || std::system(ld.c_str()) != 0)
    throw Error("cannot assemble " + src);
  return elf;  // the caller reads it, then removes the directory
}

struct ChainRun {
  model::LaunchResult launch;
  std::vector<uint32_t> c;  // C after the launch (m x n, ldc = n)
  uint64_t busy = 0, chained = 0;
};

// `iters` accumulating m x n x k bf16 commands on PE (0,0) of tiny, C = 0
// and A, B small integers (exact sums).
ChainRun run_dpe_loop(const std::string &impl, uint32_t m, uint32_t n, uint32_t k, uint64_t iters,
                      const std::vector<uint16_t> &a, const std::vector<uint16_t> &b,
                      std::vector<uint32_t> c0 = {}) {
  model::Device dev(model::load_params("tiny", {"pe.dpe.impl=" + impl}));
  const model::ChipParams &p = dev.params();
  const uint64_t lw = p.map.local_window_base, la = p.map.local_alias_base;
  dev.copy_in(lw, a.data(), a.size() * 2);
  dev.copy_in(lw + 16384, b.data(), b.size() * 2);
  c0.resize(size_t(m) * n, 0);
  dev.copy_in(lw + 32768, c0.data(), c0.size() * 4);
  model::KernelLaunch kl;
  kl.grid = {1, 1, 1};
  const std::string elf = dpe_loop_elf();
  kl.image = model::read_elf_file(elf);
  std::filesystem::remove_all(std::filesystem::path(elf).parent_path());
  auto put = [&](auto v) {
    const size_t at = kl.args.size();
    kl.args.resize(at + sizeof(v));
    std::memcpy(&kl.args[at], &v, sizeof(v));
  };
  put(uint64_t{iters});
  put(uint64_t{la});
  put(uint64_t{la + 16384});
  put(uint64_t{la + 32768});
  for (uint32_t v : {m, n, k, k, n, n}) put(v);
  put(uint8_t{0});  // bf16
  put(uint8_t{1});  // accumulate
  kl.args.resize(8 + 64, 0);
  put(uint64_t{0});  // no time stamps
  ChainRun r;
  r.launch = dev.launch(kl);
  r.c.resize(size_t(m) * n);
  dev.copy_out(lw + 32768, r.c.data(), r.c.size() * 4);
  r.busy = dev.counter("pe[0][0].dpe.busy_cycles");
  r.chained = dev.counter("pe[0][0].dpe.chained_cmds");
  return r;
}

// Back-to-back accumulating 16x16x16 commands into one C (a K-loop, 4 tiles
// of the 8x8 array). The loop (three instructions) lies in one instruction
// cache line that its first pass fetched, so every command after the first
// is waiting at its predecessor's pause point and chains, in tlm, rtl and
// lockstep alike. lockstep finds no divergence (results and every head,
// chain and tail cycle count); the busy cycles are that stream's
// (rtl::DpeStreamTiming: one head, the chained commands' compute, one tail),
// fewer than the commands alone; C is iters * A*B.
class DpeBackendChain : public ::testing::TestWithParam<std::string> {};

TEST_P(DpeBackendChain, BackToBackKLoopChainsWithoutDivergence) {
  register_model_backends();
  const uint32_t m = 16, n = 16, k = 16;
  const uint64_t iters = 12;
  std::vector<uint16_t> a(size_t(m) * k), b(size_t(k) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = fp32_to_bf16(float(int(i % 5) - 2));
  for (size_t i = 0; i < b.size(); ++i) b[i] = fp32_to_bf16(float(int(i % 3) - 1));
  DpeStreamTiming stream(DpeArrayShape{8, 8});
  uint64_t want_busy = stream.start(m, n, k, true, false);
  for (uint64_t i = 1; i < iters; ++i) want_busy += stream.chain(m, n, k, true, false);
  want_busy += stream.finish();
  EXPECT_LT(want_busy, iters * dpe_command_cycles(DpeArrayShape{8, 8}, m, n, k, true));
  const std::string impl = GetParam();
  const ChainRun r = run_dpe_loop(impl, m, n, k, iters, a, b);
  ASSERT_TRUE(r.launch.ok()) << impl << ": " << r.launch.traps.front();
  EXPECT_EQ(r.chained, iters - 1);
  EXPECT_EQ(r.busy, want_busy);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float dot = 0;
      for (uint32_t kk = 0; kk < k; ++kk)
        dot += bf16_to_fp32(a[size_t(i) * k + kk]) * bf16_to_fp32(b[size_t(kk) * n + j]);
      ASSERT_EQ(std::bit_cast<float>(r.c[size_t(i) * n + j]), float(iters) * dot)
          << "C[" << i << "][" << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(Impls, DpeBackendChain, ::testing::Values("tlm", "rtl", "lockstep"));

// The broken block (ties rounded away in cell (0,0)) inside a chained
// K-loop: C[0][0] starts at -6 and every command adds 1 then 2^-24, which is
// exact until the tenth command (#9), where 1 + 2^-23 + 2^-24 is a tie with
// an odd neighbour below. #9 is chained; its C is compared when its last row
// is out (while #10 runs), so #10 faults with a report naming #9.
TEST(DpeBackendChainRule, LockstepCatchesAFaultInAChainedCommandWhenItsRowsAreOut) {
  register_model_backends(RtlBackendOptions{100, true});
  const uint32_t m = 16, n = 16, k = 16;
  std::vector<uint16_t> a(size_t(m) * k, 0), b(size_t(k) * n, 0);
  a[0] = fp32_to_bf16(1.0f);
  a[1] = fp32_to_bf16(std::ldexp(1.0f, -12));
  b[0] = fp32_to_bf16(1.0f);
  b[n] = fp32_to_bf16(std::ldexp(1.0f, -12));
  std::vector<uint32_t> c0(size_t(m) * n, 0);
  c0[0] = std::bit_cast<uint32_t>(-6.0f);
  const ChainRun r = run_dpe_loop("lockstep", m, n, k, 12, a, b, c0);
  ASSERT_FALSE(r.launch.ok());
  const std::string &trap = r.launch.traps.front();
  EXPECT_NE(trap.find("DPE lockstep divergence at pe[0][0] dpe command #9 "), std::string::npos)
      << trap;
  EXPECT_NE(trap.find("dpe bf16 m=16 n=16 k=16 acc=1: C[0][0] (tile 0,0 cell 0,0)"),
            std::string::npos)
      << trap;
  EXPECT_NE(trap.find("expected 0x40800000 (4) got 0x40800001"), std::string::npos) << trap;
  EXPECT_GE(r.chained, 8u);  // #2 .. #9 at least
}

// model::DpeStream (the TLM) and rtl::DpeStreamTiming (checked against the
// RTL) give the same head, chained and tail cycles over random streams on
// the presets' arrays (int8: 2 k steps per beat on all of them).
TEST(DpeBackendChainRule, TlmStreamIsTheRtlStreamFormulaOverRandomSequences) {
  std::mt19937 rng(99);
  for (const char *preset : {"tiny", "mtia-2i", "mtia-v1"}) {
    const model::ChipParams p = model::load_params(preset, {});
    const model::DpeArrayDims dims = model::dpe_array_dims(p.dpe);
    model::DpeStream tlm(p.dpe);
    DpeStreamTiming rtl(DpeArrayShape{dims.rows, dims.cols});
    for (int i = 0; i < 400; ++i) {
      isa::DpeCommand c{};
      c.dtype = rng() % 2 ? DpeDType::INT8 : DpeDType::BF16;
      c.m = 1 + rng() % (3 * dims.rows + 1);
      c.n = 1 + rng() % (2 * dims.cols + 1);
      c.k = rng() % (2 * dims.rows + 4);
      c.ldc = c.n;
      c.accumulate = rng() % 2;
      const bool int8 = c.dtype == DpeDType::INT8;
      if (tlm.pending() && rng() % 4 != 0) {
        ASSERT_EQ(tlm.chain(c), rtl.chain(c.m, c.n, c.k, c.accumulate, int8)) << preset << " " << i;
      } else {
        ASSERT_EQ(tlm.finish(), rtl.finish()) << preset << " " << i;
        ASSERT_EQ(tlm.start(c), rtl.start(c.m, c.n, c.k, c.accumulate, int8)) << preset << " " << i;
      }
    }
    EXPECT_EQ(tlm.finish(), rtl.finish());
  }
}

// A single-tile command into the same C cannot chain (its load of C would
// read the rows the previous command writes only afterwards): 8x8x16 on the
// 8x8 array runs every command alone, busy = the sum of the commands.
TEST(DpeBackendChainRule, SingleTileCommandsIntoTheSameCDoNotChain) {
  register_model_backends();
  const uint32_t m = 8, n = 8, k = 16;
  const uint64_t iters = 6;
  std::vector<uint16_t> a(size_t(m) * k, fp32_to_bf16(1.0f)), b(size_t(k) * n, fp32_to_bf16(2.0f));
  const ChainRun r = run_dpe_loop("lockstep", m, n, k, iters, a, b);
  ASSERT_TRUE(r.launch.ok()) << r.launch.traps.front();
  EXPECT_EQ(r.chained, 0u);
  EXPECT_EQ(r.busy, iters * dpe_command_cycles(DpeArrayShape{8, 8}, m, n, k, true));
  EXPECT_EQ(std::bit_cast<float>(r.c[0]), float(iters) * 32.0f);
}

TEST(DpeBackend, UnknownImplIsAnErrorNamingTheField) {
  const model::ChipParams p = model::load_params("tiny");
  try {
    (void)model::make_dpe_backend("gate-level", p, 0, 0);
    FAIL() << "an unregistered DPE implementation was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "pe.dpe.impl");
    EXPECT_NE(std::string(e.what()).find("gate-level"), std::string::npos) << e.what();
  }
  EXPECT_NE(model::make_dpe_backend("tlm", p, 0, 0), nullptr);
}

TEST(DpeBackend, TlmPredictionIsTheRtlCycleFormulaForEveryDtypeAndShape) {
  model::DpeParams p;
  p.macs_per_cycle_bf16 = 64;
  p.macs_per_cycle_int8 = 128;
  p.macs_per_cycle_fp32 = 16;
  const model::DpeArrayDims dims = model::dpe_array_dims(p);
  ASSERT_EQ(dims.rows, 8u);
  ASSERT_EQ(dims.cols, 8u);
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16, DpeDType::INT8})
    for (uint32_t m : {1u, 7u, 8u, 9u, 16u, 33u})
      for (uint32_t n : {1u, 8u, 13u, 64u})
        for (uint32_t k : {1u, 2u, 15u, 16u, 64u})
          for (bool acc : {false, true}) {
            isa::DpeCommand c{0, 0, 0, m, n, k, k, n, n, t, acc};
            ASSERT_EQ(model::dpe_tlm_cycles(p, c), dpe_command_cycles(DpeArrayShape{8, 8}, c))
                << dtype_name(t) << " " << m << "x" << n << "x" << k << " acc " << acc;
          }
  p.macs_per_cycle_bf16 = 1024;
  EXPECT_EQ(model::dpe_array_dims(p).rows, 32u);
  EXPECT_EQ(model::dpe_array_dims(p).cols, 32u);
  p.macs_per_cycle_bf16 = 500;
  EXPECT_EQ(model::dpe_array_dims(p).rows, 16u);
  EXPECT_EQ(model::dpe_array_dims(p).cols, 31u);
}

}  // namespace
}  // namespace opforge::rtl::testing
