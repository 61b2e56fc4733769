//===- dpe_compute.cpp - DPE matmul numerics ------------------------------===//
#include "opforge/model/dpe_compute.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "opforge/support/dtype.h"

namespace opforge::model {

uint32_t dpe_input_bytes(isa::DpeDType t) {
  switch (t) {
    case isa::DpeDType::BF16:
    case isa::DpeDType::FP16:
      return 2;
    case isa::DpeDType::FP32:
      return 4;
    case isa::DpeDType::INT8:
      return 1;
  }
  return 0;
}

namespace {

template <class Load>
void matmul_float(const isa::DpeCommand &d, const uint8_t *a, const uint8_t *b, uint8_t *c,
                  Load load) {
  uint32_t eb = dpe_input_bytes(d.dtype);
  // Widen B's rows once per command (k x n).
  std::vector<float> bf(size_t(d.k) * d.n);
  for (uint32_t kk = 0; kk < d.k; ++kk)
    for (uint32_t j = 0; j < d.n; ++j)
      bf[size_t(kk) * d.n + j] = load(b + (size_t(kk) * d.ldb + j) * eb);
  std::vector<float> arow(d.k);
  for (uint32_t i = 0; i < d.m; ++i) {
    for (uint32_t kk = 0; kk < d.k; ++kk) arow[kk] = load(a + (size_t(i) * d.lda + kk) * eb);
    for (uint32_t j = 0; j < d.n; ++j) {
      uint8_t *cp = c + (size_t(i) * d.ldc + j) * 4;
      float acc = 0.0f;
      if (d.accumulate) std::memcpy(&acc, cp, 4);
      for (uint32_t kk = 0; kk < d.k; ++kk)
        acc = std::fmaf(arow[kk], bf[size_t(kk) * d.n + j], acc);
      std::memcpy(cp, &acc, 4);
    }
  }
}

}  // namespace

void dpe_matmul(const isa::DpeCommand &d, const uint8_t *a, const uint8_t *b, uint8_t *c) {
  switch (d.dtype) {
    case isa::DpeDType::BF16:
      matmul_float(d, a, b, c, [](const uint8_t *p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return bf16_to_fp32(v);
      });
      return;
    case isa::DpeDType::FP16:
      matmul_float(d, a, b, c, [](const uint8_t *p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return fp16_to_fp32(v);
      });
      return;
    case isa::DpeDType::FP32:
      matmul_float(d, a, b, c, [](const uint8_t *p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      });
      return;
    case isa::DpeDType::INT8:
      for (uint32_t i = 0; i < d.m; ++i)
        for (uint32_t j = 0; j < d.n; ++j) {
          uint8_t *cp = c + (size_t(i) * d.ldc + j) * 4;
          uint32_t acc = 0;
          if (d.accumulate) std::memcpy(&acc, cp, 4);
          for (uint32_t kk = 0; kk < d.k; ++kk) {
            int32_t x = int8_t(a[size_t(i) * d.lda + kk]), y = int8_t(b[size_t(kk) * d.ldb + j]);
            acc += uint32_t(x * y);
          }
          std::memcpy(cp, &acc, 4);
        }
      return;
  }
}

}  // namespace opforge::model
