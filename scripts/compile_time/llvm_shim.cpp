// llvm_shim.cpp - LD_PRELOAD helper for compile-time studies (not part of the build).
//
// Preloaded into any opforge binary that compiles kernels (chip_kernel_tests,
// codegen_tests, bench_compile_binary, bench_kernels), it
//   - writes the text of every LLVM module the backend parses to
//     $CG_DUMP_LLIR/<hash>.ll (one file per distinct module), and
//   - with CG_LLVM_ARGS="-disable-lsr ..." sets LLVM options at load time,
//     as llc would (options the backend sets itself are overridden by it),
//   - with CG_OPT_PIPELINE="function(sroa,...)" (opt's -passes syntax) runs
//     that middle end instead of the one the backend asks for (its tailored
//     -O2 or LLVM's default<O2>); CG_OPT_PIPELINE_FILE reads it from a file,
//   - with CG_LLVM_LATE_ARGS="disable-block-placement=false ..." sets LLVM
//     options before each middle end, after the backend set its own switches
//     (so the backend's can be undone, e.g. to measure the configuration
//     before a switch was adopted; code-generation options take effect when
//     the backend builds its code-generation pass manager, at the first
//     compile).
// Build: g++ -std=c++17 -O1 -fPIC -shared -I/usr/lib/llvm-16/include llvm_shim.cpp \
//          -o llvm_shim.so -Wl,--version-script=llvm_shim.map -L/usr/lib/llvm-16/lib -lLLVM-16 -ldl
// (llvm_shim.map: `LLVM_16 { global: *; };`, libLLVM-16's symbol version.)
// Use:   CG_DUMP_LLIR=/tmp/ir LD_PRELOAD=$PWD/llvm_shim.so build/tests/compiler/chip_kernel_tests
//        CG_LLVM_ARGS=-disable-lsr LD_PRELOAD=$PWD/llvm_shim.so build/bench/kernels/bench_kernels
//        mtia-2i
#include <dlfcn.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using ParseFn = std::unique_ptr<llvm::Module> (*)(llvm::StringRef, llvm::SMDiagnostic &,
                                                  llvm::LLVMContext &, llvm::SlotMapping *);

namespace llvm {
std::unique_ptr<Module> parseAssemblyString(StringRef text, SMDiagnostic &diag, LLVMContext &ctx,
                                            SlotMapping *slots) {
  static ParseFn real = reinterpret_cast<ParseFn>(
      dlvsym(RTLD_NEXT,
             "_ZN4llvm19parseAssemblyStringENS_9StringRefERNS_12SMDiagnosticERNS_"
             "11LLVMContextEPNS_11SlotMappingE",
             "LLVM_16"));
  if (const char *dir = std::getenv("CG_DUMP_LLIR")) {
    std::string t = text.str();
    std::ofstream(std::string(dir) + "/" + std::to_string(std::hash<std::string>{}(t)) + ".ll")
        << t;
  }
  return real(text, diag, ctx, slots);
}

// The module-level pipeline parser, as the backend calls it; the replacement
// text comes from the environment.
using ParsePipelineFn = Error (*)(PassBuilder *, ModulePassManager &, StringRef);
Error PassBuilder::parsePassPipeline(ModulePassManager &mpm, StringRef text) {
  static ParsePipelineFn real = reinterpret_cast<ParsePipelineFn>(
      dlvsym(RTLD_NEXT,
             "_ZN4llvm11PassBuilder17parsePassPipelineERNS_11PassManagerINS_6ModuleENS_"
             "15AnalysisManagerIS2_JEEEJEEENS_9StringRefE",
             "LLVM_16"));
  static const std::string replacement = [] {
    if (const char *file = std::getenv("CG_OPT_PIPELINE_FILE")) {
      std::ifstream in(file);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string t = ss.str();
      while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
      return t;
    }
    const char *p = std::getenv("CG_OPT_PIPELINE");
    return std::string(p ? p : "");
  }();
  if (const char *late = std::getenv("CG_LLVM_LATE_ARGS")) {
    std::istringstream is(late);
    for (std::string w; is >> w;) {
      size_t eq = w.find('=');
      std::string name = w.substr(0, eq), value = eq == std::string::npos ? "" : w.substr(eq + 1);
      auto &options = cl::getRegisteredOptions();
      auto it = options.find(name);
      if (it == options.end() || it->second->addOccurrence(0, name, value))
        errs() << "llvm_shim: cannot set -" << w << "\n";
    }
  }
  return real(this, mpm, replacement.empty() ? text : StringRef(replacement));
}
}  // namespace llvm

__attribute__((constructor)) static void set_llvm_args() {
  const char *args = std::getenv("CG_LLVM_ARGS");
  if (!args) return;
  static std::vector<std::string> words{"llvm_shim"};
  std::istringstream is(args);
  for (std::string w; is >> w;) words.push_back(w);
  static std::vector<const char *> argv;
  for (const std::string &w : words) argv.push_back(w.c_str());
  llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "", &llvm::errs());
}
