//===- bench_kernels.cpp - generated kernels on the chip: time vs roofline, compile time ===//
//
// For each kernel: source-to-binary compile time, simulated cycles of one
// launch on the preset (default mtia-2i, its timing mode), the roofline bound
// (max of the DRAM bytes the launch needed / DRAM bandwidth, all bytes / SRAM
// bandwidth and FLOPs / peak of the unit used) and the
// ratio bound / simulated; for matmuls also FLOPs / unit peak / simulated
// (the fraction of the DPE peak reached). A second line per kernel says
// where the cycles went, summed over the PEs as a share of PEs x cycles:
// DMA wait and memory stalls, DMA and DPE busy time, and bytes moved by DMA.
// The ew_* kernels (bench/kernels/elementwise_dtype.py: x + y, x * y,
// x * y + z, exp and sigmoid) run in float32, float16 and bfloat16 on the
// same element count; a final table prints cycles per byte moved for each
// and the f16/f32 and bf16/f32 ratios (Zfh and Zvfh: float16 computes
// natively at SEW=16, issue 23), and again with the 16-bit kernels on twice
// the elements (ew_*_f16_2n, ew_*_bf16_2n: the same bytes as float32, so the
// launch's fixed cycles weigh the same per byte). matmul_wrap_* is Triton tutorial 03's
// kernel style ((pid * BLOCK + arange) % M offsets, K-only masks,
// matmul_wrap.py) beside the library matmul at the same shape and blocks;
// a line prints its cycles and DPE-peak share against the library's.
// Usage: bench_kernels [PRESET] [KERNEL...] [--llvm-default-o2]
//
//===----------------------------------------------------------------------===//
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <deque>
#include <map>
#include <tuple>
#include <random>

#include "opforge/support/dtype.h"

#include "opforge/compiler/codegen.h"
#include "opforge/model/device.h"
#include "opforge/model/params.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

struct Arg {
  int64_t elems = 0;  // >0: a tensor of this many elements of `dtype`
  int64_t i = 0;
  double f = 0;
  bool is_float = false;
  DType dtype = DType::Float32;
};

// A tensor argument of n elements of dtype d.
Arg tensor(int64_t n, DType d = DType::Float32) {
  Arg a;
  a.elems = n;
  a.dtype = d;
  return a;
}

// Sum of the counters whose name starts with `prefix` and ends with `suffix`.
double counter_sum(const model::LaunchResult &r, const char *prefix, const char *suffix) {
  double n = 0;
  size_t len = std::strlen(suffix);
  for (auto &[name, v] : r.counter_deltas)
    if (name.rfind(prefix, 0) == 0 && name.size() > len &&
        name.compare(name.size() - len, len, suffix) == 0)
      n += double(v);
  return n;
}

// Sum over the PEs of the counters named pe[..][..].<suffix>.
double pe_sum(const model::LaunchResult &r, const char *suffix) {
  return counter_sum(r, "pe[", suffix);
}

struct Bench {
  const char *name, *file;
  std::string signature;
  std::vector<std::string> constexprs;
  std::vector<Arg> args;
  uint32_t grid;
  double bytes, flops, peak_flops_per_cycle;  // peak of the unit used, whole chip
  bool report_unit_peak = false;              // print FLOPs / peak / simulated too
  const char *kernel = "";                    // empty: the file's first @triton.jit function
};

