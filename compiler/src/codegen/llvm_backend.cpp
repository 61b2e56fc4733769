//===- llvm_backend.cpp - the `asm` stage: LLVM 16 in process, riscv64 +v, -O2 ===//
//
// The only translation unit (with its library opforge_codegen_llvm) that sees
// LLVM headers. Parses the emitted IR, runs an -O2 middle-end pipeline (loop
// vectorizer with scalable RVV vectors included) and the RISC-V code
// generator at CodeGenOpt::Default (medany code model, lp64d) to a relocatable
// object (with the IR's line table as .debug_line: llvm_line_table.cpp), or
// to GNU-syntax assembly for the asm stage's dump (debug info stripped).
//
// Compile time (docs/compiler/codegen.md, "Compile time"): the TargetMachine
// and the LLVMContext live per thread and are reused across compiles; the
// middle end runs kTailoredO2, LLVM 16's default<O2> pipeline less the passes
// that leave our kernels' code unchanged (module-level and call-graph passes
// for the one function without calls, attribute inference, coroutine and
// OpenMP passes, ...). TargetOptions::opt_pipeline = "default" runs LLVM's own
// default<O2> instead, for comparisons. Both LLVM pipelines run with
// kCodegenSwitches (work that leaves our kernels' code unchanged, switched
// off through LLVM's option registry) and, for objects, one legacy pass
// manager per thread and target machine, reused across compiles.
//
// LLVM fatal errors (report_fatal_error: "Frame offsets outside of the signed
// 32-bit range not supported", ...) abort the process by default, and LLVM 16
// requires its fatal error handler not to return. Debian's LLVM is built
// without exceptions (LLVM_ENABLE_EH OFF), so throwing through its frames is
// not an option. Our handler instead siglongjmps back to the compile that
// was running on this thread, which throws an opforge::Error naming the LLVM
// message: an error of that kernel. LLVM's frames between are abandoned
// without their destructors, so the thread's LLVM state (context, target
// machine, pass manager) is leaked, not reused, and a fresh one is made for
// the next compile; the option lock, if held, is released. A fatal error
// outside a compile prints one line and exits with status 1.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/AsmParser/LLParser.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llvm_options.h"
#include "opforge/support/error.h"
#include "llvm_outline.h"

