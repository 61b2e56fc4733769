//===- bench_sim_speed.cpp - guest instructions per host second, real kernels ===//
//
// Compiles a few generated kernels (Triton tutorial kernels: vector add,
// fused softmax, layer norm, matmuls in fp32 and bf16, a bf16 exp) and runs
// each once on the preset in functional and lt timing (one child process per
// mode: one Device per process). Per kernel and mode it prints the guest
// instructions, simulated cycles, the CPU seconds of the launch and guest
// M instructions per CPU-second, and a hash of the kernel's output buffers.
// Against a reference file (--reference, default the one committed beside
// this source) it prints the speed ratio per kernel and in total, and checks
// that instructions, cycles, every counter and the outputs are identical:
// any difference is reported and the program exits 1. A reference may keep a
// "baseline" (the figures of the simulator before its speed work, commit
// 50f6122): the ratios are then against it, and --save carries it over.
//   bench_sim_speed [--arch NAME] [--modes functional,lt] [--kernels a,b]
//                   [--reference FILE | --no-reference] [--save FILE]
//                   [--dump DIR | --from DIR]
// --dump DIR writes the compiled kernels (ELF, argument block, tensors) and
// --from DIR launches those instead of compiling: with -DBENCH_NO_COMPILER the
// file builds against the model alone (a baseline build of another commit).
//
//===----------------------------------------------------------------------===//
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#ifndef BENCH_NO_COMPILER
#include "opforge/compiler/codegen.h"
#endif
#include "opforge/model/device.h"
#include "opforge/model/params.h"
#include "opforge/support/dtype.h"
#include "opforge/support/error.h"

using namespace opforge;
#ifndef BENCH_NO_COMPILER
using namespace opforge::compiler;
#endif
using json = nlohmann::json;

namespace {

// CPU seconds this process has used (user + system): the rate per host core,
// whatever else the machine runs.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Arg {
  int64_t elems = 0;  // >0: a tensor of this many elements of `dtype`
  int64_t i = 0;
  double f = 0;
  bool is_float = false;
  DType dtype = DType::Float32;
};
Arg tensor(int64_t n, DType d = DType::Float32) { return {n, 0, 0, false, d}; }
Arg integer(int64_t v) { return {0, v, 0, false, DType::Float32}; }
Arg real(double v) { return {0, 0, v, true, DType::Float32}; }

struct Kernel {
  std::string name, file, kernel, signature;
  std::vector<std::string> constexprs;
  std::vector<Arg> args;
  uint32_t grid;
};

Kernel matmul(const std::string &name, DType ab, int64_t n, int bm, int bn, int bk) {
  const std::string t = ab == DType::BFloat16 ? "bf16" : "fp32";
  return {name,
          "tests/compiler/kernels/matmul.py",
          "",
          "a_ptr=*" + t + ",b_ptr=*" + t +
              ",c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,"
              "stride_bn=i32,stride_cm=i32,stride_cn=i32",
          {"BLOCK_SIZE_M=" + std::to_string(bm), "BLOCK_SIZE_N=" + std::to_string(bn),
           "BLOCK_SIZE_K=" + std::to_string(bk), "GROUP_SIZE_M=8"},
          {tensor(n * n, ab), tensor(n * n, ab), tensor(n * n), integer(n), integer(n), integer(n),
           integer(n), integer(1), integer(n), integer(1), integer(n), integer(1)},
          static_cast<uint32_t>((n / bm) * (n / bn))};
}

std::vector<Kernel> kernels() {
  const int64_t n = 1 << 21, rows = 2048, cols = 1024;
  return {
      {"vector_add",
       "tests/compiler/kernels/vector_add.py",
       "",
       "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
       {"BLOCK_SIZE=1024"},
       {tensor(n), tensor(n), tensor(n), integer(n), real(2.0)},
       static_cast<uint32_t>(n / 1024)},
      {"softmax",
       "tests/compiler/kernels/fused_softmax.py",
       "",
       "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,"
       "n_cols=i32",
       {"BLOCK_SIZE=1024"},
       {tensor(rows * cols), tensor(rows * cols), integer(cols), integer(cols), integer(rows),
        integer(cols)},
       64},
      {"layer_norm",
       "tests/compiler/kernels/layer_norm.py",
       "_layer_norm_fwd_rows",
       "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32",
       {"BLOCK_SIZE=1024"},
       {tensor(rows * cols), tensor(rows * cols), tensor(cols), tensor(cols), tensor(rows),
        tensor(rows), integer(cols), integer(rows), integer(cols), real(1e-5)},
       64},
      matmul("matmul_fp32", DType::Float32, 256, 32, 32, 32),
      matmul("matmul_bf16", DType::BFloat16, 512, 64, 64, 64),
      {"exp_bf16",
       "bench/kernels/elementwise_dtype.py",
       "exp_kernel",
       "x_ptr=*bf16,out_ptr=*bf16,n_elements=i32",
       {"BLOCK_SIZE=1024"},
       {tensor(n, DType::BFloat16), tensor(n, DType::BFloat16), integer(n)},
       static_cast<uint32_t>(n / 1024)},
  };
}