// The tutorial matmul (matmul.py) on n x n x n: A and B of `ab` (row-major
// with leading dimension ld >= n), fp32 C, BM x BN x BK blocks. Bytes: A, B
// and C once; FLOPs 2 n^3 against `peak` (the DPE's, whole chip).
Bench matmul(const char *name, DType ab, int64_t n, int64_t ld, int bm, int bn, int bk, int group,
             double peak, const char *file = "matmul.py") {
  const std::string t = ab == DType::BFloat16 ? "bf16" : "fp32";
  const double ab_bytes = ab == DType::BFloat16 ? 2 : 4;
  return {name,
          file,
          "a_ptr=*" + t + ",b_ptr=*" + t +
              ",c_ptr=*fp32,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,"
              "stride_bn=i32,stride_cm=i32,stride_cn=i32",
          {"BLOCK_SIZE_M=" + std::to_string(bm), "BLOCK_SIZE_N=" + std::to_string(bn),
           "BLOCK_SIZE_K=" + std::to_string(bk), "GROUP_SIZE_M=" + std::to_string(group)},
          {tensor(n * ld, ab),
           tensor(n * ld, ab),
           tensor(n * n),
           {0, n},
           {0, n},
           {0, n},
           {0, ld},
           {0, 1},
           {0, ld},
           {0, 1},
           {0, n},
           {0, 1}},
          static_cast<uint32_t>((n / bm) * (n / bn)),
          n * n * (2 * ab_bytes + 4),
          2.0 * n * n * n,
          peak,
          true};
}

// CPU time of this thread (the compile figures' second measure: on a loaded
// machine wall time includes waiting for a core).
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// --llvm-default-o2: LLVM's default<O2> middle end instead of the tailored one.
bool g_llvm_default_o2 = false;