namespace opforge::compiler {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// LLVM 16's default<O2> pipeline as PassBuilder builds it with our tuning
// (no unrolling, no interleaving, no SLP), less every pass whose removal
// leaves the RISC-V code of 130 bench and test kernels byte-identical
// (docs/compiler/compile_time.md: what was dropped and how it was checked).
// Kept: SROA, EarlyCSE, InstCombine, SimplifyCFG, the inliner (the
// alwaysinline fp16 helpers), LoopRotate, LICM, GVN, LoopVectorize,
// InstSimplify, DivRemPairs, GlobalDCE (drops the unused helpers). Also
// dropped: two of default<O2>'s six InstCombine runs, the one between the
// inliner pipeline's SimplifyCFG and IndVarSimplify and the one after
// LoopVectorize, and LoopLoadElimination (about 49 M host instructions of
// 1,120 M over the 7 bench kernels, 4.4%): the later InstCombine runs do
// their work and the 7 bench kernels' objects stay byte-identical (their
// simulated cycles are equal); other kernels were not compared byte for
// byte (the chip tests run them against the interpreter;
// docs/compiler/compile_time.md, "Code-changing configuration"). Since the
// element loops are strip loops written by the emitter (llir_vector.cpp),
// IPSCCP, SpeculativeExecution, Reassociate, IndVarSimplify and the
// JumpThreading/CorrelatedValuePropagation pairs are dropped too: they
// changed the bench kernels' code by little (cycles within +0.3% for the
// row kernels, the matmuls within the history noise; compile_time.md, "A
// lighter middle end") for 3 to 13 M host instructions a kernel.
constexpr const char *kTailoredO2 =
    "function<eager-inv>(sroa<modify-cfg>,early-cse<>),"
    "function<eager-inv>(instcombine,simplifycfg<bonus-inst-threshold=1;"
    "no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
    "no-hoist-common-insts;no-sink-common-insts>),require<globals-aa>,"
    "function(invalidate<aa>),require<profile-summary>,cgscc(devirt<4>(inline,"
    "function<eager-inv>(early-cse<memssa>,instcombine,require<opt-remark-emit>,"
    "loop-mssa(loop-rotate,licm<allowspeculation>),simplifycfg<bonus-inst-threshold=1;"
    "no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
    "no-hoist-common-insts;no-sink-common-insts>,gvn<>,instcombine))),"
    "function<eager-inv>(loop-vectorize<interleave-forced-only;no-vectorize-forced-only;>,"
    "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;"
    "switch-range-to-icmp;switch-to-lookup;no-keep-loops;hoist-common-insts;"
    "sink-common-insts>,sroa<preserve-cfg>,instcombine,require<opt-remark-emit>,"
    "loop-mssa(licm<allowspeculation>),instsimplify,div-rem-pairs),globaldce";

// LLVM switches (llc's -NAME=VALUE), set once per process before the first
// compile. Each one removes a pass, or work inside one, whose removal leaves
// the RISC-V code of every kernel byte-identical (checked on the bench
// kernels, the test kernels and the distinct kernels the chip tests compile,
// each in a fresh process: docs/compiler/compile_time.md). Switches that
// change the code were measured against the rule of compile_time.md
// ("Code-changing configuration": fewer host instructions, no bench kernel's
// simulated cycles worse by more than 0.3%) and are not here:
// -disable-block-placement (softmax +0.7%, bf16 matmuls +1.9/+2.4%),
// -disable-lsr (layer_norm +0.4%), -regalloc=basic (argmax_rows +2.4%),
// -enable-misched=false (bf16 matmuls +0.8%), -disable-machine-cse with
// other changes (matmul_bf16 +0.4%). The one
// exception to byte-identity is -instcombine-max-iterations=1: it changes
// the code of 4 of 256 captured modules (test kernels, no bench kernel: the
// bench cycles are equal, the chip tests pass) and saves about a third of
// InstCombine's time, the largest part of the middle end.
struct CodegenSwitch {
  const char *name, *value, *llvm_default;
};
constexpr CodegenSwitch kCodegenSwitches[] = {
    // Middle end: every InstCombine run sweeps the function once instead of
    // until a sweep changes nothing (LLVM 17's default); the pipeline's later
    // InstCombine runs see what is left.
    {"instcombine-max-iterations", "1", "1000"},
    // Code generator.
    {"disable-machine-dce", "true", "false"},               // both dead-MI passes: ISel leaves none
    {"disable-expand-reductions", "true", "false"},         // RVV reductions are legal
    {"disable-partial-libcall-inlining", "true", "false"},  // no sqrt/libm calls in kernels
    {"disable-mergeicmps", "true", "false"},                // no memcmp-like compare chains
    {"disable-post-ra", "true", "false"},                   // generic-rv64: no post-RA scheduler
    {"disable-adv-copy-opt", "true", "false"},              // peephole's copy rewriting: no change
};

// LLVM's global options (the switches and the vectorizer's LMUL) are set
// under this lock.
std::mutex &option_mutex() {
  static std::mutex m;
  return m;
}

// Recovery from LLVM fatal errors (file banner): where the running compile
// jumps back to, the message, and whether this thread holds option_mutex().
thread_local sigjmp_buf *t_recover = nullptr;
thread_local std::string t_fatal_message;
thread_local bool t_option_locked = false;

[[noreturn]] void on_llvm_fatal_error(void *, const char *reason, bool) {
  if (t_recover) {
    t_fatal_message = reason ? reason : "(no message)";
    siglongjmp(*t_recover, 1);
  }
  std::fprintf(stderr, "opforge: error: LLVM: %s\n", reason ? reason : "(no message)");
  std::fflush(stderr);
  std::_Exit(1);
}

// option_mutex() held for a scope, known to the fatal-error recovery.
struct OptionLock {
  OptionLock() {
    option_mutex().lock();
    t_option_locked = true;
  }
  ~OptionLock() {
    t_option_locked = false;
    option_mutex().unlock();
  }
  OptionLock(const OptionLock &) = delete;
  OptionLock &operator=(const OptionLock &) = delete;
};

llvm::cl::Option &registered_option(const std::string &name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end() || !it->second)
    throw Error("codegen: LLVM 16 has no command-line option -" + name);
  return *it->second;
}

