# move.S - fmv.x.w/fmv.w.x, fsgnj/fsgnjn/fsgnjx.s, flw/fsw, and NaN-boxing of singles in the 64-bit f registers (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* Sign injection on raw single bits; the result is read back boxed. */
#define TEST_FSGNJ(n, inst, expect, b1, b2)                             \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.w.x f0, a1;        \
            fmv.w.x f1, a2; inst f3, f0, f1; fmv.x.d a0, f3)

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  # fmv.w.x boxes (upper 32 bits all ones); fmv.x.w sign-extends.
  TEST_CASE(2, a0, 0xffffffff12345678, li a1, 0x9abcdef012345678; fmv.w.x f0, a1; fmv.x.d a0, f0)
  TEST_CASE(3, a0, 0xffffffff80000000, li a1, 0x80000000; fmv.w.x f0, a1; fmv.x.w a0, f0)
  TEST_CASE(4, a0, 0x0000000012345678, li a1, 0x12345678; fmv.w.x f0, a1; fmv.x.w a0, f0)
  # flw boxes; fsw stores the low 32 bits as they are.
  TEST_CASE(5, a0, 0xffffffffbf800000, la a1, fdat; flw f0, 0(a1); fmv.x.d a0, f0)
  TEST_CASE(6, a0, 0x0000000055667788, la a1, fdat; li a2, 0x1122334455667788; fmv.d.x f0, a2;
            fsw f0, 8(a1); lwu a0, 8(a1))

  TEST_FSGNJ(10, fsgnj.s, 0xffffffff3f800000, 0xbf800000, 0x40000000)
  TEST_FSGNJ(11, fsgnj.s, 0xffffffffbf800000, 0x3f800000, 0xc0000000)
  TEST_FSGNJ(12, fsgnjn.s, 0xffffffffbf800000, 0x3f800000, 0x40000000)
  TEST_FSGNJ(13, fsgnjn.s, 0xffffffff3f800000, 0x3f800000, 0xc0000000)
  TEST_FSGNJ(14, fsgnjx.s, 0xffffffff3f800000, 0xbf800000, 0xc0000000)
  TEST_FSGNJ(15, fsgnjx.s, 0xffffffffbf800000, 0x3f800000, 0xc0000000)
  # Sign injection never canonicalizes a NaN payload.
  TEST_FSGNJ(16, fsgnjn.s, 0xffffffffff800001, 0x7f800001, 0x00000000)

  # A single that is not NaN-boxed reads as the canonical NaN.
  TEST_CASE(20, a0, 0xffffffff7fc00000, li a1, 0x000000003f800000; fmv.d.x f0, a1;
            li a2, 0x3f800000; fmv.w.x f1, a2; fadd.s f3, f0, f1; fmv.x.d a0, f3;
            fsflags a3, x0; bnez a3, fail)
  TEST_CASE(21, a0, 0xffffffffffc00000, li a1, 0xfffffffe3f800000; fmv.d.x f0, a1;
            li a2, 0xbf800000; fmv.w.x f1, a2; fsgnj.s f3, f0, f1; fmv.x.d a0, f3)
  TEST_CASE(22, a0, 1 << 9, li a1, 0x7fffffff3f800000; fmv.d.x f0, a1; fclass.s a0, f0)
  TEST_CASE(23, a0, 0, li a1, 0x3f800000; fmv.d.x f0, a1; li a2, 0x3f800000; fmv.w.x f1, a2;
            feq.s a0, f0, f1)
  # fmv.x.w moves the low bits of an unboxed register unchanged.
  TEST_CASE(24, a0, 0x000000003f800000, li a1, 0x123456783f800000; fmv.d.x f0, a1; fmv.x.w a0, f0)
  # Arithmetic results are boxed.
  TEST_CASE(25, a0, 0xffffffff40000000, li a1, 0x3f800000; fmv.w.x f0, a1; fadd.s f3, f0, f0; fmv.x.d a0, f3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  .align 3
fdat:
  .float -1.0
  .float 0.0
  .dword 0
RVTEST_DATA_END
