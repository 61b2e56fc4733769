//===- bench_micro.cpp - microbenchmarks: achieved vs configured figures --===//
//
//   bench_micro [--arch NAME] [--set K=V]... [BENCH...]
// Benchmarks: dram_read dram_copy dpe_bf16 dpe_int8 vfma_fp32. Each runs in
// its own child process (one Device per process) with every PE busy, and
// prints the achieved figure, the configured peak and their ratio. "steady"
// figures use the span of the program instances (launch latency excluded);
// "launch" figures include it.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/model/device.h"
#include "opforge/support/error.h"

using namespace opforge::model;

namespace {

std::string kernel(const char *stem) { return std::string(BENCH_KERNEL_DIR) + "/" + stem + ".elf"; }

template <class T>
void put(std::vector<uint8_t> &v, T x) {
  size_t at = v.size();
  v.resize(at + sizeof(T));
  std::memcpy(&v[at], &x, sizeof(T));
}

double span_cycles(const LaunchResult &r) {
  uint64_t s = UINT64_MAX, e = 0;
  for (const auto &i : r.instances) {
    s = std::min(s, i.start_cycle);
    e = std::max(e, i.end_cycle);
  }
  return double(e - s);
}

void report(const char *name, const ChipParams &p, const LaunchResult &r, double work, double peak,
            const char *unit, double unit_scale) {
  double f = p.clock.freq_ghz * 1e9;
  double steady = work / (span_cycles(r) / f) / unit_scale;
  double launch = work / (double(r.cycles) / f) / unit_scale;
  std::printf("%-10s %-8s steady %10.2f %s  launch %10.2f %s  configured %10.2f %s  ratio %.3f\n",
              name, p.name.c_str(), steady, unit, launch, unit, peak, unit, steady / peak);
}

int run_one(const std::string &bench, const std::string &arch, std::vector<std::string> sets) {
  if (bench == "dram_copy") sets.push_back("sram.mode=scratch");  // every byte reaches DRAM
  const ChipParams p = load_params(arch, sets);
  Device dev(p);
  const uint32_t n = p.num_pes();
  KernelLaunch k;
  k.grid = {n, 1, 1};
  double peak_dram = p.dram.channels * p.dram.channel_gbps;
  if (bench == "dram_read" || bench == "dram_copy") {
    const uint64_t per = 1ull << 20, chunk = 16384;
    bool copy = bench == "dram_copy";
    uint64_t src = dev.alloc(per * n), dst = copy ? dev.alloc(per * n) : 0;
    k.image = read_elf_file(kernel("stream"));
    put<uint64_t>(k.args, src);
    put<uint64_t>(k.args, per);
    put<uint64_t>(k.args, chunk);
    put<uint64_t>(k.args, p.map.local_alias_base);
    put<uint64_t>(k.args, copy ? 1 : 0);
    put<uint64_t>(k.args, dst);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double bytes = double(per) * n * (copy ? 2 : 1);
    report(bench.c_str(), p, r, bytes, peak_dram, "GB/s", 1e9);
    return 0;
  }
  if (bench == "dpe_bf16" || bench == "dpe_int8") {
    bool i8 = bench == "dpe_int8";
    const uint32_t m = 64, nn = 64, kk = 64, iters = 160;
    uint64_t la = p.map.local_alias_base;
    k.image = read_elf_file(kernel("dpe_loop"));
    put<uint64_t>(k.args, iters);
    put<uint64_t>(k.args, la);
    put<uint64_t>(k.args, la + 16384);
    put<uint64_t>(k.args, la + 32768);
    for (uint32_t v : {m, nn, kk, kk, nn, nn}) put<uint32_t>(k.args, v);
    put<uint8_t>(k.args, i8 ? 3 : 0);
    put<uint8_t>(k.args, 1);
    k.args.resize(8 + 64, 0);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double ops = 2.0 * m * nn * kk * iters * n;
    double peak = 2.0 * (i8 ? p.dpe.macs_per_cycle_int8 : p.dpe.macs_per_cycle_bf16) * n *
                  p.clock.freq_ghz * 1e9 / 1e12;
    report(bench.c_str(), p, r, ops, peak, i8 ? "TOPS" : "TFLOPS", 1e12);
    return 0;
  }
  if (bench == "vfma_fp32") {
    const uint64_t iters = 2500;
    k.image = read_elf_file(kernel("vfma_loop"));
    put<uint64_t>(k.args, iters);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double flops = 2.0 * 128 * iters * (p.core.vlen_bits / 32) * n;
    double peak = 2.0 * p.core.vec_lanes * n * p.clock.freq_ghz * 1e9 / 1e12;
    report(bench.c_str(), p, r, flops, peak, "TFLOPS", 1e12);
    return 0;
  }
  std::fprintf(stderr, "bench_micro: unknown benchmark '%s'\n", bench.c_str());
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::string arch = "mtia-2i", one;
  std::vector<std::string> sets, benches;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--arch" && i + 1 < argc)
      arch = argv[++i];
    else if (a == "--set" && i + 1 < argc)
      sets.push_back(argv[++i]);
    else if (a == "--one" && i + 1 < argc)
      one = argv[++i];
    else if (!a.empty() && a[0] != '-')
      benches.push_back(a);
    else {
      std::fprintf(stderr, "usage: bench_micro [--arch NAME] [--set K=V]... [BENCH...]\n");
      return 2;
    }
  }
  try {
    if (!one.empty()) {
      return run_one(one, arch, sets);
    }
  } catch (const opforge::Error &e) {
    std::fprintf(stderr, "bench_micro: %s\n", e.what());
    return 1;
  }
  if (benches.empty()) benches = {"dram_read", "dram_copy", "dpe_bf16", "dpe_int8", "vfma_fp32"};
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return 1;
  exe[len] = 0;
  int rc = 0;
  for (const auto &b : benches) {
    std::string cmd = std::string(exe) + " --arch " + arch + " --one " + b;
    for (const auto &s : sets) cmd += " --set " + s;
    std::fflush(stdout);
    rc |= std::system(cmd.c_str());
  }
  return rc ? 1 : 0;
}
