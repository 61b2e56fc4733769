//===- dpe_compute.cpp - DPE matmul numerics ------------------------------===//
#include "opforge/model/dpe_compute.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <vector>

#include "opforge/support/dtype.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

// acc[j] = fmaf(arow[kk], bf[kk][j], acc[j]) for kk = 0..k-1 in order, every
// j < n: one fmaf per multiply-add, in k order, like the definition.
void rows_fma_scalar(const float *arow, const float *bf, float *acc, uint32_t k, uint32_t n) {
  for (uint32_t j = 0; j < n; ++j) {
    float c = acc[j];
    for (uint32_t kk = 0; kk < k; ++kk) c = std::fmaf(arow[kk], bf[size_t(kk) * n + j], c);
    acc[j] = c;
  }
}

#if defined(__x86_64__)
// The same with the host's fused multiply-add, eight columns a lane group and
// 32 in registers across the whole k loop. An FMA instruction rounds a * b + c
// once, as fmaf does, so every element gets the same bits; only which NaN
// payload comes out when several operands are NaN may differ, and the caller
// recomputes NaN results with rows_fma_scalar.
__attribute__((target("avx2,fma"))) void rows_fma_avx2(const float *arow, const float *bf,
                                                       float *acc, uint32_t k, uint32_t n) {
  uint32_t j = 0;
  for (; j + 32 <= n; j += 32) {
    __m256 c0 = _mm256_loadu_ps(acc + j), c1 = _mm256_loadu_ps(acc + j + 8);
    __m256 c2 = _mm256_loadu_ps(acc + j + 16), c3 = _mm256_loadu_ps(acc + j + 24);
    for (uint32_t kk = 0; kk < k; ++kk) {
      const __m256 a = _mm256_set1_ps(arow[kk]);
      const float *b = bf + size_t(kk) * n + j;
      c0 = _mm256_fmadd_ps(a, _mm256_loadu_ps(b), c0);
      c1 = _mm256_fmadd_ps(a, _mm256_loadu_ps(b + 8), c1);
      c2 = _mm256_fmadd_ps(a, _mm256_loadu_ps(b + 16), c2);
      c3 = _mm256_fmadd_ps(a, _mm256_loadu_ps(b + 24), c3);
    }
    _mm256_storeu_ps(acc + j, c0);
    _mm256_storeu_ps(acc + j + 8, c1);
    _mm256_storeu_ps(acc + j + 16, c2);
    _mm256_storeu_ps(acc + j + 24, c3);
  }
  for (; j + 8 <= n; j += 8) {
    __m256 c0 = _mm256_loadu_ps(acc + j);
    for (uint32_t kk = 0; kk < k; ++kk)
      c0 = _mm256_fmadd_ps(_mm256_set1_ps(arow[kk]), _mm256_loadu_ps(bf + size_t(kk) * n + j), c0);
    _mm256_storeu_ps(acc + j, c0);
  }
  for (; j < n; ++j) {
    __m128 c = _mm_set_ss(acc[j]);
    for (uint32_t kk = 0; kk < k; ++kk)
      c = _mm_fmadd_ss(_mm_set_ss(arow[kk]), _mm_set_ss(bf[size_t(kk) * n + j]), c);
    acc[j] = _mm_cvtss_f32(c);
  }
}

bool host_has_fma() {
  static const bool have = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return have;
}
#endif

// The DPE rounds to nearest even (its contract), whatever rounding mode the
// host was left in: the ISS sets the host's mode for a guest instruction with
// a dynamic rounding mode (frm) and leaves it set (on x86-64 in MXCSR only,
// which the float math here obeys). Restores the caller's mode and flags.
class NearestEvenScope {
 public:
#if defined(__x86_64__)
  // MXCSR: rounding control (bits 13-14) 0 = nearest even; flush-to-zero
  // (bit 15) and denormals-are-zero (bit 6) off.
  NearestEvenScope() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ & ~0xe040u); }
  ~NearestEvenScope() { _mm_setcsr(saved_); }

 private:
  unsigned saved_;
#else
  NearestEvenScope() : saved_(std::fegetround()) { std::fesetround(FE_TONEAREST); }
  ~NearestEvenScope() { std::fesetround(saved_); }

 private:
  int saved_;
#endif
};

template <class Load>
void matmul_float(const isa::DpeCommand &d, const uint8_t *a, const uint8_t *b, uint8_t *c,
                  Load load) {
  const NearestEvenScope rne;
  uint32_t eb = dpe_input_bytes(d.dtype);
  // Widen B's rows once per command (k x n).
  std::vector<float> bf(size_t(d.k) * d.n);
  for (uint32_t kk = 0; kk < d.k; ++kk)
    for (uint32_t j = 0; j < d.n; ++j)
      bf[size_t(kk) * d.n + j] = load(b + (size_t(kk) * d.ldb + j) * eb);
  std::vector<float> arow(d.k), acc(d.n), init(d.n);
#if defined(__x86_64__)
  const bool fast = host_has_fma();
#endif
  for (uint32_t i = 0; i < d.m; ++i) {
    for (uint32_t kk = 0; kk < d.k; ++kk) arow[kk] = load(a + (size_t(i) * d.lda + kk) * eb);
    uint8_t *crow = c + size_t(i) * d.ldc * 4;
    if (d.accumulate)
      std::memcpy(init.data(), crow, size_t(d.n) * 4);
    else
      std::fill(init.begin(), init.end(), 0.0f);
    acc = init;
#if defined(__x86_64__)
    if (fast) {
      rows_fma_avx2(arow.data(), bf.data(), acc.data(), d.k, d.n);
      for (uint32_t j = 0; j < d.n; ++j)
        if (std::isnan(acc[j])) {  // the NaN fmaf would have produced
          float r = init[j];
          for (uint32_t kk = 0; kk < d.k; ++kk)
            r = std::fmaf(arow[kk], bf[size_t(kk) * d.n + j], r);
          acc[j] = r;
        }
    } else {
      rows_fma_scalar(arow.data(), bf.data(), acc.data(), d.k, d.n);
    }
#else
    rows_fma_scalar(arow.data(), bf.data(), acc.data(), d.k, d.n);
#endif
    std::memcpy(crow, acc.data(), size_t(d.n) * 4);
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
