//===- dpe_test_util.h - operand layouts and runners shared by the DPE tests -===//
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/rtl/dpe_ref.h"
#include "opforge/rtl/dpe_rtl.h"
#include "opforge/rtl/dpe_timing.h"

namespace opforge::rtl::testing {

// A local-memory image holding A, B and C of one command, with padded
// leading dimensions and guard bytes between operands.
struct DpeCase {
  static constexpr uint64_t kBase = 0x40000;
  isa::DpeCommand cmd;
  std::vector<uint8_t> mem;

  DpeCase(isa::DpeDType dtype, uint32_t m, uint32_t n, uint32_t k, bool accumulate) {
    const uint32_t esz = dtype == isa::DpeDType::INT8 ? 1 : 2;
    cmd.dtype = dtype;
    cmd.m = m;
    cmd.n = n;
    cmd.k = k;
    cmd.accumulate = accumulate;
    cmd.lda = k + 3;
    cmd.ldb = n + 1;
    cmd.ldc = n + 2;
    uint64_t off = 64;
    cmd.a = kBase + off;
    off += (static_cast<uint64_t>(m) * cmd.lda * esz + 64) & ~uint64_t{15};
    cmd.b = kBase + off;
    off += (static_cast<uint64_t>(k) * cmd.ldb * esz + 64) & ~uint64_t{15};
    cmd.c = kBase + off;
    off += static_cast<uint64_t>(m) * cmd.ldc * 4 + 64;
    mem.assign(off, 0);
  }
  uint64_t esz() const { return cmd.dtype == isa::DpeDType::INT8 ? 1 : 2; }
  uint8_t *a(uint32_t i, uint32_t kk) {
    return &mem[cmd.a - kBase + (uint64_t{i} * cmd.lda + kk) * esz()];
  }
  uint8_t *b(uint32_t kk, uint32_t j) {
    return &mem[cmd.b - kBase + (uint64_t{kk} * cmd.ldb + j) * esz()];
  }
  uint8_t *c(uint32_t i, uint32_t j) {
    return &mem[cmd.c - kBase + (uint64_t{i} * cmd.ldc + j) * 4];
  }
  void set_a16(uint32_t i, uint32_t kk, uint16_t v) { std::memcpy(a(i, kk), &v, esz()); }
  void set_b16(uint32_t kk, uint32_t j, uint16_t v) { std::memcpy(b(kk, j), &v, esz()); }
  void set_c(uint32_t i, uint32_t j, uint32_t v) { std::memcpy(c(i, j), &v, 4); }
  uint32_t get_c(uint32_t i, uint32_t j) {
    uint32_t v;
    std::memcpy(&v, c(i, j), 4);
    return v;
  }
};

// Run the case on the RTL and on the reference; expect identical memory
// images (every byte, so stray writes count) and the dpe_timing.h cycles.
// Returns the number of differing C elements (0 when they match).
inline int run_and_compare(DpeRtl &rtl, DpeCase &tc, bool expect_match = true) {
  std::vector<uint8_t> ref_mem = tc.mem;
  dpe_reference(tc.cmd, ref_mem, DpeCase::kBase);
  const DpeRunResult res = rtl.run(tc.cmd, tc.mem, DpeCase::kBase);
  EXPECT_EQ(res.cycles,
            dpe_command_cycles(rtl.array_shape(), tc.cmd))
      << "m=" << tc.cmd.m << " n=" << tc.cmd.n << " k=" << tc.cmd.k << " acc=" << tc.cmd.accumulate;
  // Bytes outside C's m x n elements must be untouched by both.
  std::vector<bool> in_c(tc.mem.size(), false);
  for (uint32_t i = 0; i < tc.cmd.m; ++i)
    for (uint32_t j = 0; j < tc.cmd.n; ++j)
      for (int byte = 0; byte < 4; ++byte)
        in_c[tc.cmd.c - DpeCase::kBase + (uint64_t{i} * tc.cmd.ldc + j) * 4 + byte] = true;
  for (size_t i = 0; i < tc.mem.size(); ++i) {
    if (!in_c[i] && tc.mem[i] != ref_mem[i]) {
      ADD_FAILURE() << "byte outside C differs at offset " << i;
      break;
    }
  }
  int diffs = 0;
  for (uint32_t i = 0; i < tc.cmd.m; ++i) {
    for (uint32_t j = 0; j < tc.cmd.n; ++j) {
      uint32_t ref;
      std::memcpy(&ref, &ref_mem[tc.cmd.c - DpeCase::kBase + (uint64_t{i} * tc.cmd.ldc + j) * 4],
                  4);
      const uint32_t got = tc.get_c(i, j);
      if (got != ref) {
        ++diffs;
        if (expect_match && diffs <= 5) {
          ADD_FAILURE() << "C[" << i << "][" << j << "] rtl 0x" << std::hex << got << " ref 0x"
                        << ref << std::dec << " (m=" << tc.cmd.m << " n=" << tc.cmd.n
                        << " k=" << tc.cmd.k << ")";
        }
      }
    }
  }
  return diffs;
}

}  // namespace opforge::rtl::testing
