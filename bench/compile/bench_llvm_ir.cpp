//===- bench_llvm_ir.cpp - LLVM's time on LLVM IR files through the backend ===//
//
// Compiles LLVM IR files (the llir stage as `opforge compile --dump llir` or
// OPFORGE_DUMP_IR_DIR writes it) with the backend in process, as the bin
// stage does, and prints per file LLVM's parse / opt / codegen milliseconds of
// the first compile and the best of RUNS. With --out DIR it writes each
// file's object to DIR/<file name>.o, to compare the code of two
// configurations byte for byte (run one file per process: LLVM 16's register
// choice can depend on what the process compiled before).
//
// Usage: bench_llvm_ir [--runs N] [--out DIR] [--no-switches] [--no-pm-reuse]
//                      FILE...
//   --no-switches  compile without the backend's code-generation switches
//                  (llvm_codegen_switches() set to their LLVM defaults)
//   --no-pm-reuse  build the code-generation pass manager for every compile
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llvm_options.h"

using namespace opforge::compiler;

namespace {

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int usage() {
  std::fprintf(stderr,
               "usage: bench_llvm_ir [--runs N] [--out DIR] [--no-switches] [--no-pm-reuse] "
               "FILE...\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  int runs = 1;
  std::string out_dir;
  bool switches = true, reuse = true;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (a == "--no-switches") {
      switches = false;
    } else if (a == "--no-pm-reuse") {
      reuse = false;
    } else if (!a.empty() && a[0] == '-') {
      return usage();
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) return usage();
  try {
    if (!switches) {
      std::vector<LlvmSwitch> defaults = llvm_codegen_switches();
      for (LlvmSwitch &sw : defaults) sw.value = sw.default_value;
      set_llvm_switches(defaults);
    }
    set_llvm_codegen_pm_reuse(reuse);
    std::printf("LLVM start-up (once per process, not in the figures): %.2f ms\n", llvm_warm_up());
    std::printf("%-40s %8s %8s %8s %8s | %8s %8s\n", "file", "first_ms", "parse", "opt", "codegen",
                "best_opt", "best_cg");
    double sum_first = 0, sum_best = 0;
    for (const std::string &f : files) {
      std::string ir = read_file(f);
      LlvmTimes first, best;
      std::vector<uint8_t> object = llvm_ir_to_object(ir, TargetOptions{}, &first);
      best = first;
      for (int r = 1; r < runs; ++r) {
        LlvmTimes t;
        llvm_ir_to_object(ir, TargetOptions{}, &t);
        best.opt_ms = std::min(best.opt_ms, t.opt_ms);
        best.codegen_ms = std::min(best.codegen_ms, t.codegen_ms);
      }
      double first_ms = first.parse_ms + first.opt_ms + first.codegen_ms;
      sum_first += first_ms;
      sum_best += best.opt_ms + best.codegen_ms;
      std::printf("%-40s %8.2f %8.2f %8.2f %8.2f | %8.2f %8.2f\n",
                  std::filesystem::path(f).filename().string().c_str(), first_ms, first.parse_ms,
                  first.opt_ms, first.codegen_ms, best.opt_ms, best.codegen_ms);
      if (!out_dir.empty()) {
        std::filesystem::create_directories(out_dir);
        std::ofstream(
            std::filesystem::path(out_dir) / (std::filesystem::path(f).filename().string() + ".o"),
            std::ios::binary)
            .write(reinterpret_cast<const char *>(object.data()),
                   static_cast<std::streamsize>(object.size()));
      }
    }
    std::printf("sum over %zu files: first %.2f ms, best opt+codegen %.2f ms%s%s\n", files.size(),
                sum_first, sum_best, switches ? "" : ", no switches", reuse ? "" : ", no PM reuse");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_llvm_ir: %s\n", e.what());
    return 1;
  }
  return 0;
}
