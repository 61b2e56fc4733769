//===- kernel_binary.h - a compiled kernel: ELF image, argument layout, metadata ===//
//
// What the code generator hands the chip: a static RV64 ELF executable whose
// entry point is the kernel (a0 = packed argument block, see
// docs/isa/xmtia-contract.md), the layout of that argument block (one 8-byte
// slot per runtime parameter, in parameter order), the specialisation key,
// the local-memory footprint of the kernel's block buffers and a JSON
// metadata record (also stored in the ELF's .opforge.meta section).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace opforge::compiler {

// What the code is generated for: the LLVM target, and the chip's limits
// the generated code must respect (the largest m, n and k of one DPE
// command: pe.dpe.tile_max_*; 64 on the MTIA presets, 16 on tiny).
struct TargetOptions {
  std::string triple = "riscv64-unknown-elf";
  // Zfh/Zvfh: native half-precision scalar and vector arithmetic (LLVM 16
  // names Zvfh experimental-zvfh).
  std::string features = "+m,+a,+f,+d,+v,+zfh,+experimental-zvfh";
  int opt_level = 2;
  // LLVM middle-end pipeline at opt_level 2: empty for opforge's tailored
  // -O2 pipeline, "default" for LLVM's default<O2> (for comparisons).
  std::string opt_pipeline;
  uint64_t text_base = 0x80000000;
  uint32_t dpe_tile_m = 64, dpe_tile_n = 64, dpe_tile_k = 64;
  // The PE's local memory (pe.local_mem.size_bytes), where the kernel's stack
  // and its block buffers live (docs/compiler/codegen.md, "Local memory
  // planning"). 0: not checked (no target chip given).
  uint64_t local_mem_bytes = 0;
  // Cache-key text of these options. Inline: both the codegen library and the
  // LLVM back end (a separate static library linked after it) use it.
  std::string key() const {
    return triple + ";" + features + ";O" + std::to_string(opt_level) +
           (opt_pipeline.empty() ? "" : "/" + opt_pipeline) + ";text=" + std::to_string(text_base) +
           ";dpe=" + std::to_string(dpe_tile_m) + "x" + std::to_string(dpe_tile_n) + "x" +
           std::to_string(dpe_tile_k) +
           (local_mem_bytes ? ";lmem=" + std::to_string(local_mem_bytes) : std::string());
  }
};

// One runtime parameter's slot in the argument block.
struct ArgSlot {
  std::string name;
  std::string type;  // ttir type text: "!tt.ptr<f32>", "i32", "f32", ...
  uint32_t offset_bytes = 0;
  uint32_t size_bytes = 8;
};

// A runtime argument value to pack: a device address, an integer or a float.
struct ArgValue {
  enum class Kind { Address, Int, Float } kind = Kind::Int;
  uint64_t address = 0;
  int64_t int_value = 0;
  double float_value = 0;
};

// A row of a kernel's line table: the code from `pc` up to the next row's pc
// is `line` of source_files[file] (line 0: no source line).
struct SourceLine {
  uint64_t pc = 0;
  uint32_t line = 0;
  uint32_t file = 0;
};

struct KernelBinary {
  std::string kernel;        // the jit function's name
  std::vector<uint8_t> elf;  // static ET_EXEC image
  uint64_t entry = 0;
  uint64_t text_base = 0;
  std::vector<ArgSlot> args;
  uint32_t arg_block_bytes = 0;
  std::string spec_key;         // Specialization::key()
  int64_t local_mem_bytes = 0;  // block buffers on the kernel's stack
  // The deepest stack the code needs (its entry's frame plus its deepest call
  // chain, from the object's .stack_sizes), 0 when not measured.
  int64_t stack_bytes = 0;
  // Block buffers that did not fit in local memory live in a scratch area of
  // spill_bytes per PE: the launcher passes its base in the argument block at
  // spill_arg_offset (set_spill_base); PE i uses [base + i * spill_bytes, +spill_bytes).
  int64_t spill_bytes = 0;
  uint32_t spill_arg_offset = 0;
  // Compile warnings (a spill to the scratch area), one line each.
  std::vector<std::string> warnings;
  std::string metadata_json;
  std::string asm_text;  // the assembly the ELF was built from (empty: built from an object)
  // The Triton source lines of the kernel's code (the DWARF line table of
  // LLVM's object, at the linked PCs; empty when built from assembly), and
  // where the kernel's code lies: [code_begin, code_end); the rest of the
  // text is the runtime library's.
  std::vector<SourceLine> lines;
  std::vector<std::string> source_files;
  uint64_t code_begin = 0, code_end = 0;

  // The row covering `pc` (the nearest at or below it) when pc lies in the
  // kernel's code and that row names a line; otherwise null.
  const SourceLine *line_at(uint64_t pc) const;

  // Packs `values` (one per slot, in order) into an argument block; throws
  // opforge::Error naming the parameter when a value's kind does not fit.
  std::vector<uint8_t> pack_args(const std::vector<ArgValue> &values) const;
  // Writes the spill scratch area's base into a packed argument block (no-op
  // without spills).
  void set_spill_base(std::vector<uint8_t> &block, uint64_t base) const;
};

// The runtime library linked into kernel binaries that call its routines
// (`__opforge_rt_*`, compiler/src/codegen/runtime_library.cpp): a key that
// changes with its LLVM IR text (each binary's metadata carries it; the text
// is fixed for a process, so in-process binary caches need not key on it),
// the key of a given text, and its one compile per process and target
// (milliseconds; 0 when already compiled), which the first kernel calling a
// routine would otherwise pay for.
std::string runtime_library_key();
std::string runtime_library_key(const std::string &ir_text);
// Its LLVM IR text (deterministic, built once; runtime_ir.cpp).
const std::string &runtime_library_ir();
double runtime_library_warm_up(const TargetOptions &target = {});

}  // namespace opforge::compiler
