//===- functional_accel.cpp - untimed DMA and DPE for the ISA's tests ------===//
#include "opforge/isa/functional_accel.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <vector>

#include "opforge/isa/extension.h"
#include "opforge/support/dtype.h"

namespace opforge::isa {

namespace {
// Restores the host rounding mode after forcing round-to-nearest-even.
struct NearestEvenScope {
  int saved = std::fegetround();
  NearestEvenScope() { std::fesetround(FE_TONEAREST); }
  ~NearestEvenScope() { std::fesetround(saved); }
};

int elem_bytes(DpeDType t) {
  switch (t) {
    case DpeDType::BF16:
    case DpeDType::FP16:
      return 2;
    case DpeDType::FP32:
      return 4;
    case DpeDType::INT8:
      return 1;
  }
  return 0;
}
}  // namespace

AccelStatus FunctionalAccelerator::dma_issue(const DmaCommand &cmd) {
  std::vector<uint8_t> row(cmd.row_bytes);
  for (uint64_t r = 0; r < cmd.rows; ++r) {
    const uint64_t src = cmd.src + static_cast<uint64_t>(static_cast<int64_t>(r) * cmd.src_stride);
    const uint64_t dst = cmd.dst + static_cast<uint64_t>(static_cast<int64_t>(r) * cmd.dst_stride);
    if (cmd.row_bytes && !mem_.load(src, row.data(), row.size())) return {false, src};
    if (cmd.row_bytes && !mem_.store(dst, row.data(), row.size())) return {false, dst};
  }
  ++dma_commands_;
  dma_bytes_ += cmd.row_bytes * cmd.rows;
  return {};
}

AccelStatus FunctionalAccelerator::dma_wait(uint32_t) { return {}; }
AccelStatus FunctionalAccelerator::dpe_wait() { return {}; }

AccelStatus FunctionalAccelerator::dpe_issue(const DpeCommand &cmd) {
  const int eb = elem_bytes(cmd.dtype);
  if (eb == 0) return {false, cmd.a};
  NearestEvenScope rne;
  // Read one operand element as fp32 (float types) or int32 (int8).
  auto read_f = [&](uint64_t addr, float &out) -> bool {
    uint32_t raw = 0;
    if (!mem_.load(addr, &raw, eb)) return false;
    switch (cmd.dtype) {
      case DpeDType::BF16:
        out = bf16_to_fp32(static_cast<uint16_t>(raw));
        break;
      case DpeDType::FP16:
        out = fp16_to_fp32(static_cast<uint16_t>(raw));
        break;
      default:
        std::memcpy(&out, &raw, 4);
        break;
    }
    return true;
  };
  for (uint32_t m = 0; m < cmd.m; ++m) {
    for (uint32_t n = 0; n < cmd.n; ++n) {
      const uint64_t c_addr = cmd.c + (uint64_t(m) * cmd.ldc + n) * 4;
      if (cmd.dtype == DpeDType::INT8) {
        uint32_t acc = 0;
        if (cmd.accumulate && !mem_.load(c_addr, &acc, 4)) return {false, c_addr};
        for (uint32_t k = 0; k < cmd.k; ++k) {
          int8_t a = 0, b = 0;
          const uint64_t aa = cmd.a + uint64_t(m) * cmd.lda + k,
                         ba = cmd.b + uint64_t(k) * cmd.ldb + n;
          if (!mem_.load(aa, &a, 1)) return {false, aa};
          if (!mem_.load(ba, &b, 1)) return {false, ba};
          acc += static_cast<uint32_t>(int32_t(a) * int32_t(b));
        }
        if (!mem_.store(c_addr, &acc, 4)) return {false, c_addr};
      } else {
        float acc = 0.0f;
        if (cmd.accumulate && !mem_.load(c_addr, &acc, 4)) return {false, c_addr};
        for (uint32_t k = 0; k < cmd.k; ++k) {
          float a = 0, b = 0;
          const uint64_t aa = cmd.a + (uint64_t(m) * cmd.lda + k) * eb;
          const uint64_t ba = cmd.b + (uint64_t(k) * cmd.ldb + n) * eb;
          if (!read_f(aa, a)) return {false, aa};
          if (!read_f(ba, b)) return {false, ba};
          acc = std::fmaf(a, b, acc);
        }
        if (!mem_.store(c_addr, &acc, 4)) return {false, c_addr};
      }
    }
  }
  ++dpe_commands_;
  dpe_macs_ += uint64_t(cmd.m) * cmd.n * cmd.k;
  return {};
}

void FunctionalAccelerator::sfu_executed(SfuFunc, uint64_t elements) { sfu_elements_ += elements; }

bool FunctionalAccelerator::ext_executed(const ExtInsn &insn, uint64_t elements) {
  if (insn.unit == ExtUnit::Sfu) sfu_elements_ += elements;
  return false;
}

}  // namespace opforge::isa
