//===- bench_chip_speed.cpp - simulated instructions per host second ------===//
//
// mtia-2i (or --arch), every PE busy with a scalar loop, in functional and
// lt mode. One Device per process: each mode runs in a child process.
//   bench_chip_speed [--arch NAME] [--iterations N]
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "opforge/model/device.h"
#include "opforge/support/error.h"

using namespace opforge::model;

// CPU seconds this process has used (user + system): the rate per host core,
// whatever else the machine runs.
static double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static int run_one(const std::string &arch, const std::string &timing, uint64_t iters) {
  ChipParams p = load_params(arch, {"simulation.timing_mode=" + timing});
  Device dev(p);
  KernelLaunch k;
  k.image = read_elf_file(BENCH_LOOP_ELF);
  k.args.resize(8);
  std::memcpy(k.args.data(), &iters, 8);
  k.grid = {p.num_pes(), 1, 1};
  double cpu0 = cpu_seconds();
  LaunchResult r = dev.launch(k);
  double cpu = cpu_seconds() - cpu0;
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.traps.front().c_str());
    return 1;
  }
  std::printf(
      "chip-speed %-10s %-10s PEs %3u  instructions %12llu  wall %.3f s  %.1f M instr/s  cpu "
      "%.3f s  %.1f M instr/cpu-s  (sim cycles %llu)\n",
      p.name.c_str(), timing.c_str(), p.num_pes(), (unsigned long long)r.instructions,
      r.host_seconds, double(r.instructions) / r.host_seconds / 1e6, cpu,
      double(r.instructions) / cpu / 1e6, (unsigned long long)r.cycles);
  return 0;
}

int main(int argc, char **argv) {
  std::string arch = "mtia-2i", one;
  uint64_t iters = 200000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--arch" && i + 1 < argc)
      arch = argv[++i];
    else if (a == "--iterations" && i + 1 < argc)
      iters = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--one" && i + 1 < argc)
      one = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_chip_speed [--arch NAME] [--iterations N]\n");
      return 2;
    }
  }
  try {
    if (!one.empty()) return run_one(arch, one, iters);
  } catch (const opforge::Error &e) {
    std::fprintf(stderr, "bench_chip_speed: %s\n", e.what());
    return 1;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 1;
  exe[n] = 0;
  int rc = 0;
  for (const char *mode : {"functional", "lt"}) {
    std::string cmd = std::string(exe) + " --arch " + arch + " --iterations " +
                      std::to_string(iters) + " --one " + mode;
    std::fflush(stdout);
    rc |= std::system(cmd.c_str());
  }
  return rc ? 1 : 0;
}
