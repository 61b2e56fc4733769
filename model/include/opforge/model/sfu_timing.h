//===- sfu_timing.h - SFU occupancy as a function of its precision --------===//
//
// The SFU evaluates a special function in passes (range reduction, then
// polynomial / iteration steps), each resolving pe.sfu.bits_per_pass
// significand bits. An element kept at precision_bits mantissa bits needs
// ceil((precision_bits + 1) / bits_per_pass) passes; exact fp32 (precision 0)
// needs ceil(24 / bits_per_pass). pe.sfu.elements_per_cycle is the rate at
// exact precision; the pass slots a cheaper element frees serve further
// elements, so the rate scales by passes(exact) / passes(precision). The core
// waits on the SFU: it is held for the busy time (fractions carried over).
// (docs/model/README.md, "SFU timing").
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

#include "opforge/model/params.h"

namespace opforge::model {

// Evaluation passes per element at a precision (0 = exact fp32).
uint32_t sfu_passes(const SfuParams &p, uint32_t precision_bits);

// Cycles the SFU is occupied by `elements` elements at the configured
// precision (fractional: the counter adds them up exactly).
double sfu_busy_cycles(const SfuParams &p, uint64_t elements);

}  // namespace opforge::model
