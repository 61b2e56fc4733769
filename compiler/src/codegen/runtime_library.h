//===- runtime_library.h - the kernel runtime library: IR text, compile cache, linking ===//
//
// Routines that every kernel may call (`__opforge_rt_*`) are compiled once
// per process and target, not once per kernel module: their LLVM IR text is
// generated here (Xmtia instructions from the ISA tables), compiled by the
// same back end as the kernels, read back into an isa::AsmUnit and linked
// with each kernel's unit that refers to them. docs/compiler/codegen.md,
// "Runtime library".
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opforge/compiler/kernel_binary.h"
#include "opforge/isa/asm.h"

namespace opforge::compiler {

// Field indices (i64 slots) of the descriptor that __opforge_rt_tile reads:
// a masked tile (rows x cols elements of elem_bytes, row-major in a local
// buffer) whose mask is an AND of terms, each `x(i) pred bound` along one
// axis, x(i) = wrap32(x0 + i*step), evaluated as the IR interpreter does.
// When no term's index wraps, the active elements form a rectangle: a load
// fills the buffer with `other` (memory bits) unless every element is
// active, and the rectangle moves by DMA with `tag` (global address of
// element (r, c) = global_base + r*row_stride + c*col_stride). Otherwise
// the tile is copied element by element, the address of element (r, c)
// being base + sum_j sext(wrap32(o0_j + r*or_j + c*oc_j)) * elem_bytes.
// Mode 1 loads (global -> local), mode 0 stores the active elements.
namespace rt_tile {
inline constexpr int kBase = 0, kRows = 1, kCols = 2, kElemBytes = 3, kLocal = 4, kMode = 5,
                     kOtherBits = 6, kOffsets = 7, kTerms = 8, kGlobalBase = 9, kRowStride = 10,
                     kColStride = 11, kTag = 12, kFirst = 13;
inline constexpr int kOffsetFields = 3;  // o0, row step, column step (i32 values)
inline constexpr int kTermFields = 5;    // axis (0 row, 1 column), x0, step, bound, predicate
// Predicate codes of a term.
inline constexpr int kSlt = 0, kSle = 1, kSgt = 2, kSge = 3;
inline constexpr int kMaxOffsets = 2, kMaxTerms = 16;
inline constexpr int kMaxFields = kFirst + kOffsetFields * kMaxOffsets + kTermFields * kMaxTerms;
// A call site passes a constant descriptor (its fields, then per field the
// source: kConst, or an argument of the call) and the run-time values as
// arguments of __opforge_rt_tile_<n>(ptr const, ptr local, i64 first_address,
// i64 wide0, i64 wide1, i32 value_0 .. value_<n-1>); value k is source k.
// The global base, row/column strides and offset base are derived from the
// first element's address and the offsets.
inline constexpr int kConst = -1, kFromLocal = -2, kFromWide0 = -4, kFromWide1 = -5;
inline constexpr int kMaxValues = 24;
// Entry points exist for n a multiple of kValueGroup; a site pads its
// values with poison up to the next one.
inline constexpr int kValueGroup = 4;
}  // namespace rt_tile

// One-operand tree reductions whose combine is one of these operations
// call __opforge_rt_levels_<name> for their levels after the first
// (llir_control.cpp): an assembly routine (runtime_levels.cpp) taking the
// partial results' address in a0 and their count in a1, called from inline
// assembly that names the registers it changes (kLevelsClobbers).
struct ReduceLevels {
  const char *name, *insn;  // insn: the RVV combine of two register groups
};
inline constexpr ReduceLevels kReduceLevels[] = {{"sum_f32", "vfadd.vv"},
                                                 {"max_f32", "vfmax.vv"},
                                                 {"min_f32", "vfmin.vv"},
                                                 {"sum_i32", "vadd.vv"}};
inline constexpr const char *kLevelsClobbers =
    "~{x1},~{x5},~{x6},~{x7},~{x28},~{x29},~{x30},~{x31},~{v8},~{v9},~{v10},~{v11},~{v12},"
    "~{v13},~{v14},~{v15},~{v16},~{v17},~{v18},~{v19},~{v20},~{v21},~{v22},~{v23},~{vl},"
    "~{vtype},~{memory}";

// The level routines as module-level assembly of the library's LLVM IR
// (runtime_levels.cpp).
std::string reduce_levels_asm();

// The library's LLVM IR text (deterministic; its key() is part of every
// KernelBinary's cache key and metadata), built once by
// build_runtime_library_ir() (runtime_ir.cpp).
const std::string &runtime_library_ir();
std::string build_runtime_library_ir();

// The library compiled for `target` (once per process and target key,
// under a mutex), as a unit ready to be merged into a kernel's unit.
const isa::AsmUnit &runtime_library_unit(const TargetOptions &target);

// Adds the runtime's sections and symbols to `kernel` when it refers to a
// `__opforge_rt_*` routine; throws opforge::Error naming the symbol when the
// runtime does not define one the kernel refers to.
void link_runtime_library(isa::AsmUnit &kernel, const TargetOptions &target);

// An ELF64 RISC-V relocatable object (as LLVM writes it) read back into an
// AsmUnit (binary.cpp).
isa::AsmUnit read_relocatable_elf(const std::vector<uint8_t> &elf, const std::string &file);

}  // namespace opforge::compiler
