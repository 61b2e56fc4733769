//===- bench_micro.cpp - microbenchmarks: achieved vs configured figures --===//
//
//   bench_micro [--arch NAME] [--set K=V]... [BENCH...]
// Benchmarks: dram_read dram_copy sram_read lmem_copy dma_engine noc_hop
// dpe_bf16 dpe_int8 vfma_fp32 sfu_exp dram_channels. Each runs in its own
// child process (one Device per process) with every PE busy (noc_hop: one
// PE), and prints the achieved figure, the configured one and their ratio.
// "steady" figures use the span of the program instances (launch latency
// excluded) or, for the stream and DMA kernels, the kernels' own time stamps
// around their transfers (docs/model/README.md); "launch" figures use the
// launch's cycles. dram_channels runs dram_read on the
// configuration and on one with twice the channels (same per-channel
// bandwidth) and prints the ratio of their times.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/model/device.h"
#include "opforge/model/pe_accel.h"
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

// Time stamps the kernels write (time CSR before the first command and after
// the last wait, 16 bytes per instance): the window from the earliest start
// to the latest end, without the program's start (argument loads and first
// instruction fetches from DRAM).
struct Stamps {
  uint64_t addr = 0, count = 0;
};
Stamps alloc_stamps(Device &dev, uint64_t instances) {
  Stamps s{dev.alloc(16 * instances), instances};
  std::vector<uint64_t> zero(2 * instances, 0);
  dev.copy_in(s.addr, zero.data(), 16 * instances);
  return s;
}
std::vector<uint64_t> read_stamps(Device &dev, const Stamps &s) {
  std::vector<uint64_t> t(2 * s.count);
  dev.copy_out(s.addr, t.data(), 16 * s.count);
  for (uint64_t i = 0; i < s.count; ++i)
    if (t[2 * i + 1] <= t[2 * i])
      throw opforge::Error("instance " + std::to_string(i) + " wrote no time stamps");
  return t;
}
// A shared unit (SRAM, DRAM): from the earliest start to the latest end.
double stamped_cycles(Device &dev, const Stamps &s) {
  std::vector<uint64_t> t = read_stamps(dev, s);
  uint64_t first = UINT64_MAX, last = 0;
  for (uint64_t i = 0; i < s.count; ++i) {
    first = std::min(first, t[2 * i]);
    last = std::max(last, t[2 * i + 1]);
  }
  return double(last - first);
}
// Units every PE has its own of (DMA engines, local memory): the instances
// start apart (each fetches its code and arguments from DRAM), so the chip's
// figure is the sum of the per-instance rates; returned as the equivalent
// window (instances / sum of 1 / window_i), which equals each window when
// they are all alike.
double per_pe_cycles(Device &dev, const Stamps &s) {
  std::vector<uint64_t> t = read_stamps(dev, s);
  double rate = 0;
  for (uint64_t i = 0; i < s.count; ++i) rate += 1.0 / double(t[2 * i + 1] - t[2 * i]);
  return double(s.count) / rate;
}

// steady: the work over the instances' span (launch latency excluded), or
// over the kernel's own time stamps when `stamped` > 0; launch: over the
// launch's cycles.
void report(const char *name, const ChipParams &p, const LaunchResult &r, double work, double peak,
            const char *unit, double unit_scale, double stamped = 0) {
  double f = p.clock.freq_ghz * 1e9;
  double span = stamped > 0 ? stamped : span_cycles(r);
  double steady = work / (span / f) / unit_scale;
  double launch = work / (double(r.cycles) / f) / unit_scale;
  std::printf(
      "%-12s %-8s steady %10.2f %s  launch %10.2f %s  configured %10.2f %s  ratio %.3f  "
      "span_cycles %.0f\n",
      name, p.name.c_str(), steady, unit, launch, unit, peak, unit, steady / peak, span);
}