// FNV-1a over bytes, continuing from h.
uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 0x100000001b3ull;
  return h;
}

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

// A compiled kernel ready to launch: its ELF, packed argument block and
// tensors. --dump writes these and --from reads them back, so a build of the
// model without the compiler can replay the same launches.
struct Prepared {
  std::string name;
  std::vector<uint8_t> elf, args;
  std::vector<Arg> tensors;  // allocated in this order, filled from the seeded generator
  uint32_t grid = 1;
};

#ifndef BENCH_NO_COMPILER
// Compiles kernel `kn`; the argument block assumes its tensors at the
// addresses `dev` returns when they are allocated first, in order.
Prepared prepare(model::Device &dev, const Kernel &kn) {
  CompileOptions o;
  o.kernel = kn.kernel;
  o.target.dpe_tile_m = dev.params().dpe.tile_max_m;
  o.target.dpe_tile_n = dev.params().dpe.tile_max_n;
  o.target.dpe_tile_k = dev.params().dpe.tile_max_k;
  add_signature(o.spec, kn.signature);
  for (auto &c : kn.constexprs) add_constexpr(o.spec, c);
  register_codegen_stages();
  CompileState s = compile_file(std::string(OPFORGE_SOURCE_DIR) + "/" + kn.file, o, "bin");
  const auto &bin = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
  Prepared pk{kn.name, bin.elf, {}, {}, kn.grid};
  std::vector<ArgValue> values;
  std::vector<uint64_t> addrs;
  for (const Arg &a : kn.args) {
    if (a.elems) {
      const uint64_t addr = dev.alloc(uint64_t(a.elems) * (a.dtype == DType::Float32 ? 4 : 2));
      addrs.push_back(addr);
      values.push_back({ArgValue::Kind::Address, addr, 0, 0});
      pk.tensors.push_back(a);
    } else if (a.is_float) {
      values.push_back({ArgValue::Kind::Float, 0, 0, a.f});
    } else {
      values.push_back({ArgValue::Kind::Int, 0, a.i, 0});
    }
  }
  for (uint64_t a : addrs) dev.free(a);
  pk.args = bin.pack_args(values);
  return pk;
}
#endif

// Launches a prepared kernel; returns its figures.
json launch(model::Device &dev, const Prepared &pk) {
  std::mt19937 rng(1);
  std::normal_distribution<float> dist;
  std::vector<std::pair<uint64_t, uint64_t>> bufs;  // address, bytes
  for (const Arg &a : pk.tensors) {
    const size_t eb = a.dtype == DType::Float32 ? 4 : 2;
    std::vector<uint8_t> host(a.elems * eb);
    for (int64_t k = 0; k < a.elems; ++k) {
      float x = dist(rng);
      if (eb == 4) {
        std::memcpy(&host[k * 4], &x, 4);
      } else {
        uint16_t h = a.dtype == DType::BFloat16 ? fp32_to_bf16(x) : fp32_to_fp16(x);
        std::memcpy(&host[k * 2], &h, 2);
      }
    }
    uint64_t addr = dev.alloc(host.size());
    dev.copy_in(addr, host.data(), host.size());
    bufs.push_back({addr, host.size()});
  }
  model::KernelLaunch k;
  k.image = model::read_elf(pk.elf, pk.name);
  k.args = pk.args;
  k.grid = model::Grid3{pk.grid, 1, 1};
  const double cpu0 = cpu_seconds();
  model::LaunchResult r = dev.launch(k);
  const double cpu = cpu_seconds() - cpu0;
  if (!r.ok()) throw Error(pk.name + ": " + r.traps.front());
  uint64_t out_hash = 0xcbf29ce484222325ull, counter_hash = 0xcbf29ce484222325ull;
  for (auto [addr, bytes] : bufs) {
    std::vector<uint8_t> host(bytes);
    dev.copy_out(addr, host.data(), bytes);
    out_hash = fnv(out_hash, host.data(), bytes);
    dev.free(addr);
  }
  for (const auto &[name, v] : r.counter_deltas) {
    counter_hash = fnv(counter_hash, name.data(), name.size());
    counter_hash = fnv(counter_hash, &v, sizeof v);
  }
  return {{"instructions", r.instructions},
          {"cycles", r.cycles},
          {"cpu_s", cpu},
          {"wall_s", r.host_seconds},
          {"outputs", hex(out_hash)},
          {"counters", hex(counter_hash)}};
}

