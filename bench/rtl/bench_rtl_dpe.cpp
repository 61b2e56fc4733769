//===- bench_rtl_dpe.cpp - RTL co-simulation speed: DPE cycles and SFU elements per host second
//-===//
//
// Prints, for the verilated DPE in burst mode, simulated clock cycles per
// host second for bf16 and int8 matmul commands at several burst lengths
// on the 4x4 array (and at 100-cycle bursts on the 8x8 array),
// next to the C++ reference's speed on the same commands, and the SFU lane's
// elements per host second. Usage: bench_rtl_dpe [seconds_per_point [bf16|int8|sfu]]
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "opforge/rtl/dpe_ref.h"
#include "opforge/rtl/dpe_rtl.h"
#include "opforge/rtl/sfu_lane_rtl.h"
#include "opforge/rtl/sfu_ref.h"

namespace {

using Clock = std::chrono::steady_clock;
using opforge::isa::DpeCommand;
using opforge::isa::DpeDType;

struct Workload {
  DpeCommand cmd;
  std::vector<uint8_t> mem;
};

Workload make_workload(DpeDType dtype, uint32_t m, uint32_t n, uint32_t k) {
  Workload w;
  const uint32_t esz = dtype == DpeDType::INT8 ? 1 : 2;
  w.cmd.dtype = dtype;
  w.cmd.m = m;
  w.cmd.n = n;
  w.cmd.k = k;
  w.cmd.lda = k;
  w.cmd.ldb = n;
  w.cmd.ldc = n;
  w.cmd.a = 0;
  w.cmd.b = uint64_t{m} * k * esz;
  w.cmd.c = w.cmd.b + uint64_t{k} * n * esz;
  w.mem.resize(w.cmd.c + uint64_t{m} * n * 4);
  std::mt19937 rng(1);
  for (uint64_t i = 0; i < w.cmd.c; i += esz) {
    const uint16_t v = dtype == DpeDType::INT8
                           ? static_cast<uint16_t>(rng() & 0xFF)
                           : static_cast<uint16_t>(((rng() & 1) << 15) | ((120 + rng() % 14) << 7) |
                                                   (rng() & 0x7F));
    std::memcpy(&w.mem[i], &v, esz);
  }
  return w;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void bench_dpe(const char *name, DpeDType dtype, opforge::rtl::DpeArrayShape array, uint32_t burst,
               double budget_s) {
  Workload w = make_workload(dtype, 64, 64, 256);
  opforge::rtl::DpeRtlOptions opts;
  opts.burst_cycles = burst;
  opts.array = array;
  opforge::rtl::DpeRtl rtl(opts);
  uint64_t cycles = 0, commands = 0;
  const auto t0 = Clock::now();
  do {
    cycles += rtl.run(w.cmd, w.mem).cycles;
    ++commands;
  } while (seconds_since(t0) < budget_s);
  const double rtl_s = seconds_since(t0);
  const auto t1 = Clock::now();
  uint64_t ref_commands = 0;
  do {
    opforge::rtl::dpe_reference(w.cmd, w.mem);
    ++ref_commands;
  } while (seconds_since(t1) < budget_s / 2);
  const double ref_s = seconds_since(t1);
  const opforge::rtl::DpeArrayShape arr = rtl.array_shape();
  std::printf(
      "dpe %ux%u %-5s 64x64x256 burst=%-5u  %8.2f M cycles/s  (%llu cycles, %llu commands, %.2f s)"
      "  reference %.0f commands/s = %.2f M equivalent cycles/s\n",
      arr.rows, arr.cols, name, burst, cycles / rtl_s / 1e6,
      static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(commands), rtl_s,
      ref_commands / ref_s, ref_commands / ref_s * (static_cast<double>(cycles) / commands) / 1e6);
}

void bench_sfu(const char *name, unsigned func, double budget_s) {
  std::vector<uint32_t> x(100000);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> dist(-20.0f, 20.0f);
  for (auto &v : x) {
    const float f = dist(rng);
    std::memcpy(&v, &f, 4);
  }
  opforge::rtl::SfuLaneRtl lane;
  uint64_t elements = 0, cycles = 0;
  const auto t0 = Clock::now();
  do {
    cycles += lane.run(func, 0, x).cycles;
    elements += x.size();
  } while (seconds_since(t0) < budget_s);
  const double s = seconds_since(t0);
  std::printf("sfu_lane %-5s  %8.2f M elements/s  %8.2f M cycles/s\n", name, elements / s / 1e6,
              cycles / s / 1e6);
}

}  // namespace

int main(int argc, char **argv) {
  const double budget_s = argc > 1 ? std::atof(argv[1]) : 1.0;
  const std::string only = argc > 2 ? argv[2] : "";  // bf16, int8 or sfu: run only that group
  using opforge::rtl::DpeArrayShape;
  if (only.empty() || only == "bf16") {
    for (uint32_t burst : {10u, 100u, 1000u})
      bench_dpe("bf16", DpeDType::BF16, DpeArrayShape{4, 4}, burst, budget_s);
    bench_dpe("bf16", DpeDType::BF16, DpeArrayShape{8, 8}, 100, budget_s);
  }
  if (only.empty() || only == "int8") {
    for (uint32_t burst : {10u, 100u, 1000u})
      bench_dpe("int8", DpeDType::INT8, DpeArrayShape{4, 4}, burst, budget_s);
    bench_dpe("int8", DpeDType::INT8, DpeArrayShape{8, 8}, 100, budget_s);
  }
  if (only.empty() || only == "sfu") {
    bench_sfu("exp", opforge::rtl::kSfuFuncExp, budget_s);
    bench_sfu("recip", opforge::rtl::kSfuFuncRecip, budget_s);
  }
  return 0;
}
