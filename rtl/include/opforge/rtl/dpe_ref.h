//===- dpe_ref.h - C++ reference of the DPE tile matmul and command checks -===//
//
// The numerics the RTL DPE must match bit for bit (docs/isa/xmtia-contract.md):
//   bf16, fp16: acc = accumulate ? C[i][j] : +0.0f; for kk in 0..k-1:
//          acc = fmaf(A[i][kk], B[kk][j], acc) (inputs widened exactly,
//          the product exact, one round-to-nearest-even at the add, subnormals
//          kept); a NaN result is stored as 0x7FC00000.
//   int8:  int32 accumulation with two's-complement wrap-around.
// A, B and C live in a local-memory span whose first byte has guest address
// `base`; leading dimensions are in elements.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>

#include "opforge/isa/accel_if.h"

namespace opforge::rtl {

// Byte offsets of A, B, C inside the span after checking the command.
struct DpeOperandOffsets {
  uint64_t a = 0, b = 0, c = 0;
  uint32_t elem_bytes = 2;  // of A and B
};

// Throw opforge::Error naming the field (dpe.dtype, dpe.lda, dpe.a, ...) when
// the command is not one the RTL DPE runs (bf16, fp16, int8) or an operand
// leaves the span.
DpeOperandOffsets check_dpe_command(const isa::DpeCommand &cmd, uint64_t mem_bytes, uint64_t base);

// Run the command on the span with the reference numerics.
void dpe_reference(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base = 0);

// One bf16 or fp16 multiply-add step of the reference (fmaf, NaN canonical).
uint32_t dpe_fma16_ref(isa::DpeDType dtype, uint16_t a, uint16_t b, uint32_t acc);

}  // namespace opforge::rtl
