//===- bench_compile.cpp - parse + lower time per test kernel (target <= 5 ms) ===//
//
// For every kernel in tests/compiler/kernels/ prints the median over N runs of
// parse (source -> AST), lower (AST -> ttir) and opt (pass pipeline) in
// milliseconds, plus the op counts before and after the passes.
// Usage: bench_compile [KERNEL_DIR] [RUNS]
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "opforge/compiler/parser.h"
#include "opforge/compiler/passes.h"
#include "opforge/compiler/sema.h"

using namespace opforge;
using namespace opforge::compiler;
using Clock = std::chrono::steady_clock;

namespace {

struct KernelCase {
  std::string file, kernel, signature;
  std::vector<std::string> constexprs;
};

// The launch the test wrappers make, as a signature (fp32 data).
const std::vector<KernelCase> kCases = {
    {"vector_add.py",
     "add_kernel",
     "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
     {"BLOCK_SIZE=1024"}},
    {"fused_softmax.py",
     "softmax_kernel",
     "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_"
     "cols=i32",
     {"BLOCK_SIZE=1024"}},
    {"matmul.py",
     "matmul_kernel",
     "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk="
     "i32,stride_bn=i32,"
     "stride_cm=i32,stride_cn=i32",
     {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=8"}},
    {"layer_norm.py",
     "_layer_norm_fwd_fused",
     "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,N=i32,eps=fp32",
     {"BLOCK_SIZE=1024"}},
    {"block_ptr_matmul.py",
     "matmul_block_ptr_kernel",
     "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk="
     "i32,stride_bn=i32,"
     "stride_cm=i32,stride_cn=i32",
     {"BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=32"}},
    {"cumsum.py",
     "cumsum_kernel",
     "x_ptr=*fp32,y_ptr=*fp32,n_cols=i32,x_row_stride=i32,y_row_stride=i32",
     {"BLOCK_SIZE=128"}},
    {"argmax.py",
     "argmax_kernel",
     "x_ptr=*fp32,out_ptr=*i64,n_cols=i32,row_stride=i32",
     {"BLOCK_SIZE=128"}},
    {"autotuned.py",
     "scale_shift_kernel",
     "x_ptr=*fp32,out_ptr=*fp32,n_elements=i32,scale=fp32,shift=fp32,negative_slope=fp32",
     {"BLOCK_SIZE=256"}},
};

size_t count_ops(const ttir::Module &m) {
  size_t n = 0;
  for (auto &f : m.functions) ttir::walk_block(*f->body, [&](ttir::Operation &) { ++n; });
  return n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
  std::string dir =
      argc > 1 ? argv[1] : std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels";
  int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
  std::printf("%-22s %10s %10s %12s %10s %8s %8s\n", "kernel", "parse_ms", "lower_ms",
              "parse+lower", "opt_ms", "ops", "ops_opt");
  double worst = 0;
  int failures = 0;
  for (const auto &c : kCases) {
    std::string path = dir + "/" + c.file;
    std::ifstream in(path);
    if (!in) {
      std::printf("%-22s missing %s\n", c.file.c_str(), path.c_str());
      ++failures;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    Specialization spec;
    add_signature(spec, c.signature);
    for (auto &ce : c.constexprs) add_constexpr(spec, ce);
    std::vector<double> tp, tl, to;
    size_t ops = 0, ops_opt = 0;
    try {
      for (int r = 0; r < runs; ++r) {
        auto t0 = Clock::now();
        ast::Module m = parse_source(path, text);
        auto t1 = Clock::now();
        LoweredKernel k = lower_kernel(m, c.kernel, spec);
        auto t2 = Clock::now();
        ops = count_ops(*k.module);
        ttir::run_pass_pipeline(*k.module, Knobs{});
        auto t3 = Clock::now();
        ops_opt = count_ops(*k.module);
        tp.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        tl.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
        to.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
      }
    } catch (const std::exception &e) {
      std::printf("%-22s error: %s\n", c.file.c_str(), e.what());
      ++failures;
      continue;
    }
    double p = median(tp), l = median(tl), o = median(to);
    worst = std::max(worst, p + l);
    std::printf("%-22s %10.3f %10.3f %12.3f %10.3f %8zu %8zu\n", c.file.c_str(), p, l, p + l, o,
                ops, ops_opt);
  }
  std::printf("worst parse+lower: %.3f ms (target <= 5 ms per kernel), median of %d runs\n", worst,
              runs);
  return failures == 0 ? 0 : 1;
}
