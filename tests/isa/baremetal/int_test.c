// int_test.c - RV64IMA behaviour checks; returns 0 or the number of the first failed check.
#include <stdint.h>

#define CHECK(n, cond) \
  do {                 \
    if (!(cond)) return n; \
  } while (0)

static volatile int64_t vneg = -7, vpos = 3, vzero = 0, vmin = INT64_MIN, vm1 = -1;

static uint32_t crc32(const uint8_t *p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
  }
  return ~c;
}

static void sort(int32_t *a, int n) {
  for (int i = 1; i < n; ++i) {
    int32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; --j; }
    a[j + 1] = v;
  }
}

int main(void) {
  // Division and remainder rounding toward zero, RISC-V corner cases.
  CHECK(1, vneg / vpos == -2 && vneg % vpos == -1);
  int64_t q, r;
  asm volatile("div %0, %1, %2" : "=r"(q) : "r"(vpos), "r"(vzero));
  CHECK(2, q == -1);
  asm volatile("rem %0, %1, %2" : "=r"(r) : "r"(vpos), "r"(vzero));
  CHECK(3, r == 3);
  asm volatile("div %0, %1, %2" : "=r"(q) : "r"(vmin), "r"(vm1));
  CHECK(4, q == INT64_MIN);
  asm volatile("remw %0, %1, %2" : "=r"(r) : "r"(vmin), "r"(vm1));
  CHECK(5, r == 0);
  // High multiplies.
  uint64_t hi;
  asm volatile("mulhu %0, %1, %2" : "=r"(hi) : "r"(~0ull), "r"(~0ull));
  CHECK(6, hi == 0xfffffffffffffffeull);
  asm volatile("mulh %0, %1, %2" : "=r"(hi) : "r"(vm1), "r"(vm1));
  CHECK(7, hi == 0);
  // 32-bit ops sign-extend.
  int64_t w;
  asm volatile("addw %0, %1, %2" : "=r"(w) : "r"(0x7fffffffll), "r"(1ll));
  CHECK(8, w == INT32_MIN);
  // Loads of every width.
  static const uint8_t bytes[8] = {0x80, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05, 0x86};
  CHECK(9, *(const volatile int8_t *)bytes == -128);
  CHECK(10, *(const volatile uint16_t *)bytes == 0xff80);
  CHECK(11, *(const volatile int64_t *)bytes == (int64_t)0x860504030201ff80ull);
  // A real computation.
  static const char msg[] = "The quick brown fox jumps over the lazy dog";
  CHECK(12, crc32((const uint8_t *)msg, sizeof msg - 1) == 0x414fa339u);
  int32_t a[16];
  for (int i = 0; i < 16; ++i) a[i] = (int32_t)((i * 7919) % 31) - 15;
  sort(a, 16);
  for (int i = 1; i < 16; ++i) CHECK(13, a[i - 1] <= a[i]);
  // Atomics.
  static volatile int64_t counter = 5;
  int64_t old = __atomic_fetch_add(&counter, 10, __ATOMIC_SEQ_CST);
  CHECK(14, old == 5 && counter == 15);
  int64_t expected = 15;
  CHECK(15, __atomic_compare_exchange_n(&counter, &expected, 99, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && counter == 99);
  // CSRs: instret advances, mscratch holds a value.
  uint64_t i0, i1, s;
  asm volatile("csrr %0, minstret" : "=r"(i0));
  asm volatile("nop; nop; nop");
  asm volatile("csrr %0, minstret" : "=r"(i1));
  CHECK(16, i1 - i0 == 4);
  asm volatile("csrw mscratch, %1; csrr %0, mscratch" : "=r"(s) : "r"(0x1234ull));
  CHECK(17, s == 0x1234);
  return 0;
}
