//===- bench_compile_binary.cpp - source to KernelBinary time per bench kernel ===//
//
// The kernels and specialisations of bench_kernels (mtia-2i's DPE tile
// limits, TargetOptions' defaults), compiled from source to a linked
// KernelBinary without simulating them. Per kernel: the first compile of
// that source in this process (the figure the target is about; LLVM's
// per-process start-up, llvm_warm_up(), and the runtime library's one
// compile, runtime_library_warm_up(), are done before and printed apart),
// its split (frontend + passes, lowering + LLVM IR, LLVM parse / opt /
// codegen, link), its thread CPU time, and the median of RUNS - 1 further
// compiles of the same source. Usage: bench_compile_binary [RUNS]
// [--llvm-default-o2] [--no-line-table] (the last: LLVM IR without the
// line table's debug info, to measure its cost)
//
//===----------------------------------------------------------------------===//
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"

using namespace opforge::compiler;
using Clock = std::chrono::steady_clock;

namespace {

struct Case {
  const char *name, *file, *kernel, *signature;
  std::vector<std::string> constexprs;
};

const char *kMatmul =
    "M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,"
    "stride_cn=i32";

const std::vector<Case> kCases = {
    {"vector_add",
     "vector_add.py",
     "",
     "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
     {"BLOCK_SIZE=1024"}},
    {"softmax",
     "fused_softmax.py",
     "",
     "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,"
     "n_cols=i32",
     {"BLOCK_SIZE=1024"}},
    {"layer_norm",
     "layer_norm.py",
     "_layer_norm_fwd_rows",
     "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32",
     {"BLOCK_SIZE=1024"}},
    {"argmax_rows",
     "argmax.py",
     "argmax_rows_kernel",
     "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32",
     {"BLOCK_SIZE=1024"}},
    {"matmul_fp32",
     "matmul.py",
     "",
     "a_ptr=*fp32,b_ptr=*fp32,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=4"}},
    {"matmul_bf16",
     "matmul.py",
     "",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
    {"matmul_bf16_2k",
     "matmul.py",
     "",
     "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,",
     {"BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"}},
};

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Figures {
  double total = 0, cpu = 0, frontend = 0, lowering = 0, llvm = 0, link = 0;
  LlvmTimes llvm_times;
};

bool g_line_table = true;

Figures compile_once(const Case &c, bool default_o2) {
  CompileOptions o;
  o.kernel = c.kernel;
  o.knobs = Knobs{};
  if (default_o2) o.target.opt_pipeline = "default";
  std::string sig = c.signature;
  if (!sig.empty() && sig.back() == ',') sig += kMatmul;
  add_signature(o.spec, sig);
  for (auto &ce : c.constexprs) add_constexpr(o.spec, ce);
  Figures f;
  double cpu0 = thread_cpu_ms();
  auto t0 = Clock::now();
  CompileState s =
      compile_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/" + c.file, o, "opt");
  auto t1 = Clock::now();
  LoweredKernelPlan plan = plan_kernel(*s.opt->find(s.kernel), o.target);
  std::string ir = emit_llvm_ir(plan, g_line_table);
  auto t2 = Clock::now();
  std::vector<uint8_t> object = llvm_ir_to_object(ir, o.target, &f.llvm_times);
  auto t3 = Clock::now();
  KernelBinary bin = link_kernel_object(object, plan, o.spec.key(), o.target);
  auto t4 = Clock::now();
  if (bin.elf.empty()) throw std::runtime_error(std::string(c.name) + ": empty binary");
  f.cpu = thread_cpu_ms() - cpu0;
  f.total = ms(t0, t4);
  f.frontend = ms(t0, t1);
  f.lowering = ms(t1, t2);
  f.llvm = ms(t2, t3);
  f.link = ms(t3, t4);
  return f;
}

}  // namespace

int main(int argc, char **argv) {
  int runs = 5;
  bool default_o2 = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--llvm-default-o2")
      default_o2 = true;
    else if (a == "--no-line-table")
      g_line_table = false;
    else
      runs = std::max(1, std::atoi(argv[i]));
  }
  try {
    register_codegen_stages();
    std::printf("LLVM start-up (once per process, not in the figures): %.2f ms\n", llvm_warm_up());
    std::printf("runtime library compile (once per process, not in the figures): %.2f ms\n",
                runtime_library_warm_up());
    std::printf("%-15s %9s %8s | %9s %9s %7s %7s %8s %6s | %12s\n", "kernel", "first_ms", "cpu_ms",
                "frontend", "lowering", "llvm", "opt", "codegen", "link", "median_rest");
    double worst = 0;
    for (const Case &c : kCases) {
      Figures first = compile_once(c, default_o2);
      std::vector<double> rest;
      for (int r = 1; r < runs; ++r) rest.push_back(compile_once(c, default_o2).total);
      std::sort(rest.begin(), rest.end());
      worst = std::max(worst, first.total);
      std::printf("%-15s %9.2f %8.2f | %9.2f %9.2f %7.2f %7.2f %8.2f %6.2f | %12.2f\n", c.name,
                  first.total, first.cpu, first.frontend, first.lowering, first.llvm,
                  first.llvm_times.opt_ms, first.llvm_times.codegen_ms, first.link,
                  rest.empty() ? 0.0 : rest[rest.size() / 2]);
    }
    std::printf("worst first compile: %.2f ms (target <= 20 ms per kernel)%s%s\n", worst,
                default_o2 ? ", LLVM default<O2> middle end" : "",
                g_line_table ? "" : ", no line table");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_compile_binary: %s\n", e.what());
    return 1;
  }
  return 0;
}
