//===- stages.cpp - lowered / llir / asm / bin as named pipeline stages ----===//
//
// compile_kernel() is the hot path: plan, LLVM IR, LLVM straight to an ELF
// object, link. The asm stage prints LLVM's assembly only when dumped.
//
//===----------------------------------------------------------------------===//
#include <mutex>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

const ttir::Function &kernel_function(const CompileState &s) {
  if (!s.opt) throw Error("codegen: the opt stage has not run");
  const ttir::Function *f = s.opt->find(s.kernel);
  if (!f) throw Error("codegen: kernel " + s.kernel + " not in the optimised module");
  return *f;
}

template <typename T>
const T &product(const CompileState &s, const std::string &stage) {
  auto it = s.extra.find(stage);
  if (it == s.extra.end()) throw Error("codegen: stage " + stage + " has not run");
  return *std::any_cast<std::shared_ptr<T>>(it->second);
}

// The asm stage's product: the LLVM IR and target, and the assembly once
// asked for.
struct AsmProduct {
  std::string llir;
  TargetOptions target;
  mutable std::once_flag once;
  mutable std::string asm_text;
  const std::string &text() const {
    std::call_once(once, [&] { asm_text = llvm_ir_to_asm(llir, target); });
    return asm_text;
  }
};

}  // namespace

void register_codegen_stages() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_stage(Stage{
        "lowered", "plan fused vs buffered blocks, local memory and the argument block",
        [](CompileState &s, const CompileOptions &o) {
          auto plan =
              std::make_shared<LoweredKernelPlan>(plan_kernel(kernel_function(s), o.target));
          // With a target chip, its local memory is checked (and block buffers spilled).
          if (o.target.local_mem_bytes) fit_local_memory(*plan, o.target, constexpr_text(o.spec));
          s.extra["lowered"] = plan;
        },
        [](const CompileState &s) { return product<LoweredKernelPlan>(s, "lowered").dump(); }});
    register_stage(Stage{
        "llir", "emit LLVM IR (element loops as RVV strip loops, Xmtia inline asm)",
        [](CompileState &s, const CompileOptions &) {
          s.extra["llir"] =
              std::make_shared<std::string>(emit_llvm_ir(product<LoweredKernelPlan>(s, "lowered")));
        },
        [](const CompileState &s) { return product<std::string>(s, "llir"); }});
    // The asm stage keeps what it needs to print the assembly; the text is
    // produced only when dumped (the bin stage compiles straight to an object).
    register_stage(
        Stage{"asm", "LLVM 16 -O2 for riscv64 +m,+a,+f,+d,+v: RISC-V assembly",
              [](CompileState &s, const CompileOptions &o) {
                auto p = std::make_shared<AsmProduct>();
                p->llir = product<std::string>(s, "llir");
                p->target = o.target;
                s.extra["asm"] = p;
              },
              [](const CompileState &s) { return product<AsmProduct>(s, "asm").text(); }});
    register_stage(
        Stage{"bin",
              "LLVM's relocatable object linked into a KernelBinary (ELF, "
              "argument layout, metadata)",
              [](CompileState &s, const CompileOptions &o) {
                s.extra["bin"] = std::make_shared<KernelBinary>(link_kernel_object(
                    llvm_ir_to_object(product<std::string>(s, "llir"), o.target),
                    product<LoweredKernelPlan>(s, "lowered"), o.spec.key(), o.target));
              },
              [](const CompileState &s) {
                const auto &b = product<KernelBinary>(s, "bin");
                std::string out = "KernelBinary " + b.kernel + ": " + std::to_string(b.elf.size()) +
                                  " ELF bytes, entry " + std::to_string(b.entry) + ", " +
                                  std::to_string(b.arg_block_bytes) + " argument bytes, " +
                                  std::to_string(b.local_mem_bytes) + " local-memory bytes";
                if (b.stack_bytes) out += ", stack " + std::to_string(b.stack_bytes) + " bytes";
                if (b.spill_bytes)
                  out += ", spill scratch " + std::to_string(b.spill_bytes) + " bytes per PE";
                return out + "\n" + b.metadata_json + "\n";
              }});
  });
}

std::vector<std::string> compile_warnings(const CompileState &state) {
  auto it = state.extra.find("lowered");
  if (it == state.extra.end()) return {};
  return std::any_cast<std::shared_ptr<LoweredKernelPlan>>(it->second)->warnings;
}

KernelBinary compile_kernel(std::shared_ptr<const ast::Module> module, const CompileOptions &opts,
                            const TargetOptions &target) {
  register_codegen_stages();
  CompileState s = compile_source(std::move(module), opts, "opt");
  const ttir::Function &f = kernel_function(s);
  LoweredKernelPlan plan = plan_kernel(f, target);
  std::vector<uint8_t> object = target.local_mem_bytes
                                    ? fit_local_memory(plan, target, constexpr_text(opts.spec))
                                    : llvm_ir_to_object(emit_llvm_ir(plan), target);
  return link_kernel_object(object, plan, opts.spec.key(), target);
}

}  // namespace opforge::compiler
