// double_test.c - RV64D behaviour checks (arithmetic, conversions, flags).
#include <stdint.h>

#define CHECK(n, cond) \
  do {                 \
    if (!(cond)) return n; \
  } while (0)

static inline uint64_t bits(double d) { union { double d; uint64_t u; } x = {d}; return x.u; }
static inline uint32_t fflags(void) { uint32_t v; asm volatile("csrr %0, fflags" : "=r"(v)); return v; }
static inline void clear_flags(void) { asm volatile("csrw fflags, zero"); }

static volatile double one = 1.0, two = 2.0, three = 3.0, big = 1e308;

int main(void) {
  double s;
  asm volatile("fsqrt.d %0, %1" : "=f"(s) : "f"(two));
  CHECK(1, bits(s) == 0x3ff6a09e667f3bcdull);
  double q;
  asm volatile("fdiv.d %0, %1, %2, rdn" : "=f"(q) : "f"(one), "f"(three));
  CHECK(2, bits(q) == 0x3fd5555555555555ull);
  asm volatile("fdiv.d %0, %1, %2, rup" : "=f"(q) : "f"(one), "f"(three));
  CHECK(3, bits(q) == 0x3fd5555555555556ull);
  clear_flags();
  asm volatile("fmul.d %0, %1, %1" : "=f"(q) : "f"(big));
  CHECK(4, fflags() == 0x05 && bits(q) == 0x7ff0000000000000ull);  // overflow + inexact
  // Single <-> double.
  float f;
  asm volatile("fcvt.s.d %0, %1" : "=f"(f) : "f"(1.0 / 3.0));
  CHECK(5, f == 1.0f / 3.0f);
  double d;
  asm volatile("fcvt.d.s %0, %1" : "=f"(d) : "f"(0.1f));
  CHECK(6, bits(d) == 0x3fb99999a0000000ull);
  // Integer conversions, 64-bit.
  int64_t l;
  asm volatile("fcvt.l.d %0, %1, rtz" : "=r"(l) : "f"(-9.223372036854775808e18));
  CHECK(7, l == INT64_MIN);
  asm volatile("fcvt.l.d %0, %1, rtz" : "=r"(l) : "f"(1e19));
  CHECK(8, l == INT64_MAX);
  uint64_t u;
  asm volatile("fcvt.lu.d %0, %1, rtz" : "=r"(u) : "f"(1.8e19));
  CHECK(9, u == 18000000000000000000ull);
  asm volatile("fcvt.d.lu %0, %1" : "=f"(d) : "r"(~0ull));
  CHECK(10, d == 18446744073709551616.0);
  // Horner evaluation of exp(1) ~ sum 1/k!.
  double e = 1.0, term = 1.0;
  for (int k = 1; k < 20; ++k) { term /= k; e += term; }
  CHECK(11, bits(e) == 0x4005bf0a8b145769ull || bits(e) == 0x4005bf0a8b14576aull);
  // fmin.d with a signaling NaN raises invalid and returns the other operand.
  double m;
  clear_flags();
  asm volatile("fmv.d.x ft1, %2; fmin.d %0, ft1, %1" : "=f"(m) : "f"(two), "r"(0x7ff0000000000001ull) : "ft1");
  CHECK(12, m == 2.0 && fflags() == 0x10);
  return 0;
}
