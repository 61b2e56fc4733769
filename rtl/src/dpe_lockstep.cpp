//===- dpe_lockstep.cpp - compare a DPE command's results and cycles between two implementations
//-===//
#include "opforge/rtl/dpe_lockstep.h"

#include <bit>
#include <cstring>
#include <sstream>
#include <vector>

#include "opforge/rtl/dpe_ref.h"
#include "opforge/rtl/fp_bits.h"

namespace opforge::rtl {
namespace {

const char *dtype_name(isa::DpeDType t) {
  switch (t) {
    case isa::DpeDType::BF16:
      return "bf16";
    case isa::DpeDType::FP16:
      return "fp16";
    case isa::DpeDType::FP32:
      return "fp32";
    case isa::DpeDType::INT8:
      return "int8";
  }
  return "?";
}

void describe(std::ostream &os, isa::DpeDType t, uint32_t bits) {
  os << "0x" << std::hex << bits << std::dec << " (";
  if (t == isa::DpeDType::INT8)
    os << static_cast<int32_t>(bits);
  else
    os << std::bit_cast<float>(bits);
  os << ")";
}

}  // namespace

std::string DpeLockstepResult::report(const isa::DpeCommand &cmd) const {
  std::ostringstream os;
  os.precision(9);
  os << "dpe " << dtype_name(cmd.dtype) << " m=" << cmd.m << " n=" << cmd.n << " k=" << cmd.k
     << " acc=" << cmd.accumulate << ":";
  if (ok()) {
    os << " results and cycles agree (" << actual_cycles << " cycles)";
    return os.str();
  }
  if (first) {
    os << " C[" << first->row << "][" << first->col << "] (tile " << first->tile_row << ","
       << first->tile_col << " cell " << first->cell_row << "," << first->cell_col << ") expected ";
    describe(os, cmd.dtype, first->expected_bits);
    os << " got ";
    describe(os, cmd.dtype, first->actual_bits);
    os << "; " << mismatches << " element" << (mismatches == 1 ? "" : "s") << " differ;";
  }
  os << " cycles expected " << expected_cycles << " got " << actual_cycles;
  return os.str();
}

DpeLockstepResult compare_dpe_results(const isa::DpeCommand &cmd, DpeArrayShape array,
                                      std::span<const uint8_t> expected_mem,
                                      std::span<const uint8_t> actual_mem, uint64_t base,
                                      uint64_t expected_cycles, uint64_t actual_cycles,
                                      DpeCompareOptions options) {
  const DpeOperandOffsets off =
      check_dpe_command(cmd, std::min(expected_mem.size(), actual_mem.size()), base);
  DpeLockstepResult res;
  res.expected_cycles = expected_cycles;
  res.actual_cycles = actual_cycles;
  const bool fp = cmd.dtype != isa::DpeDType::INT8;
  for (uint32_t i = 0; i < cmd.m; ++i) {
    for (uint32_t j = 0; j < cmd.n; ++j) {
      const uint64_t at = off.c + (uint64_t{i} * cmd.ldc + j) * 4;
      uint32_t want, got;
      std::memcpy(&want, expected_mem.data() + at, 4);
      std::memcpy(&got, actual_mem.data() + at, 4);
      if (want == got) continue;
      if (fp && options.any_nan_matches && fp32_bits_is_nan(want) && fp32_bits_is_nan(got))
        continue;
      if (res.mismatches++ == 0) {
        res.first = DpeDivergence{
            i, j, i / array.rows, j / array.cols, i % array.rows, j % array.cols, want, got};
      }
    }
  }
  return res;
}

DpeLockstepResult dpe_lockstep(DpeRtl &rtl, const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                               uint64_t base) {
  std::vector<uint8_t> expected(mem.begin(), mem.end());
  dpe_reference(cmd, expected, base);
  const DpeArrayShape array = rtl.array_shape();
  const DpeRunResult run = rtl.run(cmd, mem, base);
  return compare_dpe_results(cmd, array, expected, mem, base, dpe_command_cycles(array, cmd),
                             run.cycles);
}

}  // namespace opforge::rtl