// Boolean options (cl::opt<bool>) take an optional value, unsigned ones
// (cl::opt<unsigned>) a required one; both with internal storage. The value
// read back after setting must be the one set.
std::string switch_value(const std::string &name, const llvm::cl::Option &o) {
  switch (o.getValueExpectedFlag()) {
    case llvm::cl::ValueOptional:
      return static_cast<const llvm::cl::opt<bool> &>(o).getValue() ? "true" : "false";
    case llvm::cl::ValueRequired:
      return std::to_string(static_cast<const llvm::cl::opt<unsigned> &>(o).getValue());
    default:
      throw Error("codegen: LLVM option -" + name + " is neither a boolean nor an unsigned option");
  }
}

void set_switches_locked(const std::vector<LlvmSwitch> &switches) {
  for (const LlvmSwitch &sw : switches) {
    llvm::cl::Option &o = registered_option(sw.name);
    // Checked here so that LLVM's own parser never reports (on stderr).
    std::string now = switch_value(sw.name, o);
    bool boolean = now == "true" || now == "false";
    bool valid = boolean ? sw.value == "true" || sw.value == "false"
                         : !sw.value.empty() && sw.value.size() <= 9 &&
                               sw.value.find_first_not_of("0123456789") == std::string::npos;
    if (!valid || o.addOccurrence(0, sw.name, sw.value))
      throw Error("codegen: LLVM option -" + sw.name + " does not take the value '" + sw.value +
                  "'");
    if (switch_value(sw.name, o) != sw.value)
      throw Error("codegen: LLVM option -" + sw.name + " did not take the value '" + sw.value +
                  "'");
  }
}

void apply_codegen_switches() {
  static std::once_flag once;
  std::call_once(once, [] {
    OptionLock lock;
    set_switches_locked(llvm_codegen_switches());
  });
}

std::atomic<bool> g_reuse_codegen_pm{true};
// Bumped by set_llvm_switches(): code-generation switches are read when a
// pass manager is built, so a reused one built before is rebuilt.
std::atomic<unsigned> g_switch_generation{0};

// Per-thread LLVM state reused across compiles.
struct Backend {
  std::unique_ptr<llvm::LLVMContext> ctx;
  int ctx_compiles = 0;
  std::string tm_key;
  std::unique_ptr<llvm::TargetMachine> tm;
  // The object path's legacy code-generation pipeline, bound to obj_os which
  // writes into obj_buf; built for `tm` and destroyed before it. LLVM
  // supports running it on module after module (llc -compile-twice): the
  // AsmPrinter finishes and resets its MC streamer and the machine module
  // info its MCContext at the end of every run.
  llvm::SmallVector<char, 0> obj_buf;
  std::unique_ptr<llvm::raw_svector_ostream> obj_os;
  std::unique_ptr<llvm::legacy::PassManager> obj_pm;
  unsigned obj_pm_generation = 0;
  ~Backend() {
    obj_pm.reset();
    obj_os.reset();
    tm.reset();
  }
};

Backend &backend() {
  thread_local Backend b;
  return b;
}

void init_llvm() {
  static std::once_flag init;
  std::call_once(init, [] {
    LLVMInitializeRISCVTargetInfo();
    LLVMInitializeRISCVTarget();
    LLVMInitializeRISCVTargetMC();
    LLVMInitializeRISCVAsmPrinter();
    LLVMInitializeRISCVAsmParser();  // inline asm (Xmtia .insn) is parsed when emitting
    llvm::install_fatal_error_handler(on_llvm_fatal_error);
  });
  apply_codegen_switches();
}

