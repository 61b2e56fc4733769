//===- codegen.h - ttir kernels to RISC-V/RVV/Xmtia machine code ----------===//
//
// Stages after `opt` (docs/compiler/codegen.md):
//   lowered  plan_kernel(): fused vs materialized blocks, local memory, arguments
//   llir     emit_llvm_ir(): LLVM IR text. The emitter writes the RVV itself:
//            element loops and reduction levels become strip loops (vsetvli,
//            then llvm.vp.* / llvm.riscv.* intrinsics at that vl:
//            llir_vector.cpp, llir_rvv.cpp; SFU loops as inline asm:
//            llir_sfu.cpp). Element loops it has no vector form for (gathers,
//            scatters, fp16/bf16 or 64-bit arithmetic, ...) stay scalar, for
//            LLVM's loop vectorizer. Xmtia as inline .insn whose encodings come
//            from the ISA tables
//   asm      llvm_ir_to_asm(): LLVM 16 in process, riscv64 +m,+a,+f,+d,+v, -O2
//            (computed when dumped; the bin stage does not need the text)
//   bin      llvm_ir_to_object() + link_kernel_object(): LLVM's object, our
//            linker -> KernelBinary
// register_codegen_stages() appends them to the compiler pipeline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/compiler/kernel_binary.h"
#include "opforge/compiler/llir_ir.h"
#include "opforge/compiler/lowered.h"
#include "opforge/compiler/pipeline.h"

namespace opforge::compiler {

// LLVM IR (text) for the planned kernel; the entry function is `_start`.
// Its module flag kLmulFlag holds the LMUL (1, 2, 4 or 8) that LLVM's loop
// vectorizer uses for the element loops the emitter left scalar, chosen by
// vector_lmul() from the most block values live in one strip of an innermost
// element loop (the emitter's own strip loops pick their LMUL per loop). With
// `line_table`, each instruction carries the Triton source line of its op as
// line-tables-only debug info (the object's .debug_line; the code is the same
// without).
std::string emit_llvm_ir(const LoweredKernelPlan &plan, bool line_table = true);
// A block-sized alloca of the emitted kernel (1 KiB or more): its allocation
// index (plan.spilled_allocas), bytes, whether the DPE reads or writes it
// (then it must stay in local memory), whether it went to the spill scratch,
// and the op that made it ("'tt.load' at f.py:12:9").
struct BlockAlloca {
  int index = 0;
  int64_t bytes = 0;
  bool pinned = false, spilled = false;
  std::string what;
};
// The same module as the emitter's structured record (llir_ir.h): the
// instruction records `text` was printed from and the facts read from them.
struct LlirModule {
  std::vector<BlockAlloca> block_allocas;
  int64_t spill_bytes = 0;          // per PE, of the allocas in plan.spilled_allocas
  std::vector<llir::Inst> allocas;  // the entry block's
  llir::IrBody body;                // the blocks after the entry block
  std::vector<llir::ColdRegion> cold_regions;
  std::vector<std::string> helpers;  // module helpers the code calls (fp16 conversions)
  std::string text;                  // the LLVM IR text
};
LlirModule emit_llvm_module(const LoweredKernelPlan &plan, bool line_table = true);
inline constexpr const char *kLmulFlag = "opforge.lmul";
// Largest LMUL whose register groups (32 / LMUL, less the mask) hold
// `live_vectors` values: 8 up to 3, 4 up to 7, 2 up to 15, else 1.
int vector_lmul(int live_vectors);
// Where LLVM's time went in one compile (milliseconds): parsing and verifying
// the IR text, the middle-end pipeline, and the RISC-V code generator
// (instruction selection, register allocation, MC emission).
struct LlvmTimes {
  double parse_ms = 0, opt_ms = 0, codegen_ms = 0;
};
// Optimises and compiles LLVM IR text to RISC-V assembly (GNU as syntax).
std::string llvm_ir_to_asm(const std::string &llvm_ir, const TargetOptions &target,
                           LlvmTimes *times = nullptr);
// The same compile emitted as an ELF64 relocatable object (the bin stage's
// input: no assembly text is printed and parsed again).
std::vector<uint8_t> llvm_ir_to_object(const std::string &llvm_ir, const TargetOptions &target,
                                       LlvmTimes *times = nullptr);
// LLVM's per-process start-up: target initialisation and one compile of a
// small built-in vectorized loop, which faults in the pages of LLVM's
// vectorizer and RVV code generator that the first kernel would otherwise
// pay for. Returns its milliseconds; optional (compiles work without it).
double llvm_warm_up(const TargetOptions &target = {});
// The DWARF line table of an object of llvm_ir_to_object() (rows in its
// .text, pc = offset in it; files: the names the rows' `file` indexes);
// empty when the object has none.
struct ObjectLineTable {
  std::vector<SourceLine> rows;
  std::vector<std::string> files;
};
ObjectLineTable object_line_table(const std::vector<uint8_t> &object);
// Assembles and links the kernel's assembly into a KernelBinary.
KernelBinary link_kernel_binary(const std::string &asm_text, const LoweredKernelPlan &plan,
                                const std::string &spec_key, const TargetOptions &target);
// Links LLVM's relocatable object (llvm_ir_to_object) into a KernelBinary;
// the result equals link_kernel_binary() of the same compile's assembly
// except that asm_text stays empty. Throws opforge::Error naming the
// section or relocation it cannot take.
KernelBinary link_kernel_object(const std::vector<uint8_t> &object, const LoweredKernelPlan &plan,
                                const std::string &spec_key, const TargetOptions &target);

// Local memory planning (local_mem.cpp, docs/compiler/codegen.md): the stack
// an object of llvm_ir_to_object needs from `entry` (its frame plus the
// deepest chain of calls it makes, runtime library routines included).
int64_t object_stack_bytes(const std::vector<uint8_t> &object, const TargetOptions &target,
                           const std::string &entry = "_start");
// Emits and compiles `plan`; when the stack it needs exceeds
// target.local_mem_bytes, moves the largest block buffers the DPE does not
// touch to the per-PE spill scratch (plan.spilled_allocas, spill_bytes,
// spill_report, a warning naming kernel, `constexprs`, bytes needed and
// available) and compiles again until it fits. Throws CompileError naming
// the same when nothing more can move. Returns the final object.
std::vector<uint8_t> fit_local_memory(LoweredKernelPlan &plan, const TargetOptions &target,
                                      const std::string &constexprs);
// The warnings of a compile that ran the lowered stage (spilled buffers).
std::vector<std::string> compile_warnings(const CompileState &state);
// "BLOCK_M=128, BLOCK_N=256" of a specialization's constexprs.
std::string constexpr_text(const Specialization &spec);

// Whole pipeline for one kernel of a parsed module.
KernelBinary compile_kernel(std::shared_ptr<const ast::Module> module, const CompileOptions &opts,
                            const TargetOptions &target = {});

// Appends lowered, llir, asm and bin to the pipeline's stages (idempotent).
void register_codegen_stages();

}  // namespace opforge::compiler
