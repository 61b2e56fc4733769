//===- bench_iss.cpp - ISS vs qemu-riscv64: simulated instructions per second ===//
//
// Runs each benchmark ELF (built next to this program) on the ISS (flat
// memory, functional accelerators) and under `qemu-riscv64 -cpu
// rv64,v=true,vlen=N` in the same run, and prints simulated instructions per
// host second for both and their ratio. The instruction count of a program
// is the ISS's instret; qemu runs the same program, so the same count is
// used for its rate (its time includes process start-up, a few ms).
// Rates are per CPU second (the ISS's process CPU time, qemu's child
// user+system time), so a loaded host skews them less than wall time; the
// wall seconds are printed too. Each program runs REPEATS times on both
// (default 3) and the fastest run of each counts. Last, one C workload built
// with compressed instructions (-march=rv64gcv) and without (rv64gv) runs
// on the ISS alone: the ratio of their rates shows what RVC costs.
//
//===----------------------------------------------------------------------===//
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "opforge/isa/iss.h"

using namespace opforge::isa;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
double children_cpu_s() {
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec * 1e-6;
}
struct Timing {
  double wall_s = -1, cpu_s = -1;
};

// The user-mode programs exit through the Linux exit syscall (a7 = 93).
SimResult run_iss(const ElfImage &img, uint32_t vlen) {
  SimOptions opt;
  opt.vlen_bits = vlen;
  opt.max_instructions = 20'000'000'000ull;
  opt.prepare = [](Hart &h) {
    h.set_ecall_handler([](Hart &hart) {
      if (hart.xreg(17) != 93) return false;
      hart.request_stop(StopReason::Done);
      return true;
    });
  };
  return run_elf_functional(img, opt);
}

Timing run_qemu(const std::string &elf, uint32_t vlen) {
  const std::string cmd = "qemu-riscv64 -cpu rv64,v=true,vlen=" + std::to_string(vlen) +
                          ",vext_spec=v1.0 " + elf + " >/dev/null 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = children_cpu_s();
  const int rc = std::system(cmd.c_str());
  Timing t{seconds_since(t0), children_cpu_s() - c0};
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) return Timing{};
  return t;
}
}  // namespace

