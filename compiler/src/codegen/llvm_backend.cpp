//===- llvm_backend.cpp - the `asm` stage: LLVM 16 in process, riscv64 +v, -O2 ===//
//
// The only translation unit (with its library opforge_codegen_llvm) that sees
// LLVM headers. Parses the emitted IR, runs the new pass manager's O2
// pipeline (loop vectorizer with scalable RVV vectors included) and the
// RISC-V code generator (medany code model, lp64d) to GNU-syntax assembly.
//
//===----------------------------------------------------------------------===//
#include <mutex>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

std::string llvm_ir_to_asm(const std::string &llvm_ir, const TargetOptions &target) {
  static std::once_flag init;
  std::call_once(init, [] {
    LLVMInitializeRISCVTargetInfo();
    LLVMInitializeRISCVTarget();
    LLVMInitializeRISCVTargetMC();
    LLVMInitializeRISCVAsmPrinter();
    LLVMInitializeRISCVAsmParser();  // inline asm (Xmtia .insn) is parsed when emitting
  });
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> mod = llvm::parseAssemblyString(llvm_ir, diag, ctx);
  if (!mod) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    diag.print("llir", os, false);
    throw Error("codegen: the emitted LLVM IR does not parse (line " +
                std::to_string(diag.getLineNo()) + "): " + os.str());
  }
  // One TargetMachine per thread and target, reused across compiles.
  thread_local std::string tm_key;
  thread_local std::unique_ptr<llvm::TargetMachine> tm;
  if (!tm || tm_key != target.key()) {
    std::string err;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(target.triple, err);
    if (!t) throw Error("codegen: LLVM has no target for " + target.triple + ": " + err);
    llvm::TargetOptions topts;
    topts.MCOptions.ABIName = "lp64d";
    llvm::CodeGenOpt::Level level =
        target.opt_level >= 2 ? llvm::CodeGenOpt::Default : llvm::CodeGenOpt::None;
    tm.reset(t->createTargetMachine(target.triple, "generic-rv64", target.features, topts,
                                    llvm::Reloc::Static, llvm::CodeModel::Medium, level));
    if (!tm)
      throw Error("codegen: cannot create the RISC-V target machine (" + target.features + ")");
    tm_key = target.key();
  }
  mod->setDataLayout(tm->createDataLayout());
  mod->setTargetTriple(target.triple);
  {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    if (llvm::verifyModule(*mod, &os))
      throw Error("codegen: the emitted LLVM IR is invalid: " + os.str());
  }
  if (target.opt_level > 0) {
    // The LMUL the loop vectorizer works with is LLVM's global option
    // -riscv-v-register-bit-width-lmul; the emitter chose it per kernel.
    static std::mutex option_mutex;
    std::lock_guard<std::mutex> lock(option_mutex);
    unsigned lmul = 1;
    if (auto *c = llvm::mdconst::extract_or_null<llvm::ConstantInt>(mod->getModuleFlag(kLmulFlag)))
      lmul = static_cast<unsigned>(c->getZExtValue());
    if (lmul != 1 && lmul != 2 && lmul != 4 && lmul != 8)
      throw Error("codegen: module flag " + std::string(kLmulFlag) + " = " + std::to_string(lmul) +
                  " is not an LMUL of 1, 2, 4 or 8");
    auto &options = llvm::cl::getRegisteredOptions();
    if (auto it = options.find("riscv-v-register-bit-width-lmul"); it != options.end())
      static_cast<llvm::cl::opt<unsigned> *>(it->second)->setValue(lmul);
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
    llvm::PassBuilder pb(tm.get(), tuning);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::OptimizationLevel ol = target.opt_level >= 3   ? llvm::OptimizationLevel::O3
                                 : target.opt_level == 2 ? llvm::OptimizationLevel::O2
                                                         : llvm::OptimizationLevel::O1;
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(ol);
    mpm.run(*mod, mam);
  }
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_AssemblyFile))
    throw Error("codegen: the RISC-V target cannot emit assembly");
  pm.run(*mod);
  return std::string(out.str());
}

}  // namespace opforge::compiler