llvm::TargetMachine &target_machine(Backend &b, const TargetOptions &target) {
  if (!b.tm || b.tm_key != target.key()) {
    std::string err;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(target.triple, err);
    if (!t) throw Error("codegen: LLVM has no target for " + target.triple + ": " + err);
    llvm::TargetOptions topts;
    topts.MCOptions.ABIName = "lp64d";
    llvm::CodeGenOpt::Level level =
        target.opt_level >= 2 ? llvm::CodeGenOpt::Default : llvm::CodeGenOpt::None;
    b.obj_pm.reset();  // bound to the old target machine
    b.obj_os.reset();
    b.tm.reset(t->createTargetMachine(target.triple, "generic-rv64", target.features, topts,
                                      llvm::Reloc::Static, llvm::CodeModel::Medium, level));
    if (!b.tm)
      throw Error("codegen: cannot create the RISC-V target machine (" + target.features + ")");
    b.tm_key = target.key();
  }
  return *b.tm;
}

// Parses and verifies the IR in the thread's context. The context is
// replaced every 256 compiles so that the types and constants it uniques
// do not grow without bound in long-running processes.
std::unique_ptr<llvm::Module> parse_module(Backend &b, const std::string &llvm_ir,
                                           llvm::TargetMachine &tm, const TargetOptions &target) {
  if (!b.ctx || b.ctx_compiles >= 256) {
    b.ctx = std::make_unique<llvm::LLVMContext>();
    b.ctx_compiles = 0;
  }
  ++b.ctx_compiles;
  llvm::SMDiagnostic diag;
  // LLParser without UpgradeDebugInfo (parseAssemblyString's): that runs the
  // verifier once more on a module with debug info, and aborts on an invalid
  // one; verifyModule below checks it once, debug info included.
  auto mod = std::make_unique<llvm::Module>("llir", *b.ctx);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(llvm_ir, "llir", false),
                             llvm::SMLoc());
  if (llvm::LLParser(llvm_ir, sources, diag, mod.get(), nullptr, *b.ctx)
          .Run(/*UpgradeDebugInfo=*/false))
    mod.reset();
  if (!mod) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    diag.print("llir", os, false);
    throw Error("codegen: the emitted LLVM IR does not parse (line " +
                std::to_string(diag.getLineNo()) + "): " + os.str());
  }
  mod->setDataLayout(tm.createDataLayout());
  mod->setTargetTriple(target.triple);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (llvm::verifyModule(*mod, &os))
    throw Error("codegen: the emitted LLVM IR is invalid: " + os.str());
  return mod;
}

void optimize(llvm::Module &mod, llvm::TargetMachine &tm, const TargetOptions &target) {
  if (target.opt_level <= 0) return;
  if (target.opt_pipeline != "" && target.opt_pipeline != "default")
    throw Error("codegen: unknown opt_pipeline '" + target.opt_pipeline +
                "' (empty: tailored -O2, \"default\": LLVM's default pipeline)");
  // The LMUL the loop vectorizer works with is LLVM's global option
  // -riscv-v-register-bit-width-lmul; the emitter chose it per kernel.
  OptionLock lock;
  unsigned lmul = 1;
  if (auto *c = llvm::mdconst::extract_or_null<llvm::ConstantInt>(mod.getModuleFlag(kLmulFlag)))
    lmul = static_cast<unsigned>(c->getZExtValue());
  if (lmul != 1 && lmul != 2 && lmul != 4 && lmul != 8)
    throw Error("codegen: module flag " + std::string(kLmulFlag) + " = " + std::to_string(lmul) +
                " is not an LMUL of 1, 2, 4 or 8");
  static_cast<llvm::cl::opt<unsigned> &>(registered_option("riscv-v-register-bit-width-lmul"))
      .setValue(lmul);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // No loop unrolling and no interleaving of vectorized loops: an RVV loop
  // at LMUL 2..8 already covers 32..128 fp32 elements a strip, and every
  // extra instruction costs compile time and a first fetch from SRAM on
  // each PE (the ISS fetches code word by word through the memory system).
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  tuning.LoopInterleaving = false;
  // Functions marked optnone (cold fallback paths, llir_cold.cpp) are
  // skipped by every pass: the new pass manager honours the attribute only
  // through this instrumentation.
  llvm::PassInstrumentationCallbacks pic;
  llvm::OptNoneInstrumentation optnone(/*DebugLogging=*/false);
  optnone.registerCallbacks(pic);
  llvm::PassBuilder pb(&tm, tuning, std::nullopt, &pic);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (target.opt_level == 2 && target.opt_pipeline.empty()) {
    if (llvm::Error e = pb.parsePassPipeline(mpm, kTailoredO2))
      throw Error("codegen: the tailored -O2 pipeline does not parse: " +
                  llvm::toString(std::move(e)));
  } else {
    llvm::OptimizationLevel ol = target.opt_level >= 3   ? llvm::OptimizationLevel::O3
                                 : target.opt_level == 2 ? llvm::OptimizationLevel::O2
                                                         : llvm::OptimizationLevel::O1;
    mpm = pb.buildPerModuleDefaultPipeline(ol);
  }
  mpm.run(mod, mam);
}