// usage: bench_iss [DIR [REPEATS]]  (DIR holds the benchmark ELFs; default: the build tree)
int main(int argc, char **argv) {
  const std::string dir = argc > 1 ? argv[1] : BENCH_ISS_DIR;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const uint32_t vlen = 256;
  const bool have_qemu = std::system("qemu-riscv64 --version >/dev/null 2>&1") == 0;
  std::printf("ISS vs qemu-riscv64 (VLEN=%u), simulated instructions per host second\n", vlen);
  std::printf("rates per CPU second, best of %d runs; wall seconds in the *_wall_s columns\n",
              repeats);
  std::printf("%-14s %14s %10s %10s %12s %10s %10s %12s %8s\n", "program", "instructions",
              "iss_wall_s", "iss_cpu_s", "iss_Minst/s", "qemu_wall_s", "qemu_cpu_s", "qemu_Minst/s",
              "ratio");
  const char *programs[] = {"scalar_loop", "rvv_loop_m1", "rvv_loop_m2", "rvv_loop_m4",
                            "rvv_loop_m8"};
  int failures = 0;
  double scalar_rate = -1, worst_rvv_ratio = -1;
  for (const char *name : programs) {
    const std::string elf = dir + "/" + name + ".elf";
    ElfImage img;
    try {
      img = read_elf(elf);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "bench_iss: %s\n", e.what());
      ++failures;
      continue;
    }
    SimResult r;
    double iss_s = 0, iss_cpu_s = 0;
    for (int k = 0; k < repeats; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = process_cpu_s();
      r = run_iss(img, vlen);
      const double cpu_s = process_cpu_s() - c0;
      if (k == 0 || cpu_s < iss_cpu_s) {
        iss_cpu_s = cpu_s;
        iss_s = seconds_since(t0);
      }
    }
    if (r.verdict != Verdict::Done) {
      std::fprintf(stderr, "bench_iss: %s did not finish on the ISS: %s\n", name,
                   r.message.c_str());
      ++failures;
      continue;
    }
    const double iss_rate = r.instructions / iss_cpu_s / 1e6;
    if (std::string(name) == "scalar_loop") scalar_rate = iss_rate;
    Timing q;
    for (int k = 0; have_qemu && k < repeats; ++k) {
      const Timing t = run_qemu(elf, vlen);
      if (t.cpu_s > 0 && (q.cpu_s <= 0 || t.cpu_s < q.cpu_s)) q = t;
    }
    if (q.cpu_s > 0) {
      const double q_rate = r.instructions / q.cpu_s / 1e6;
      std::printf("%-14s %14llu %10.3f %10.3f %12.1f %10.3f %10.3f %12.1f %8.2f\n", name,
                  static_cast<unsigned long long>(r.instructions), iss_s, iss_cpu_s, iss_rate,
                  q.wall_s, q.cpu_s, q_rate, iss_rate / q_rate);
      if (std::string(name).rfind("rvv", 0) == 0 &&
          (worst_rvv_ratio < 0 || iss_rate / q_rate < worst_rvv_ratio))
        worst_rvv_ratio = iss_rate / q_rate;
    } else {
      std::printf("%-14s %14llu %10.3f %10.3f %12.1f %10s %10s %12s %8s\n", name,
                  static_cast<unsigned long long>(r.instructions), iss_s, iss_cpu_s, iss_rate,
                  "n/a", "n/a", "n/a", "n/a");
    }
  }
  // Compressed instructions: the same C workload built with RVC (rv64gcv)
  // and without (rv64gv) should run at about the same rate.
  double rvc_rate[2] = {-1, -1};
  const char *rvc_programs[2] = {"c_kernels_rv64gcv", "c_kernels_rv64gv"};
  for (int v = 0; v < 2; ++v) {
    ElfImage img;
    try {
      img = read_elf(dir + "/" + rvc_programs[v] + ".elf");
    } catch (const std::exception &e) {
      std::fprintf(stderr, "bench_iss: %s\n", e.what());
      ++failures;
      continue;
    }
    SimResult r;
    double best_cpu_s = 0;
    for (int k = 0; k < repeats; ++k) {
      const double c0 = process_cpu_s();
      r = run_iss(img, vlen);
      const double cpu_s = process_cpu_s() - c0;
      if (k == 0 || cpu_s < best_cpu_s) best_cpu_s = cpu_s;
    }
    if (r.verdict != Verdict::Done) {
      std::fprintf(stderr, "bench_iss: %s did not finish on the ISS: %s\n", rvc_programs[v],
                   r.message.c_str());
      ++failures;
      continue;
    }
    rvc_rate[v] = r.instructions / best_cpu_s / 1e6;
    std::printf("%-18s %14llu instructions %10.3f iss_cpu_s %10.1f iss_Minst/s\n", rvc_programs[v],
                static_cast<unsigned long long>(r.instructions), best_cpu_s, rvc_rate[v]);
  }
  if (rvc_rate[0] > 0 && rvc_rate[1] > 0)
    std::printf(
        "compressed (rv64gcv) / uncompressed (rv64gv) ISS rate: %.3f (target 0.90..1.10: %s)\n",
        rvc_rate[0] / rvc_rate[1],
        rvc_rate[0] / rvc_rate[1] >= 0.9 && rvc_rate[0] / rvc_rate[1] <= 1.1 ? "met" : "not met");
  // The targets: scalar >= 300 M inst/s, RVV >= 1.5x qemu-riscv64.
  if (scalar_rate > 0)
    std::printf("target scalar >= 300 M inst/s: %.1f (%s)\n", scalar_rate,
                scalar_rate >= 300 ? "met" : "not met");
  if (worst_rvv_ratio > 0)
    std::printf("target RVV >= 1.5x qemu: worst %.2fx (%s)\n", worst_rvv_ratio,
                worst_rvv_ratio >= 1.5 ? "met" : "not met");
  return failures ? 1 : 0;
}
