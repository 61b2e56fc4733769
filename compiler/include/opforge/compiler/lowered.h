//===- lowered.h - the block-level lowering plan of a ttir kernel ---------===//
//
// The `lowered` stage decides, per block value of the kernel, whether it is
// computed element by element where it is consumed (fused into the consumer's
// strip-mined loop) or materialized into a buffer in the PE's local memory
// (loads feeding several consumers, reductions, scans, dots, shape
// permutations, loop-carried blocks); it fixes the argument-block layout and
// the local-memory footprint. The LLVM IR emitter (codegen.h) follows it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
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
      fused_loads;              // loads evaluated inside their one consumer's loop
  int64_t local_mem_bytes = 0;  // sum of buffer sizes
  // Readable plan: one line per block-producing op (fused / buffer bytes).
  std::string dump() const;
};

// Plans `f` (a kernel after the opt stage, calls inlined). Throws
// opforge::Error naming the op for constructs the code generator lacks.
LoweredKernelPlan plan_kernel(const ttir::Function &f);

// Bytes one element of `e` takes in a block buffer (i1 as a byte, fp16/bf16 as fp32).
int64_t buffer_elem_bytes(ttir::Elem e);

}  // namespace opforge::compiler
