//===- compiler_compile.cpp - `opforge compile`: run the compiler's stages --===//
#include <algorithm>
#include <iostream>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/harness/cli.h"
#include "opforge/support/arch_config.h"
#include "options.h"
#ifdef OPFORGE_HAVE_CODEGEN
#include "opforge/compiler/codegen.h"
#endif

namespace opforge::cli {
namespace {

void usage(std::ostream &os) {
  os << "usage: opforge compile FILE.py [--kernel NAME] [--signature 'x_ptr=*fp32,n=i32']\n"
        "                       [--constexpr NAME=VALUE]... [--dump STAGE] [--arch NAME|FILE]\n\n"
        "Compile one @triton.jit kernel of FILE.py, specialised on the signature (runtime\n"
        "argument types: *fp32, *fp16, *bf16, *i32, i32, i64, fp32, i1, ...) and constexpr\n"
        "values, and print the form of STAGE (default: opt). Stages:\n";
  for (auto &s : compiler::stages())
    os << "  " << s.name << std::string(s.name.size() < 8 ? 8 - s.name.size() : 1, ' ') << s.summary
       << "\n";
  os << "\nParameters with default values need not be named. Environment switches: see\n"
        "compiler/include/opforge/compiler/knobs.h (OPFORGE_DOT_PRECISION, "
        "OPFORGE_DISABLE_PASSES,\n"
        "OPFORGE_VERIFY_EACH_PASS, OPFORGE_DUMP_IR_DIR, OPFORGE_REPLACE_IR). Constexprs of an\n"
        "@triton.autotune kernel not given default to its first triton.Config.\n"
        "--arch (a preset such as mtia-2i or tiny, or a JSON file) compiles for that chip: its\n"
        "DPE command limits and its local memory (pe.local_mem.size_bytes), which the kernel's\n"
        "stack and block buffers must fit; buffers that do not are spilled to DRAM scratch with\n"
        "a warning (the lowered dump lists them), and a kernel whose DPE buffers alone do not fit\n"
        "is an error (docs/compiler/codegen.md, \"Local memory planning\").\n";
}

int run_compile(const std::vector<std::string> &args) {
#ifdef OPFORGE_HAVE_CODEGEN
  compiler::register_codegen_stages();  // lowered, llir, asm, bin
#endif
  std::string file, dump = "opt", arch;
  std::vector<std::string> signatures, constexprs;
  compiler::CompileOptions opts;
  OptionParser p("compile", [](std::ostream &os) { usage(os); });
  p.text("kernel", &opts.kernel)
      .list("signature", &signatures)
      .list("constexpr", &constexprs)
      .text("dump", &dump)
      .text("arch", &arch)
      .positional("FILE.py", &file);
  if (auto rc = p.parse(args)) return *rc;
  try {
    for (const auto &s : signatures) compiler::add_signature(opts.spec, s);
    for (const auto &c : constexprs) compiler::add_constexpr(opts.spec, c);
  } catch (const Error &e) {
    return p.error(e.message());
  }
  if (file.empty()) return usage_error("compile", "missing FILE.py");
  bool known = false;
  for (auto &s : compiler::stages()) known |= s.name == dump;
  if (!known) return usage_error("compile", "unknown stage '" + dump + "' for --dump");
  try {
    if (!arch.empty()) {
      ArchConfig a = ArchConfig::load(arch);
      opts.target.local_mem_bytes = a.pe.local_mem.size_bytes;
      opts.target.dpe_tile_m = std::min(opts.target.dpe_tile_m, a.pe.dpe.tile_max_m);
      opts.target.dpe_tile_n = std::min(opts.target.dpe_tile_n, a.pe.dpe.tile_max_n);
      opts.target.dpe_tile_k = std::min(opts.target.dpe_tile_k, a.pe.dpe.tile_max_k);
    }
  } catch (const Error &e) {
    return p.error(e.message());
  }
  try {
    compiler::CompileState st = compiler::compile_file(file, opts, dump);
#ifdef OPFORGE_HAVE_CODEGEN
    for (const std::string &w : compiler::compile_warnings(st))
      std::cerr << file << ": warning: " << w << "\n";
#endif
    std::cout << compiler::dump_stage(st, dump);
    return kExitOk;
  } catch (const compiler::CompileError &e) {
    std::cerr << e.rendered();
    return kExitFailure;
  }
}

CommandRegistrar reg{{"compile",
                      "compile a Triton kernel and print a compiler stage (ast ... asm, bin)",
                      run_compile}};

}  // namespace
}  // namespace opforge::cli