// Returns the simulated cycles of one launch.
double run(model::Device &dev, const Bench &b) {
  CompileOptions o;
  if (g_llvm_default_o2) o.target.opt_pipeline = "default";
  o.kernel = b.kernel;
  o.knobs = Knobs::from_env();  // OPFORGE_DUMP_IR_DIR shows each stage
  o.target.dpe_tile_m = dev.params().dpe.tile_max_m;
  o.target.dpe_tile_n = dev.params().dpe.tile_max_n;
  o.target.dpe_tile_k = dev.params().dpe.tile_max_k;
  add_signature(o.spec, b.signature);
  for (auto &c : b.constexprs) add_constexpr(o.spec, c);
  register_codegen_stages();
  // Source to binary, stage by stage: parse + ttir + passes, our lowering
  // and LLVM IR emission, LLVM (optimisation and RISC-V code generation),
  // our assembler and linker.
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  auto t0 = clock::now();
  double cpu0 = thread_cpu_ms();
  const std::string file =
      std::string(b.file).rfind("bench/", 0) == 0
          ? std::string(OPFORGE_SOURCE_DIR) + "/" + b.file
          : std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/" + b.file;
  CompileState s = compile_file(file, o, "opt");
  auto t1 = clock::now();
  LoweredKernelPlan plan = plan_kernel(*s.opt->find(s.kernel), o.target);
  std::string ir = emit_llvm_ir(plan);
  auto t2 = clock::now();
  LlvmTimes llvm_times;
  std::vector<uint8_t> object = llvm_ir_to_object(ir, o.target, &llvm_times);
  auto t3 = clock::now();
  auto bin =
      std::make_shared<KernelBinary>(link_kernel_object(object, plan, o.spec.key(), o.target));
  auto t4 = clock::now();
  double compile_ms = ms(t0, t4), compile_cpu_ms = thread_cpu_ms() - cpu0;
  if (!o.knobs.dump_ir_dir.empty()) {  // the stages this program runs itself
    std::ofstream(o.knobs.dump_ir_dir + "/" + s.kernel + ".llir.txt") << ir;
    std::ofstream(o.knobs.dump_ir_dir + "/" + s.kernel + ".asm.txt")
        << llvm_ir_to_asm(ir, o.target);
  }
  std::mt19937 rng(1);
  std::normal_distribution<float> dist;
  std::vector<ArgValue> values;
  std::vector<uint64_t> bufs;
  for (auto &a : b.args) {
    if (a.elems) {
      size_t eb = a.dtype == DType::Float32 ? 4 : 2;
      std::vector<uint8_t> host(a.elems * eb);
      for (int64_t i = 0; i < a.elems; ++i) {
        float x = dist(rng);
        if (eb == 4) {
          std::memcpy(&host[i * 4], &x, 4);
        } else {
          uint16_t h = a.dtype == DType::BFloat16 ? fp32_to_bf16(x) : fp32_to_fp16(x);
          std::memcpy(&host[i * 2], &h, 2);
        }
      }
      uint64_t addr = dev.alloc(a.elems * eb);
      dev.copy_in(addr, host.data(), a.elems * eb);
      bufs.push_back(addr);
      values.push_back({ArgValue::Kind::Address, addr, 0, 0});
    } else if (a.is_float) {
      values.push_back({ArgValue::Kind::Float, 0, 0, a.f});
    } else {
      values.push_back({ArgValue::Kind::Int, 0, a.i, 0});
    }
  }
  model::KernelLaunch k;
  k.image = model::read_elf(bin->elf, bin->kernel);
  k.args = bin->pack_args(values);
  k.grid = model::Grid3{b.grid, 1, 1};
  model::LaunchResult r = dev.launch(k);
  for (auto a : bufs) dev.free(a);
  const auto &p = dev.params();
  double ghz = p.clock.freq_ghz;
  double dram_bytes_per_cycle = p.dram.channels * p.dram.channel_gbps / ghz;
  double sram_bytes_per_cycle = p.sram.banks * p.sram.bank_bytes_per_cycle;
  // Memory bound: the kernel's bytes through the SRAM, and through DRAM the
  // bytes that had to go there. In cache mode, outputs that fit stay dirty in
  // the SRAM (write-back, full-line writes allocate without a fetch), so DRAM
  // sees only the inputs; the DRAM channels' counters say how much went there,
  // capped at the kernel's own byte count so re-reads never raise the bound.
  double dram_bytes = std::min(
      b.bytes, counter_sum(r, "dram.", "bytes_read") + counter_sum(r, "dram.", "bytes_written"));
  double bound = std::max({dram_bytes / dram_bytes_per_cycle, b.bytes / sram_bytes_per_cycle,
                           b.peak_flops_per_cycle > 0 ? b.flops / b.peak_flops_per_cycle : 0});
  double cycles = std::max<double>(1, r.cycles);
  std::printf(
      "%-14s compile %7.2f ms  simulated %10llu cycles (%9.2f us)  roofline %10.0f cycles  ratio "
      "%5.1f%%",
      b.name, compile_ms, static_cast<unsigned long long>(r.cycles), r.cycles / ghz / 1000.0, bound,
      100.0 * bound / cycles);
  if (b.report_unit_peak)
    std::printf("  unit peak %5.1f%%", 100.0 * b.flops / b.peak_flops_per_cycle / cycles);
  std::printf("  %s\n", r.ok() ? "" : r.traps.front().c_str());
  std::printf(
      "%-14s   compile: frontend+passes %.2f ms, lowering+llir %.2f ms, llvm %.2f ms (parse "
      "%.2f, opt %.2f, codegen %.2f), link %.2f ms; thread CPU time %.2f ms\n",
      "", ms(t0, t1), ms(t1, t2), ms(t2, t3), llvm_times.parse_ms, llvm_times.opt_ms,
      llvm_times.codegen_ms, ms(t3, t4), compile_cpu_ms);
  double pe_cycles = cycles * p.grid.rows * p.grid.cols;
  std::printf(
      "%-14s   per PE-cycle: dma wait %4.1f%%  dpe wait %4.1f%%  dpe queue %4.1f%%  mem stall "
      "%4.1f%%  ifetch stall %4.1f%%  dma busy %4.1f%%  dpe busy %4.1f%%  instructions %.2f  dma "
      "%.1f MB  dram %.1f MB\n",
      "", 100 * pe_sum(r, "stall.dma_wait_cycles") / pe_cycles,
      100 * pe_sum(r, "stall.dpe_wait_cycles") / pe_cycles,
      100 * pe_sum(r, "stall.dpe_queue_cycles") / pe_cycles,
      100 * pe_sum(r, "stall.mem_cycles") / pe_cycles,
      100 * pe_sum(r, "stall.ifetch_cycles") / pe_cycles,
      100 * pe_sum(r, "dma.busy_cycles") / pe_cycles,
      100 * pe_sum(r, "dpe.busy_cycles") / pe_cycles, pe_sum(r, "core.instret") / pe_cycles,
      pe_sum(r, "dma.bytes_read") / 1e6, dram_bytes / 1e6);
  return cycles;
}

