//===- bench_rtl_dpe.cpp - RTL co-simulation speed: DPE cycles and SFU elements per host second
//-===//
//
// Prints, for the verilated DPE in burst mode, simulated clock cycles per
// host second for bf16 and int8 matmul commands at several burst lengths
// on the 4x4 array (and at 100-cycle bursts on the 8x8 array),
// next to the C++ reference's speed on the same commands, the SFU lane's
// elements per host second, and (group `kernel`) the whole-kernel slowdown of
// pe.dpe.impl=rtl and lockstep against tlm: a tiled matmul command-list
// kernel on every PE of `tiny`, each implementation in its own process (one
// SystemC Device per process).
// Usage: bench_rtl_dpe [seconds_per_point [bf16|int8|sfu|kernel]]
//
//===----------------------------------------------------------------------===//
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
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
#ifdef OPFORGE_BENCH_RTL_KERNEL
#include "dpe_model_test_util.h"
#include "opforge/rtl/dpe_backends.h"
#endif

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

// CPU seconds this thread has run: on a shared, loaded host the wall-clock
// rate understates the simulator's speed; the CPU-time rate does not.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
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
  const double cpu0 = thread_cpu_seconds();
  do {
    cycles += rtl.run(w.cmd, w.mem).cycles;
    ++commands;
  } while (seconds_since(t0) < budget_s);
  const double rtl_s = seconds_since(t0);
  const double rtl_cpu_s = thread_cpu_seconds() - cpu0;
  const auto t1 = Clock::now();
  uint64_t ref_commands = 0;
  do {
    opforge::rtl::dpe_reference(w.cmd, w.mem);
    ++ref_commands;
  } while (seconds_since(t1) < budget_s / 2);
  const double ref_s = seconds_since(t1);
  const opforge::rtl::DpeArrayShape arr = rtl.array_shape();
  std::printf(
      "dpe %ux%u %-5s 64x64x256 burst=%-5u  %8.2f M cycles/s  %8.2f M cycles/CPU-s  (%llu cycles, "
      "%llu commands, %.2f s)  reference %.0f commands/s = %.2f M equivalent cycles/s\n",
      arr.rows, arr.cols, name, burst, cycles / rtl_s / 1e6, cycles / rtl_cpu_s / 1e6,
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

#ifdef OPFORGE_BENCH_RTL_KERNEL
struct KernelFigures {
  double host_s = 0;
  uint64_t cycles = 0, launches = 0;
  uint64_t first_cycles = 0;  // simulated cycles of the first launch
  int ok = 0;
};

// One implementation in a child process: launches of the kernel for about
// budget_s host seconds (at least one).
KernelFigures kernel_child(const std::string &impl, opforge::isa::DpeDType dtype,
                           const opforge::rtl::testing::MatmulShape &shape, double budget_s) {
  int fds[2];
  KernelFigures f;
  if (pipe(fds) != 0) return f;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    KernelFigures c;
    try {
      opforge::rtl::register_model_backends();
      opforge::model::Device dev(opforge::model::load_params("tiny", {"pe.dpe.impl=" + impl}));
      opforge::rtl::testing::MatmulKernel kern(shape, dtype, 1);
      c.ok = 1;
      do {
        opforge::rtl::testing::MatmulRun r = opforge::rtl::testing::run_matmul(dev, kern);
        c.ok &= r.launch.ok() ? 1 : 0;
        c.host_s += r.launch.host_seconds;
        c.cycles += r.launch.cycles;
        if (c.launches++ == 0) c.first_cycles = r.launch.cycles;
      } while (c.host_s < budget_s && c.ok);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "bench_rtl_dpe: %s: %s\n", impl.c_str(), e.what());
      c.ok = 0;
    }
    if (write(fds[1], &c, sizeof c) != sizeof c) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  if (pid > 0) {
    if (read(fds[0], &f, sizeof f) != sizeof f) f.ok = 0;
    waitpid(pid, nullptr, 0);
  }
  close(fds[0]);
  return f;
}

void bench_kernel(const char *name, opforge::isa::DpeDType dtype,
                  opforge::rtl::testing::MatmulShape shape, double budget_s) {
  const KernelFigures tlm = kernel_child("tlm", dtype, shape, budget_s);
  for (const char *impl : {"tlm", "rtl", "lockstep"}) {
    const KernelFigures f =
        std::string(impl) == "tlm" ? tlm : kernel_child(impl, dtype, shape, budget_s);
    if (!f.ok || !f.launches) {
      std::printf("kernel %s %ux%ux%u %-8s  FAILED\n", name, shape.m, shape.n, shape.k, impl);
      continue;
    }
    const double per_launch_s = f.host_s / f.launches;
    const double tlm_per_launch_s = tlm.launches ? tlm.host_s / tlm.launches : 0;
    std::printf(
        "kernel %s %ux%ux%u tiles %ux%ux%u on tiny (4 PEs)  %-8s  first launch %8llu cycles%s"
        "  %9.3f ms/launch  %7.2f M sim cycles/s  slowdown vs tlm %6.1fx\n",
        name, shape.m, shape.n, shape.k, shape.tm, shape.tn, shape.tk, impl,
        static_cast<unsigned long long>(f.first_cycles),
        f.first_cycles == tlm.first_cycles ? " (= tlm)" : " (differs from tlm!)",
        per_launch_s * 1e3, f.cycles / f.host_s / 1e6,
        tlm_per_launch_s > 0 ? per_launch_s / tlm_per_launch_s : 0.0);
  }
}
#endif

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
#ifdef OPFORGE_BENCH_RTL_KERNEL
  if (only.empty() || only == "kernel") {
    bench_kernel("bf16", DpeDType::BF16, {64, 64, 64, 16, 16, 16}, budget_s);
    bench_kernel("int8", DpeDType::INT8, {64, 64, 64, 16, 16, 16}, budget_s);
  }
#endif
  if (only.empty() || only == "sfu") {
    bench_sfu("exp", opforge::rtl::kSfuFuncExp, budget_s);
    bench_sfu("recip", opforge::rtl::kSfuFuncRecip, budget_s);
  }
  return 0;
}