void emit(llvm::Module &mod, llvm::TargetMachine &tm, llvm::CodeGenFileType type,
          llvm::SmallVectorImpl<char> &out) {
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    throw Error("codegen: the RISC-V target cannot emit this file type");
  pm.run(mod);
}

// The object path with the thread's reused pass manager (about 0.1 ms of pass
// construction saved per compile).
void emit_object_reusing(Backend &b, llvm::Module &mod, llvm::TargetMachine &tm,
                         llvm::SmallVectorImpl<char> &out) {
  if (b.obj_pm && b.obj_pm_generation != g_switch_generation.load()) b.obj_pm.reset();
  if (!b.obj_pm) {
    b.obj_pm_generation = g_switch_generation.load();
    b.obj_buf.clear();
    b.obj_os = std::make_unique<llvm::raw_svector_ostream>(b.obj_buf);
    auto pm = std::make_unique<llvm::legacy::PassManager>();
    if (tm.addPassesToEmitFile(*pm, *b.obj_os, nullptr, llvm::CGFT_ObjectFile))
      throw Error("codegen: the RISC-V target cannot emit an object file");
    b.obj_pm = std::move(pm);
  }
  b.obj_buf.clear();
  b.obj_pm->run(mod);
  out.assign(b.obj_buf.begin(), b.obj_buf.end());
  b.obj_buf.clear();
}

template <typename Out>
void compile_unguarded(const std::string &llvm_ir, const TargetOptions &target,
                       llvm::CodeGenFileType type, LlvmTimes *times, Out &result);

// Runs one compile; an LLVM fatal error inside becomes an opforge::Error (file banner).
template <typename Out>
Out compile(const std::string &llvm_ir, const TargetOptions &target, llvm::CodeGenFileType type,
            LlvmTimes *times) {
  Out result;
  sigjmp_buf recover;
  sigjmp_buf *const outer = t_recover;
  if (sigsetjmp(recover, 0) != 0) {
    t_recover = outer;
    if (t_option_locked) {
      t_option_locked = false;
      option_mutex().unlock();
    }
    // Abandon the thread's LLVM state mid-operation: leaked, never reused or destroyed.
    Backend &b = backend();
    (void)b.obj_pm.release();
    (void)b.obj_os.release();
    (void)b.tm.release();
    (void)b.ctx.release();
    b.tm_key.clear();
    b.ctx_compiles = 0;
    throw Error("codegen: LLVM fatal error: " + t_fatal_message);
  }
  t_recover = &recover;
  try {
    compile_unguarded(llvm_ir, target, type, times, result);
  } catch (...) {
    t_recover = outer;
    throw;
  }
  t_recover = outer;
  return result;
}