int run_one(const std::string &bench, const std::string &arch, std::vector<std::string> sets) {
  if (bench == "dram_copy" || bench == "sram_read")
    sets.push_back("sram.mode=scratch");  // copy: every byte reaches DRAM; read: SRAM window
  if (bench == "dma_engine") sets.push_back("pe.dma.engines=1");  // one engine per PE
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
    Stamps st = alloc_stamps(dev, n);
    k.image = read_elf_file(kernel("stream"));
    for (uint64_t v : {src, per, chunk, p.map.local_alias_base, uint64_t(copy ? 1 : 0), dst,
                       uint64_t(0), st.addr})
      put<uint64_t>(k.args, v);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double bytes = double(per) * n * (copy ? 2 : 1);
    report(bench.c_str(), p, r, bytes, peak_dram, "GB/s", 1e9, stamped_cycles(dev, st));
    return 0;
  }
  if (bench == "dpe_bf16" || bench == "dpe_int8") {
    bool i8 = bench == "dpe_int8";
    // 64x64x64 tiles, or the preset's largest (pe.dpe.tile_max_*) if
    // smaller, with m and n cut to whole tiles of the MAC array
    // (model::dpe_array_dims): mtia-v1's 500 MACs/cycle are a 16x31 array,
    // where a 32-column command would compute a 1-column edge tile at the
    // cost of a full one. Back-to-back commands chain (docs/rtl/dpe.md).
    auto dim = [](uint32_t max) { return max == 0 ? 64u : std::min(64u, max); };
    const opforge::model::DpeArrayDims arr = opforge::model::dpe_array_dims(p.dpe);
    auto whole = [](uint32_t d, uint32_t tile) { return d >= tile ? d - d % tile : d; };
    const uint32_t m = whole(dim(p.dpe.tile_max_m), arr.rows),
                   nn = whole(dim(p.dpe.tile_max_n), arr.cols), kk = dim(p.dpe.tile_max_k),
                   iters = 160;
    std::printf("%-12s %-8s DPE commands %ux%ux%u on the %ux%u array, %u per PE\n", bench.c_str(),
                "", m, nn, kk, arr.rows, arr.cols, iters);
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
    Stamps st = alloc_stamps(dev, n);
    put<uint64_t>(k.args, st.addr);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double ops = 2.0 * m * nn * kk * iters * n;
    double peak = 2.0 * (i8 ? p.dpe.macs_per_cycle_int8 : p.dpe.macs_per_cycle_bf16) * n *
                  p.clock.freq_ghz * 1e9 / 1e12;
    // Every PE has its own DPE: the sum of the instances' rates.
    report(bench.c_str(), p, r, ops, peak, i8 ? "TOPS" : "TFLOPS", 1e12, per_pe_cycles(dev, st));
    return 0;
  }
  if (bench == "sram_read") {
    // Every PE streams its own slice of the SRAM scratch window. Slices are
    // `per` bytes plus one burst apart, so the instances (which start
    // together) begin on different banks instead of all on bank 0. 2 MiB
    // per PE (if the SRAM holds twice that): the instances leave their cold
    // prologue (code lines every PE fetches from one DRAM channel) up to
    // ~8000 cycles apart on mtia-2i, and the stamped window counts that ramp
    // and the matching tail; at 1 MiB per PE they were 6% of it.
    const uint64_t per = std::min<uint64_t>(2ull << 20, p.sram.size_bytes / n / 2), chunk = 16384;
    const uint64_t stride = per + p.dma.burst_bytes;
    Stamps st = alloc_stamps(dev, n);
    k.image = read_elf_file(kernel("stream"));
    for (uint64_t v : {p.map.sram_base, per, chunk, p.map.local_alias_base, uint64_t(0),
                       uint64_t(0), stride, st.addr})
      put<uint64_t>(k.args, v);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    report(bench.c_str(), p, r, double(per) * n, p.arch.sram.bandwidth_gbps, "GB/s", 1e9,
           stamped_cycles(dev, st));
    // SRAM traffic enters the mesh through the rows' memory ports (noc.h).
    const uint32_t ports = p.grid.rows * p.noc.mem_ports_per_row;
    std::printf("%-12s %-8s NoC memory ports carry at most %.2f GB/s (%u ports x %.2f GB/s)\n",
                bench.c_str(), p.name.c_str(), ports * p.arch.noc.link_bandwidth_gbps, ports,
                p.arch.noc.link_bandwidth_gbps);
    return 0;
  }
  if (bench == "lmem_copy" || bench == "dma_engine") {
    // DMA inside each PE's local memory: a quarter of it copied to the
    // other half, 32 times. Every byte is read and written in local memory.
    const uint64_t chunk = p.local_mem.size_bytes / 4, reps = 32, la = p.map.local_alias_base;
    Stamps st = alloc_stamps(dev, n);
    k.image = read_elf_file(kernel("dma_local"));
    for (uint64_t v : {la, la + p.local_mem.size_bytes / 2, chunk, reps, st.addr})
      put<uint64_t>(k.args, v);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double bytes = double(chunk) * reps * n, stamped = per_pe_cycles(dev, st);
    if (bench == "lmem_copy")
      report(bench.c_str(), p, r, 2 * bytes, p.arch.pe.local_mem.bandwidth_gbps * n, "GB/s", 1e9,
             stamped);
    else
      report(bench.c_str(), p, r, bytes, p.arch.pe.dma.bandwidth_gbps * n, "GB/s", 1e9, stamped);
    return 0;
  }
  if (bench == "noc_hop") {
    // PE (0,0) loads from the local memories of PEs (0,1)..(0,cols-1), then
    // down the last column: hop count = column + row. Latency per hop is the
    // least-squares slope of cycles per load over hops.
    std::vector<double> hops, cycles;
    std::vector<uint64_t> targets;
    for (uint32_t c = 1; c < p.grid.cols; ++c) {
      targets.push_back(c);
      hops.push_back(c);
    }
    for (uint32_t r = 1; r < p.grid.rows; ++r) {
      targets.push_back(uint64_t(r) * p.grid.cols + p.grid.cols - 1);
      hops.push_back(p.grid.cols - 1 + r);
    }
    if (targets.size() < 2) throw opforge::Error("noc_hop needs a grid with at least 3 PEs");
    const uint64_t loads = 200;
    k.grid = {1, 1, 1};
    k.image = read_elf_file(kernel("noc_lat"));
    // The first target is measured twice and its first figure dropped: that
    // pass fetches the loop's instructions from DRAM for the first time.
    targets.insert(targets.begin(), targets.front());
    uint64_t out = dev.alloc(8 * targets.size());
    for (uint64_t v : {uint64_t(targets.size()), loads, out}) put<uint64_t>(k.args, v);
    for (uint64_t t : targets)
      put<uint64_t>(k.args, p.map.local_window_base + t * p.map.local_window_stride);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    std::vector<uint64_t> got(targets.size());
    dev.copy_out(out, got.data(), 8 * got.size());
    for (size_t i = 1; i < got.size(); ++i) cycles.push_back(double(got[i]) / loads);
    double mh = std::accumulate(hops.begin(), hops.end(), 0.0) / hops.size();
    double mc = std::accumulate(cycles.begin(), cycles.end(), 0.0) / cycles.size();
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < hops.size(); ++i) {
      sxy += (hops[i] - mh) * (cycles[i] - mc);
      sxx += (hops[i] - mh) * (hops[i] - mh);
    }
    double slope = sxy / sxx, configured = p.noc.hop_latency_cycles;
    std::printf(
        "%-12s %-8s per hop %8.3f cycles  (load at 1 hop %.1f, at %.0f hops %.1f cycles)  "
        "configured %u cycles  ratio %.3f\n",
        bench.c_str(), p.name.c_str(), slope, cycles.front(), hops.back(), cycles.back(),
        p.noc.hop_latency_cycles, configured ? slope / configured : 0.0);
    return 0;
  }
  if (bench == "sfu_exp") {
    const uint64_t iters = 400;
    k.image = read_elf_file(kernel("sfu_loop"));
    put<uint64_t>(k.args, iters);
    LaunchResult r = dev.launch(k);
    if (!r.ok()) throw opforge::Error(r.traps.front());
    double elements = 32.0 * iters * (8 * p.core.vlen_bits / 32) * n;
    double peak = double(p.sfu.elements_per_cycle) * n * p.clock.freq_ghz * 1e9 / 1e9;
    report(bench.c_str(), p, r, elements, peak, "Gelem/s", 1e9);
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
  if (benches.empty())
    benches = {"dram_read", "dram_copy", "sram_read", "lmem_copy", "dma_engine",   "noc_hop",
               "dpe_bf16",  "dpe_int8",  "vfma_fp32", "sfu_exp",   "dram_channels"};
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return 1;
  exe[len] = 0;
  // Runs one benchmark in a child; echoes its output; returns span_cycles (< 0: failed).
  auto child = [&](const std::string &b, const std::vector<std::string> &extra) {
    std::string cmd = std::string(exe) + " --arch " + arch + " --one " + b;
    for (const auto &s : sets) cmd += " --set " + s;
    for (const auto &s : extra) cmd += " --set " + s;
    std::fflush(stdout);
    FILE *f = popen(cmd.c_str(), "r");
    if (!f) return -1.0;
    double span = 0;
    char line[1024];
    while (std::fgets(line, sizeof line, f)) {
      std::fputs(line, stdout);
      if (const char *at = std::strstr(line, "span_cycles ")) span = std::atof(at + 12);
    }
    return pclose(f) == 0 ? span : -1.0;
  };
  int rc = 0;
  for (const auto &b : benches) {
    if (b != "dram_channels") {
      rc |= child(b, {}) < 0;
      continue;
    }
    // Doubling the channels (each keeping its bandwidth) should halve a
    // DRAM-bound stream's time.
    ChipParams p = load_params(arch, sets);
    std::string twice = std::to_string(2 * p.dram.channels);
    char bw[64];
    std::snprintf(bw, sizeof bw, "%.6g", 2 * p.arch.dram.bandwidth_gbps);
    double base = child("dram_read", {}),
           doubled = child("dram_read",
                           {"dram.channels=" + twice, std::string("dram.bandwidth_gbps=") + bw});
    if (base <= 0 || doubled <= 0) {
      rc = 1;
      continue;
    }
    double ratio = doubled / base;
    std::printf("dram_channels %-8s %u -> %s channels: time ratio %.3f (ideal 0.500)  %s\n",
                p.name.c_str(), p.dram.channels, twice.c_str(), ratio,
                std::abs(ratio - 0.5) <= 0.05 ? "within 10%" : "NOT within 10%");
  }
  return rc ? 1 : 0;
}
