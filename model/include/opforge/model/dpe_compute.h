//===- dpe_compute.h - the DPE tile matmul numerics (no timing) -----------===//
//
// Exactly docs/isa/xmtia-contract.md: C[m][n] (+)= sum_k A[m][k] * B[k][n],
// row-major with leading dimensions in elements. bf16/fp16/fp32 inputs
// accumulate in fp32 in k order with one fmaf (round-to-nearest-even) per
// multiply-add, starting from C (accumulate) or +0.0f; int8 accumulates into
// int32 with two's-complement wrap-around.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

#include "opforge/isa/accel_if.h"

namespace opforge::model {

// Bytes per element of A and B.
uint32_t dpe_input_bytes(isa::DpeDType t);

// a, b, c point at the first element of each operand (host memory).
void dpe_matmul(const isa::DpeCommand &cmd, const uint8_t *a, const uint8_t *b, uint8_t *c);

}  // namespace opforge::model