template <typename Out>
void compile_unguarded(const std::string &llvm_ir, const TargetOptions &target,
                       llvm::CodeGenFileType type, LlvmTimes *times, Out &result) {
  init_llvm();
  Backend &b = backend();
  auto t0 = Clock::now();
  llvm::TargetMachine &tm = target_machine(b, target);
  std::unique_ptr<llvm::Module> mod = parse_module(b, llvm_ir, tm, target);
  outline_cold_regions(*mod);  // before the middle end, which then skips them (optnone)
  // The line table goes into objects only: the ISA library's assembler
  // takes no .loc or DWARF sections, and the code is the same without.
  if (type == llvm::CGFT_AssemblyFile) llvm::StripDebugInfo(*mod);
  auto t1 = Clock::now();
  optimize(*mod, tm, target);
  auto t2 = Clock::now();
  llvm::SmallString<0> out;
  // Objects carry .stack_sizes (each function's static frame): the local
  // memory check (local_mem.cpp) reads it; the ISA assembler takes no such
  // section, so assembly goes without.
  tm.Options.EmitStackSizeSection = type == llvm::CGFT_ObjectFile;
  if (type == llvm::CGFT_ObjectFile && g_reuse_codegen_pm.load())
    emit_object_reusing(b, *mod, tm, out);
  else
    emit(*mod, tm, type, out);
  if (times) {
    times->parse_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    times->opt_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
    times->codegen_ms = ms_since(t2);
  }
  result = Out(out.begin(), out.end());
}

}  // namespace

std::vector<LlvmSwitch> llvm_codegen_switches() {
  std::vector<LlvmSwitch> out;
  for (const CodegenSwitch &sw : kCodegenSwitches)
    out.push_back({sw.name, sw.value, sw.llvm_default});
  return out;
}

void set_llvm_switches(const std::vector<LlvmSwitch> &switches) {
  init_llvm();
  OptionLock lock;
  set_switches_locked(switches);
  ++g_switch_generation;
}

std::string llvm_switch_value(const std::string &name) {
  init_llvm();
  OptionLock lock;
  return switch_value(name, registered_option(name));
}

void set_llvm_codegen_pm_reuse(bool reuse) { g_reuse_codegen_pm.store(reuse); }

std::string llvm_ir_to_asm(const std::string &llvm_ir, const TargetOptions &target,
                           LlvmTimes *times) {
  std::string text = compile<std::string>(llvm_ir, target, llvm::CGFT_AssemblyFile, times);
  // GNU as 2.40 rejects an arch attribute naming Zvfh (it knows Zfh; Zvfh
  // came in 2.41). Zvfh adds no encodings, so the attribute leaves it out
  // and the text stays GNU as input.
  if (const size_t at = text.find("_zvfh0p1"); at != std::string::npos) text.erase(at, 8);
  return text;
}

std::vector<uint8_t> llvm_ir_to_object(const std::string &llvm_ir, const TargetOptions &target,
                                       LlvmTimes *times) {
  return compile<std::vector<uint8_t>>(llvm_ir, target, llvm::CGFT_ObjectFile, times);
}

double llvm_warm_up(const TargetOptions &target) {
  // x[i] = x[i] * s + 1 and a sum over x: a vectorized loop with a run-time
  // trip count and a reduction, as the element loops of the kernels.
  static const char *kLoop = R"(define void @_start(ptr %args) nounwind "no-builtins" {
entry:
  %n = load i64, ptr %args
  %px = getelementptr i8, ptr %args, i64 8
  %x = load ptr, ptr %px
  %ps = getelementptr i8, ptr %args, i64 16
  %s = load float, ptr %ps
  %acc = alloca float
  store float 0.0, ptr %acc
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum1, %loop ]
  %p = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %p
  %m = fmul float %v, %s
  %w = fadd float %m, 1.0
  store float %w, ptr %p
  %sum1 = fadd fast float %sum, %w
  %i1 = add nsw i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %done
done:
  store float %sum1, ptr %ps
  br label %exit
exit:
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 1, !"opforge.lmul", i32 4}
)";
  auto t0 = Clock::now();
  llvm_ir_to_object(kLoop, target);
  return ms_since(t0);
}

}  // namespace opforge::compiler
