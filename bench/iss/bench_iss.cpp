//===- bench_iss.cpp - ISS vs qemu-riscv64: simulated instructions per second ===//
//
// Runs each benchmark ELF (built next to this program) on the ISS (flat
// memory, functional accelerators) and under `qemu-riscv64 -cpu
// rv64,v=true,vlen=N` in the same run, and prints simulated instructions per
// host second for both and their ratio. The instruction count of a program
// is the ISS's instret; qemu runs the same program, so the same count is
// used for its rate (its time includes process start-up, a few ms).
//
//===----------------------------------------------------------------------===//
#include <sys/wait.h>

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

double run_qemu(const std::string &elf, uint32_t vlen) {
  const std::string cmd = "qemu-riscv64 -cpu rv64,v=true,vlen=" + std::to_string(vlen) +
                          ",vext_spec=v1.0 " + elf + " >/dev/null 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = std::system(cmd.c_str());
  const double s = seconds_since(t0);
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) return -1;
  return s;
}
}  // namespace

// usage: bench_iss [DIR]  (DIR holds the benchmark ELFs; default: the build tree)
int main(int argc, char **argv) {
  const std::string dir = argc > 1 ? argv[1] : BENCH_ISS_DIR;
  const uint32_t vlen = 256;
  const bool have_qemu = std::system("qemu-riscv64 --version >/dev/null 2>&1") == 0;
  std::printf("ISS vs qemu-riscv64 (VLEN=%u), simulated instructions per host second\n", vlen);
  std::printf("%-14s %14s %10s %12s %10s %12s %8s\n", "program", "instructions", "iss_s",
              "iss_Minst/s", "qemu_s", "qemu_Minst/s", "ratio");
  const char *programs[] = {"scalar_loop", "rvv_loop_m1", "rvv_loop_m2", "rvv_loop_m4",
                            "rvv_loop_m8"};
  int failures = 0;
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
    const auto t0 = std::chrono::steady_clock::now();
    const SimResult r = run_iss(img, vlen);
    const double iss_s = seconds_since(t0);
    if (r.verdict != Verdict::Done) {
      std::fprintf(stderr, "bench_iss: %s did not finish on the ISS: %s\n", name,
                   r.message.c_str());
      ++failures;
      continue;
    }
    const double iss_rate = r.instructions / iss_s / 1e6;
    const double q_s = have_qemu ? run_qemu(elf, vlen) : -1;
    if (q_s > 0) {
      const double q_rate = r.instructions / q_s / 1e6;
      std::printf("%-14s %14llu %10.3f %12.1f %10.3f %12.1f %8.2f\n", name,
                  static_cast<unsigned long long>(r.instructions), iss_s, iss_rate, q_s, q_rate,
                  iss_rate / q_rate);
    } else {
      std::printf("%-14s %14llu %10.3f %12.1f %10s %12s %8s\n", name,
                  static_cast<unsigned long long>(r.instructions), iss_s, iss_rate, "n/a", "n/a",
                  "n/a");
    }
  }
  return failures ? 1 : 0;
}
