// float_test.c - RV64F behaviour checks (rounding, flags, NaN boxing, conversions).
#include <stdint.h>

#define CHECK(n, cond) \
  do {                 \
    if (!(cond)) return n; \
  } while (0)

static inline uint32_t bits(float f) { union { float f; uint32_t u; } x = {f}; return x.u; }
static inline float from(uint32_t u) { union { uint32_t u; float f; } x = {u}; return x.f; }
static inline uint32_t fflags(void) { uint32_t v; asm volatile("csrr %0, fflags" : "=r"(v)); return v; }
static inline void clear_flags(void) { asm volatile("csrw fflags, zero"); }

static volatile float one = 1.0f, two = 2.0f, three = 3.0f, zero = 0.0f, ten = 10.0f;

int main(void) {
  CHECK(1, one + two == three);
  float s;
  asm volatile("fsqrt.s %0, %1" : "=f"(s) : "f"(two));
  CHECK(2, bits(s) == 0x3fb504f3u);
  // 1/3 in each rounding mode.
  float q;
  asm volatile("fdiv.s %0, %1, %2, rtz" : "=f"(q) : "f"(one), "f"(three));
  CHECK(3, bits(q) == 0x3eaaaaaau);
  asm volatile("fdiv.s %0, %1, %2, rup" : "=f"(q) : "f"(one), "f"(three));
  CHECK(4, bits(q) == 0x3eaaaaabu);
  asm volatile("fdiv.s %0, %1, %2, rne" : "=f"(q) : "f"(one), "f"(three));
  CHECK(5, bits(q) == 0x3eaaaaabu);
  // Flags: divide by zero, invalid, inexact.
  clear_flags();
  asm volatile("fdiv.s %0, %1, %2" : "=f"(q) : "f"(one), "f"(zero));
  CHECK(6, fflags() == 0x08 && bits(q) == 0x7f800000u);
  clear_flags();
  asm volatile("fdiv.s %0, %1, %2" : "=f"(q) : "f"(zero), "f"(zero));
  CHECK(7, fflags() == 0x10 && bits(q) == 0x7fc00000u);  // canonical NaN
  clear_flags();
  asm volatile("fdiv.s %0, %1, %2" : "=f"(q) : "f"(one), "f"(ten));
  CHECK(8, fflags() == 0x01);
  // fmin/fmax with NaN and signed zeros.
  float m;
  asm volatile("fmin.s %0, %1, %2" : "=f"(m) : "f"(from(0x7fc00000u)), "f"(two));
  CHECK(9, m == 2.0f);
  asm volatile("fmin.s %0, %1, %2" : "=f"(m) : "f"(0.0f), "f"(-0.0f));
  CHECK(10, bits(m) == 0x80000000u);
  // Conversions saturate.
  int64_t iv;
  asm volatile("fcvt.w.s %0, %1, rtz" : "=r"(iv) : "f"(from(0x7fc00000u)));
  CHECK(11, iv == 0x7fffffff);
  asm volatile("fcvt.w.s %0, %1, rtz" : "=r"(iv) : "f"(-1e20f));
  CHECK(12, iv == INT32_MIN);
  asm volatile("fcvt.wu.s %0, %1, rtz" : "=r"(iv) : "f"(-3.0f));
  CHECK(13, iv == 0);
  asm volatile("fcvt.w.s %0, %1, rne" : "=r"(iv) : "f"(2.5f));
  CHECK(14, iv == 2);
  asm volatile("fcvt.w.s %0, %1, rmm" : "=r"(iv) : "f"(2.5f));
  CHECK(15, iv == 3);
  asm volatile("fcvt.w.s %0, %1, rdn" : "=r"(iv) : "f"(-2.5f));
  CHECK(16, iv == -3);
  // NaN boxing: a double register that is not a boxed single reads as canonical NaN.
  uint64_t raw = 0x3ff0000000000000ull;  // 1.0 as a double
  uint32_t cls;
  asm volatile("fmv.d.x ft0, %1; fclass.s %0, ft0" : "=r"(cls) : "r"(raw) : "ft0");
  CHECK(17, cls == (1u << 9));
  // Fused multiply-add rounds once.
  float f;
  asm volatile("fmadd.s %0, %1, %2, %3" : "=f"(f) : "f"(from(0x3f800001u)), "f"(from(0x3f800001u)), "f"(from(0xbf800002u)));
  CHECK(18, bits(f) == 0x28800000u);  // 2^-46 exactly
  // fclass of the usual suspects.
  asm volatile("fclass.s %0, %1" : "=r"(cls) : "f"(-0.0f));
  CHECK(19, cls == (1u << 3));
  asm volatile("fclass.s %0, %1" : "=r"(cls) : "f"(from(0x00000001u)));
  CHECK(20, cls == (1u << 5));
  // A small loop: sum 1/k^2 converges towards pi^2/6.
  float acc = 0.0f;
  for (int k = 1; k <= 1000; ++k) acc += 1.0f / ((float)k * (float)k);
  CHECK(21, acc > 1.6439f && acc < 1.6450f);
  return 0;
}
