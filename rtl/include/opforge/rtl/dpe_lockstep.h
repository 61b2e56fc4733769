//===- dpe_lockstep.h - compare a DPE command's results and cycles between two implementations
//-===//
//
// The check behind `pe.dpe.impl=lockstep`: after one command ran on two
// implementations (the RTL block and a model), compare C element by element
// and the cycle counts, and describe the first divergence precisely (command,
// element, tile of the array, expected vs actual bits, cycles).
// dpe_lockstep() runs the RTL against the C++ reference and dpe_timing.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "opforge/isa/accel_if.h"
#include "opforge/rtl/dpe_rtl.h"
#include "opforge/rtl/dpe_timing.h"

namespace opforge::rtl {

struct DpeDivergence {
  uint32_t row = 0, col = 0;            // element of C
  uint32_t tile_row = 0, tile_col = 0;  // output tile of the array holding it
  uint32_t cell_row = 0, cell_col = 0;  // MAC cell inside the tile
  uint32_t expected_bits = 0, actual_bits = 0;
};

struct DpeLockstepResult {
  uint64_t expected_cycles = 0, actual_cycles = 0;
  uint64_t mismatches = 0;             // differing C elements
  std::optional<DpeDivergence> first;  // in row-major order
  bool ok() const { return mismatches == 0 && expected_cycles == actual_cycles; }
  // One line per finding: "dpe bf16 m=8 n=8 k=64 acc=0: C[0][0] (tile 0,0 cell 0,0)
  // expected 0x... (1.5) got 0x... (1.5000001); 3 elements differ; cycles 1234 vs 1234".
  std::string report(const isa::DpeCommand &cmd) const;
};

struct DpeCompareOptions {
  bool any_nan_matches = false;  // count NaN vs NaN of another payload as equal
};

// Compare C of `cmd` in two memory images (each starting at guest address base).
DpeLockstepResult compare_dpe_results(const isa::DpeCommand &cmd, DpeArrayShape array,
                                      std::span<const uint8_t> expected_mem,
                                      std::span<const uint8_t> actual_mem, uint64_t base,
                                      uint64_t expected_cycles, uint64_t actual_cycles,
                                      DpeCompareOptions options = {});

// Run cmd on the RTL (into `mem`) and on the reference (into a copy), compare.
DpeLockstepResult dpe_lockstep(DpeRtl &rtl, const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                               uint64_t base = 0);

}  // namespace opforge::rtl
