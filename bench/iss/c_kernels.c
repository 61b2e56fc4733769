// c_kernels.c - a scalar C workload (CRC, insertion sort, integer matrix
// multiply, a byte histogram) built twice by bench/iss/CMakeLists.txt:
// -march=rv64gcv (GCC emits compressed instructions) and -march=rv64gv (no
// C). bench_iss runs both to compare the ISS's rate on RVC and base code.
// A Linux user-mode program: exits through ecall 93 with the checksum's low
// byte, so qemu-riscv64 runs it too.
#include <stdint.h>

#define N 48

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
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

static int32_t ma[N][N], mb[N][N], mc[N][N];
static int32_t arr[256];
static uint8_t bytes[1024];
static uint32_t hist[256];

static uint64_t work(uint32_t seed) {
  uint32_t x = seed;
  for (int i = 0; i < 1024; ++i) bytes[i] = (uint8_t)(x = x * 1664525u + 1013904223u) >> 24;
  for (int i = 0; i < 256; ++i) arr[i] = (int32_t)(x = x * 1664525u + 1013904223u);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      ma[i][j] = (int32_t)((i * 7 + j * 3 + seed) & 0xff) - 128;
      mb[i][j] = (int32_t)((i * 5 + j * 11 + seed) & 0xff) - 128;
    }
  uint64_t sum = crc32(bytes, 1024);
  sort(arr, 256);
  for (int i = 0; i < 256; i += 17) sum += (uint32_t)arr[i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t acc = 0;
      for (int k = 0; k < N; ++k) acc += ma[i][k] * mb[k][j];
      mc[i][j] = acc;
    }
  for (int i = 0; i < N; ++i) sum += (uint32_t)mc[i][(i * 5) % N];
  for (int i = 0; i < 256; ++i) hist[i] = 0;
  for (int i = 0; i < 1024; ++i) hist[bytes[i]]++;
  for (int i = 0; i < 256; ++i) sum = sum * 31 + hist[i];
  return sum;
}

void _start(void) {
  uint64_t sum = 0;
  for (uint32_t round = 0; round < 120; ++round) sum += work(round);
  register long a0 asm("a0") = (long)(sum & 0xff);
  register long a7 asm("a7") = 93;
  asm volatile("ecall" : : "r"(a0), "r"(a7));
  for (;;) {
  }
}