json to_json(const Prepared &pk) {
  json t = json::array();
  for (const Arg &a : pk.tensors) t.push_back({a.elems, int(a.dtype)});
  return {{"name", pk.name}, {"grid", pk.grid}, {"args", pk.args}, {"tensors", t}};
}

Prepared from_json(const json &j, const std::string &dir) {
  Prepared pk{j["name"], {}, j["args"].get<std::vector<uint8_t>>(), {}, j["grid"]};
  for (const json &t : j["tensors"]) pk.tensors.push_back(tensor(t[0], DType(t[1].get<int>())));
  std::ifstream in(dir + "/" + pk.name + ".elf", std::ios::binary);
  if (!in) throw Error("bench_sim_speed: cannot read " + dir + "/" + pk.name + ".elf");
  pk.elf.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return pk;
}

// The child: every kernel in one mode; figures as JSON on `out`. Kernels
// come from `from` (a --dump directory) or are compiled here (and written to
// `dump` when given).
int run_mode(const std::string &arch, const std::string &mode, const std::vector<Kernel> &ks,
             const std::string &out, const std::string &from, const std::string &dump) {
  model::ChipParams p = model::load_params(arch, {"simulation.timing_mode=" + mode});
  model::Device dev(p);
  std::vector<Prepared> pks;
  if (!from.empty()) {
    std::ifstream in(from + "/kernels.json");
    if (!in) throw Error("bench_sim_speed: cannot read " + from + "/kernels.json");
    for (const json &j : json::parse(in)) {
      bool want = false;
      for (const Kernel &kn : ks) want |= kn.name == j["name"];
      if (want) pks.push_back(from_json(j, from));
    }
  } else {
#ifdef BENCH_NO_COMPILER
    throw Error("bench_sim_speed: built without the compiler: give --from DIR");
#else
    for (const Kernel &kn : ks) pks.push_back(prepare(dev, kn));
#endif
  }
  if (!dump.empty()) {
    json all = json::array();
    for (const Prepared &pk : pks) {
      all.push_back(to_json(pk));
      std::ofstream(dump + "/" + pk.name + ".elf", std::ios::binary)
          .write(reinterpret_cast<const char *>(pk.elf.data()), std::streamsize(pk.elf.size()));
    }
    std::ofstream(dump + "/kernels.json") << all.dump() << "\n";
  }
  json j = json::object();
  for (const Prepared &pk : pks) j[pk.name] = launch(dev, pk);
  std::ofstream(out) << j.dump(1);
  return 0;
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  for (std::string t; std::getline(in, t, ',');)
    if (!t.empty()) v.push_back(t);
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  std::string arch = "mtia-2i", modes = "functional,lt", only, one, out, save, from, dump;
  std::string reference = std::string(OPFORGE_SOURCE_DIR) + "/bench/chip/sim_speed_reference.json";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--arch")
      arch = value();
    else if (a == "--modes")
      modes = value();
    else if (a == "--kernels")
      only = value();
    else if (a == "--reference")
      reference = value();
    else if (a == "--no-reference")
      reference.clear();
    else if (a == "--save")
      save = value();
    else if (a == "--from")
      from = value();
    else if (a == "--dump")
      dump = value();
    else if (a == "--one")
      one = value();
    else if (a == "--out")
      out = value();
    else {
      std::fprintf(stderr,
                   "usage: bench_sim_speed [--arch NAME] [--modes functional,lt] [--kernels a,b] "
                   "[--reference FILE | --no-reference] [--save FILE] [--dump DIR | --from DIR]\n");
      return 2;
    }
  }
  std::vector<Kernel> ks;
  for (Kernel &k : kernels()) {
    std::vector<std::string> want = split(only);
    if (want.empty() || std::find(want.begin(), want.end(), k.name) != want.end())
      ks.push_back(std::move(k));
  }
  try {
    if (!one.empty()) return run_mode(arch, one, ks, out, from, dump);
    json ref;
    if (!reference.empty()) {
      std::ifstream in(reference);
      if (!in) throw Error("bench_sim_speed: cannot read the reference " + reference);
      ref = json::parse(in);
      if (ref.value("arch", "") != arch) ref = json();  // another preset: no comparison
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 1;
    exe[n] = 0;
    json all = {{"arch", arch}, {"modes", json::object()}};
    bool differs = false;
    std::printf(
        "bench_sim_speed: %s; M instr/cpu-s = guest instructions per CPU-second of the "
        "launch%s\n",
        arch.c_str(), ref.is_null() ? "" : "; ratio = this run / the reference");
    for (const std::string &mode : split(modes)) {
      char tmp[] = "/tmp/bench_sim_speed_XXXXXX";
      int fd = mkstemp(tmp);
      if (fd < 0) return 1;
      close(fd);
      std::string cmd = std::string(exe) + " --arch " + arch + " --one " + mode + " --out " + tmp;
      if (!only.empty()) cmd += " --kernels " + only;
      if (!from.empty()) cmd += " --from " + from;
      if (!dump.empty()) cmd += " --dump " + dump;
      std::fflush(stdout);
      if (std::system(cmd.c_str()) != 0) {
        std::remove(tmp);
        return 1;
      }
      std::ifstream in(tmp);
      json j = json::parse(in);
      std::remove(tmp);
      all["modes"][mode] = j;
      uint64_t instr = 0;
      double cpu = 0, ref_cpu = 0;
      uint64_t ref_instr = 0;
      for (const Kernel &kn : ks) {
        const json &r = j[kn.name];
        const uint64_t ki = r["instructions"];
        const double kc = r["cpu_s"];
        instr += ki;
        cpu += kc;
        std::printf(
            "%-11s %-10s instructions %11llu  cycles %11llu  cpu %7.3f s  %7.2f M "
            "instr/cpu-s",
            kn.name.c_str(), mode.c_str(), static_cast<unsigned long long>(ki),
            static_cast<unsigned long long>(r["cycles"].get<uint64_t>()), kc,
            double(ki) / kc / 1e6);
        const json *rr = nullptr, *speed = nullptr;
        if (ref.contains("modes") && ref["modes"].contains(mode) &&
            ref["modes"][mode].contains(kn.name))
          rr = speed = &ref["modes"][mode][kn.name];
        // The speed ratio is against the baseline (the simulator before a
        // speed change) when the reference keeps one.
        if (rr && ref.contains("baseline") && ref["baseline"]["modes"].contains(mode) &&
            ref["baseline"]["modes"][mode].contains(kn.name))
          speed = &ref["baseline"]["modes"][mode][kn.name];
        if (rr) {
          const double rate = double(ki) / kc, ref_rate = (*speed)["instructions"].get<double>() /
                                                          (*speed)["cpu_s"].get<double>();
          ref_cpu += (*speed)["cpu_s"].get<double>();
          ref_instr += (*speed)["instructions"].get<uint64_t>();
          std::printf("  ratio %5.2f", rate / ref_rate);
          for (const char *f : {"instructions", "cycles", "outputs", "counters"})
            if (r[f] != (*rr)[f]) {
              std::printf("  %s DIFFER (reference %s)", f, (*rr)[f].dump().c_str());
              differs = true;
            }
        }
        std::printf("\n");
      }
      std::printf("%-11s %-10s instructions %11llu  cpu %7.3f s  %7.2f M instr/cpu-s", "all",
                  mode.c_str(), static_cast<unsigned long long>(instr), cpu,
                  double(instr) / cpu / 1e6);
      if (ref_cpu > 0)
        std::printf("  ratio %5.2f (reference %.2f M instr/cpu-s)",
                    (double(instr) / cpu) / (double(ref_instr) / ref_cpu),
                    double(ref_instr) / ref_cpu / 1e6);
      std::printf("\n");
    }
    if (!ref.is_null())
      std::printf("%s\n",
                  differs
                      ? "results DIFFER from the reference: a change of the timing model or "
                        "the kernels since it was recorded (then --save a new one), or a "
                        "simulator change that is not exact"
                      : "instructions, cycles, counters and outputs identical to the reference");
    if (!save.empty()) {
      if (ref.contains("baseline")) all["baseline"] = ref["baseline"];  // kept across --save
      std::ofstream(save) << all.dump(1) << "\n";
    }
    return differs ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_sim_speed: %s\n", e.what());
    return 1;
  }
}
