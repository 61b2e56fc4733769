//===- lowered.h - the block-level lowering plan of a ttir kernel ---------===//
//
// The `lowered` stage decides, per block value of the kernel, whether it is
// computed element by element where it is consumed (fused into the consumer's
// strip-mined loop) or materialized into a buffer in the PE's local memory
// (loads feeding several consumers, reductions, scans, dots, shape
// permutations, loop-carried blocks); it fixes the argument-block layout and
// the local-memory footprint. It also picks the units: loads and stores of
// affine pointer blocks (rank 1 or 2: base + i*row_stride + j*col_stride,
// strides known at run time) move through DMA between global memory and a
// local-memory buffer; tl.dot on bf16/fp16/fp32/int8 runs on the DPE. The
// LLVM IR emitter (codegen.h) follows it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/ir.h"
#include "opforge/compiler/kernel_binary.h"

namespace opforge::compiler {

struct LoweredKernelPlan {
  const ttir::Function *function = nullptr;
  std::vector<ArgSlot> args;
  std::set<const ttir::Value *> buffers;  // materialized block values
  std::set<const ttir::Operation *>
      fused_loads;                               // loads evaluated inside their one consumer's loop
  std::set<const ttir::Operation *> dma_loads;   // affine loads: DMA into a local buffer
  std::set<const ttir::Operation *> dma_stores;  // affine stores: DMA from a local buffer
  std::set<const ttir::Operation *> dpe_dots;    // tl.dot on the DPE
  // Loop-carried affine pointer/offset blocks (scf.for block arguments and
  // the matching results) kept as one scalar, the element at index 0: an
  // element is that scalar plus the initial value's offset from its own
  // element 0 (a_ptrs += BLOCK_K * stride costs one add, not a block update).
  std::set<const ttir::Value *> carried_affine;
  // DMA loads of a K loop's tl.dot operands that are software-pipelined
  // (lower/dot_pipeline.cpp): the loop's prologue issues iteration 0's
  // transfer and each iteration issues the next one's into the other of two
  // buffers while the DPE works on the current one.
  std::set<const ttir::Operation *> prefetched_loads;
  int64_t dpe_tile_m = 64, dpe_tile_n = 64, dpe_tile_k = 64;  // largest DPE command
  int64_t local_mem_bytes = 0;  // sum of buffer sizes (DMA buffers included)
  // DMA loads in the body of a loop without carried values (a persistent
  // loop over rows) whose next-iteration block is prefetched into a second
  // buffer while the current one is computed (lower/row_prefetch.cpp).
  std::set<const ttir::Operation *> row_prefetched_loads;
  int64_t row_prefetch_depth = 2;  // buffers per such load: blocks in flight + the current one
  // The copy of the kernel `function` points to when block pointers were
  // expanded into pointer blocks (lower/blockptr.cpp); null otherwise.
  std::shared_ptr<const ttir::Function> expanded;
  // Local memory (docs/compiler/codegen.md, "Local memory planning"): the
  // target's size (0: unchecked), the stack the compiled code needs
  // (measured from the object by fit_local_memory, 0 when not measured), the
  // emitter's block allocas moved to the per-PE spill scratch (by allocation
  // index) and that scratch's bytes, one line per spilled buffer for the
  // dump, and the compile warnings.
  int64_t local_mem_limit = 0;
  int64_t stack_bytes = 0;
  std::set<int> spilled_allocas;
  int64_t spill_bytes = 0;
  std::vector<std::string> spill_report;
  std::vector<std::string> warnings;
  // Readable plan: one line per block-producing op (fused / buffer bytes).
  std::string dump() const;
};

// Plans `f` (a kernel after the opt stage, calls inlined). Throws
// opforge::Error naming the op for constructs the code generator lacks.
LoweredKernelPlan plan_kernel(const ttir::Function &f, const TargetOptions &target = {});

// Whether `f` makes block pointers (tl.make_block_ptr).
bool uses_block_pointers(const ttir::Function &f);
// A copy of `f` whose block pointers are replaced by their base, shape,
// strides and offsets, and whose accesses through them by masked pointer-block
// loads/stores. Throws opforge::Error for block pointers it cannot follow.
std::unique_ptr<ttir::Function> expand_block_pointers(const ttir::Function &f);

// Whether block `v` is an affine function of its indices: built from
// tl.arange, splats of scalars, broadcasts, expand_dims, +, -, * by a
// uniform value, integer casts and pointer offsets, or a loop-carried block
// whose initial value is affine and which each iteration advances by a
// uniform amount. Such a block is base + sum_d index_d * stride_d.
bool is_affine_block(const ttir::Value *v);
// Whether `v` has the same value in every element (a splat of a scalar).
bool is_uniform_block(const ttir::Value *v);
// Whether `v` is affine as is_affine_block defines it except for i32 terms
// `a % m` (arith.remsi) with `a` affine and `m` uniform: the wrap-around
// offsets (pid * BLOCK + tl.arange(0, BLOCK)) % M of Triton's matmul
// tutorial. Such a block is affine wherever every remainder's operand lies in
// [0, m); the code generator checks that at run time (its wrap guard) and
// takes the element path for a tile that wraps. True for affine blocks too.
bool is_wrapped_affine_block(const ttir::Value *v);
// The arith.remsi ops of such a block (followed through loop-carried
// values), the ones the wrap guard checks; empty for an affine block.
std::vector<const ttir::Operation *> wrap_remainders(const ttir::Value *v);

// A block-valued special function (exp, exp2, log, log2, tanh, erf, sin,
// cos, rsqrt) on fp32/fp16/bf16: planned as a buffer that the SFU fills with
// whole-vector instructions.
bool is_sfu_block_op(const ttir::Operation &op);
// Marks the DMA loads of `plan` that feed a DPE dot inside an scf.for and
// whose pointers, masks and `other` values the next iteration can compute
// ahead (lower/dot_pipeline.cpp) as plan.prefetched_loads.
void plan_dot_pipelines(LoweredKernelPlan &plan);
// Bytes one element of `e` takes in global memory (and in a DMA buffer).
int64_t memory_elem_bytes(ttir::Elem e);
// Bytes one element of `e` takes in a block buffer (i1 as a byte, fp16/bf16 as fp32).
int64_t buffer_elem_bytes(ttir::Elem e);

// Marks plan.row_prefetched_loads (lower/row_prefetch.cpp) and adds their
// second buffers to plan.local_mem_bytes.
void plan_row_prefetches(LoweredKernelPlan &plan);
// Whether `v` can be evaluated for another iteration of the loop whose body
// is `body`: the induction variable, a value from outside the loop (not a
// buffer), or a pure fused op of the body over such values.
bool iteration_computable(const ttir::Value *v, const ttir::Block &body,
                          const LoweredKernelPlan &plan);

}  // namespace opforge::compiler