// An element-wise kernel of elementwise_dtype.py on n elements of dtype d
// (`inputs` input arrays and one output).
Bench elementwise(const char *name, const char *kernel, int inputs, DType d, int64_t n,
                  double peak) {
  const std::string t = d == DType::Float16 ? "fp16" : d == DType::BFloat16 ? "bf16" : "fp32";
  const double eb = d == DType::Float32 ? 4 : 2;
  std::string sig;
  std::vector<Arg> args;
  for (int k = 0; k <= inputs; ++k) {
    sig += std::string(k == inputs ? "out_ptr"
                       : k == 0    ? "x_ptr"
                       : k == 1    ? "y_ptr"
                                   : "z_ptr") +
           "=*" + t + ",";
    args.push_back(tensor(n, d));
  }
  args.push_back({0, n});
  return {name,
          "bench/kernels/elementwise_dtype.py",
          sig + "n_elements=i32",
          {"BLOCK_SIZE=1024"},
          args,
          static_cast<uint32_t>(n / 1024),
          (inputs + 1) * n * eb,
          std::max(1, inputs - 1) * 1.0 * n,
          peak,
          false,
          kernel};
}

}  // namespace

int main(int argc, char **argv) {
  std::string preset = argc > 1 ? argv[1] : "mtia-2i";
  try {
    model::Device dev(model::load_params(preset));
    double pes = dev.params().grid.rows * dev.params().grid.cols;
    double vec_flops = pes * dev.params().core.vec_lanes;  // fp32 lanes per cycle
    double dpe_fp32 = pes * dev.params().dpe.macs_per_cycle_fp32 * 2;
    double dpe_bf16 = pes * dev.params().dpe.macs_per_cycle_bf16 * 2;
    const int64_t n = 1 << 20, rows = 1024, cols = 1024, mm = 128, big = 1024;
    std::vector<Bench> benches = {
        {"vector_add",
         "vector_add.py",
         "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
         {"BLOCK_SIZE=1024"},
         {{n}, {n}, {n}, {0, n}, {0, 0, 2.0, true}},
         static_cast<uint32_t>(n / 1024),
         3.0 * n * 4,
         2.0 * n,
         vec_flops},
        {"softmax",
         "fused_softmax.py",
         "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_"
         "cols=i32",
         {"BLOCK_SIZE=1024"},
         {{rows * cols}, {rows * cols}, {0, cols}, {0, cols}, {0, rows}, {0, cols}},
         64,
         2.0 * rows * cols * 4,
         4.0 * rows * cols,
         vec_flops},
        {"layer_norm",
         "layer_norm.py",
         "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32",
         {"BLOCK_SIZE=1024"},
         {{rows * cols},
          {rows * cols},
          {cols},
          {cols},
          {rows},
          {rows},
          {0, cols},
          {0, rows},
          {0, cols},
          {0, 0, 1e-5, true}},
         64,  // persistent: each program loops over rows (as the wrapper launches it)
         2.0 * rows * cols * 4,
         8.0 * rows * cols,
         vec_flops,
         false,
         "_layer_norm_fwd_rows"},
        {"argmax_rows",
         "argmax.py",
         "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32",
         {"BLOCK_SIZE=1024"},
         {{rows * cols}, {rows * 2}, {0, rows}, {0, cols}, {0, cols}},
         64,  // persistent: each program loops over rows (as the wrapper launches it)
         1.0 * rows * cols * 4,
         1.0 * rows * cols,
         vec_flops,
         false,
         "argmax_rows_kernel"},
        matmul("matmul_fp32", DType::Float32, mm, mm, 32, 32, 32, 4, dpe_fp32),
        matmul("matmul_bf16", DType::BFloat16, big, big, 64, 64, 64, 8, dpe_bf16),
    };
    // Compute-bound bf16 matmul: at 2048^3 the DPE bound (2 * 2048^3 FLOPs /
    // 131072 FLOPs per cycle = 131,072 cycles on mtia-2i) exceeds the DRAM
    // bound (the 16 MiB of A and B that must come from DRAM / 151.7 B per
    // cycle = 110,600 cycles; C stays in the write-back SRAM). 128x256 output
    // tiles need 2 * (1/128 + 1/256) bytes of A and B per MAC: 24 B per cycle
    // per PE at the DPE's rate, 1,536 B/cycle over 64 PEs, under the SRAM's
    // 2,000 (64x64 tiles would need 4,096). 128 tiles fill the 64 PEs twice.
    const int64_t huge = 2048;
    benches.push_back(
        matmul("matmul_bf16_2k", DType::BFloat16, huge, huge, 128, 256, 64, 8, dpe_bf16));
    // The same matmul with A and B as column slices x[:, :2048] of 2048 x
    // 2080 buffers (leading dimension 2080): a row stride of 4,096 bytes puts
    // every row of an A tile in the same two of the SRAM's 32 line-interleaved
    // banks (line % banks), 4,160 bytes spreads them over all banks. The
    // difference between the two lines is the cost of those bank conflicts.
    const int64_t ld = huge + 32;
    benches.push_back(
        matmul("matmul_bf16_2k_ld", DType::BFloat16, huge, ld, 128, 256, 64, 8, dpe_bf16));
    // The target shape: 4096^3 bf16 with the same kernel and blocks. The DPE
    // bound (2 * 4096^3 / 131,072 = 1,048,576 cycles) is 2.4x the DRAM bound
    // (64 MiB of A and B / 151.7 B per cycle = 442,400 cycles) and the tiles
    // need 1,536 B/cycle of the SRAM's 2,000: compute-bound. 512 tiles keep
    // the 64 PEs busy 8 times over, so each PE's one-time code fetch (about
    // 26,000 cycles) is 2% of the run. About 5 CPU-minutes to simulate.
    const int64_t target = 4096;
    benches.push_back(
        matmul("matmul_bf16_4k", DType::BFloat16, target, target, 128, 256, 64, 8, dpe_bf16));
    // The tutorial-style matmul ((pid * BLOCK + arange) % M offsets) at the
    // library's 2048^3 bf16 shape and blocks: its tiles are DMA transfers
    // under the wrap guard (no tile wraps here: 2048 is a multiple of both).
    benches.push_back(matmul("matmul_wrap_2k", DType::BFloat16, huge, huge, 128, 256, 64, 8,
                             dpe_bf16, "matmul_wrap.py"));
    // A shape whose last row and column tiles wrap (1000 = 7 x 128 + 104).
    benches.push_back(matmul("matmul_wrap_1k", DType::BFloat16, 1000, 1000, 128, 256, 64, 8,
                             dpe_bf16, "matmul_wrap.py"));
    benches.back().grid = 8 * 4;
    benches.push_back(
        matmul("matmul_bf16_1k", DType::BFloat16, 1000, 1000, 128, 256, 64, 8, dpe_bf16));
    benches.back().grid = 8 * 4;
    // float16 and bfloat16 vs float32 element-wise (same element count, half the bytes).
    for (auto [op, kernel, inputs] :
         {std::tuple{"add", "add_kernel", 2}, std::tuple{"mul", "mul_kernel", 2},
          std::tuple{"mul_add", "mul_add_kernel", 3}, std::tuple{"exp", "exp_kernel", 1},
          std::tuple{"sigmoid", "sigmoid_kernel", 1}})
      for (DType d : {DType::Float32, DType::Float16, DType::BFloat16}) {
        static std::deque<std::string> names;  // Bench keeps a const char *; stable
        names.push_back(std::string("ew_") + op +
                        (d == DType::Float16    ? "_f16"
                         : d == DType::BFloat16 ? "_bf16"
                                                : "_f32"));
        benches.push_back(elementwise(names.back().c_str(), kernel, inputs, d, n, vec_flops));
        // The 16-bit kernels again on 2n elements: the bytes of the float32
        // run, so the launch's fixed cycles (dispatch, first transfers, the
        // last store) weigh the same in both per-byte figures.
        if (d == DType::Float32) continue;
        names.push_back(names.back() + "_2n");
        benches.push_back(elementwise(names.back().c_str(), kernel, inputs, d, 2 * n, vec_flops));
      }
    std::printf("preset %s\n", preset.c_str());
    // LLVM's per-process start-up (target initialisation, one compile of a
    // built-in loop that is none of the bench kernels), outside the
    // per-kernel figures.
    std::printf("one-time LLVM start-up %.2f ms (not in the compile figures)\n", llvm_warm_up());
    // The runtime library's one compile per process (runtime_library.cpp).
    std::printf("one-time runtime library compile %.2f ms (not in the compile figures)\n",
                runtime_library_warm_up());
    std::vector<std::string> names;
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]) == "--llvm-default-o2")
        g_llvm_default_o2 = true;
      else
        names.push_back(argv[i]);
    std::map<std::string, double> cycles_per_byte, cycles;
    for (auto &b : benches) {
      bool wanted = names.empty();
      for (auto &n : names) wanted |= b.name == n;
      if (wanted) cycles_per_byte[b.name] = (cycles[b.name] = run(dev, b)) / b.bytes;
    }
    // Tutorial-style (% M) matmul against the library's at the same shape.
    if (cycles.count("matmul_wrap_2k") && cycles.count("matmul_bf16_2k")) {
      const double flops = 2.0 * huge * huge * huge;
      std::printf(
          "tutorial %% M matmul 2048^3 bf16: %.0f cycles (%.1f%% of DPE peak), library matmul %.0f "
          "cycles (%.1f%%), tutorial/library %.2f\n",
          cycles["matmul_wrap_2k"], 100 * flops / dpe_bf16 / cycles["matmul_wrap_2k"],
          cycles["matmul_bf16_2k"], 100 * flops / dpe_bf16 / cycles["matmul_bf16_2k"],
          cycles["matmul_wrap_2k"] / cycles["matmul_bf16_2k"]);
    }
    if (cycles.count("matmul_wrap_1k") && cycles.count("matmul_bf16_1k"))
      std::printf(
          "tutorial %% M matmul 1000^3 bf16 (tail tiles wrap): %.0f cycles, library matmul (masked "
          "tail tiles) %.0f cycles, tutorial/library %.2f\n",
          cycles["matmul_wrap_1k"], cycles["matmul_bf16_1k"],
          cycles["matmul_wrap_1k"] / cycles["matmul_bf16_1k"]);
    for (const char *op : {"add", "mul", "mul_add", "exp", "sigmoid"}) {
      const std::string f32 = std::string("ew_") + op + "_f32",
                        f16 = std::string("ew_") + op + "_f16",
                        bf16 = std::string("ew_") + op + "_bf16";
      if (!cycles_per_byte.count(f32)) continue;
      std::printf("elementwise %-8s cycles/byte  f32 %.4f", op, cycles_per_byte[f32]);
      for (auto &[name, label] : {std::pair{f16, "f16"}, std::pair{bf16, "bf16"}})
        if (cycles_per_byte.count(name))
          std::printf("  %s %.4f  %s/f32 %.2f", label, cycles_per_byte[name], label,
                      cycles_per_byte[name] / cycles_per_byte[f32]);
      std::printf("\n");
      if (!cycles_per_byte.count(f16 + "_2n") && !cycles_per_byte.count(bf16 + "_2n")) continue;
      std::printf("elementwise %-8s cycles/byte at equal bytes (16-bit on 2n elements)  f32 %.4f",
                  op, cycles_per_byte[f32]);
      for (auto &[name, label] : {std::pair{f16 + "_2n", "f16"}, std::pair{bf16 + "_2n", "bf16"}})
        if (cycles_per_byte.count(name))
          std::printf("  %s %.4f  %s/f32 %.2f", label, cycles_per_byte[name], label,
                      cycles_per_byte[name] / cycles_per_byte[f32]);
      std::printf("\n");
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
