# move.S - fmv.x.d/fmv.d.x, fsgnj/fsgnjn/fsgnjx.d, fld/fsd (p environment).
#include "riscv_test.h"
#include "test_macros.h"

#define TEST_FSGNJ(n, inst, expect, b1, b2)                             \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.d.x f0, a1;        \
            fmv.d.x f1, a2; inst f3, f0, f1; fmv.x.d a0, f3)

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_CASE(2, a0, 0x9abcdef012345678, li a1, 0x9abcdef012345678; fmv.d.x f0, a1; fmv.x.d a0, f0)
  TEST_CASE(3, a0, 0xbff0000000000000, la a1, ddat; fld f0, 0(a1); fmv.x.d a0, f0)
  TEST_CASE(4, a0, 0x1122334455667788, la a1, ddat; li a2, 0x1122334455667788; fmv.d.x f0, a2;
            fsd f0, 8(a1); ld a0, 8(a1))
  TEST_FSGNJ(10, fsgnj.d, 0x3ff0000000000000, 0xbff0000000000000, 0x4000000000000000)
  TEST_FSGNJ(11, fsgnj.d, 0xbff0000000000000, 0x3ff0000000000000, 0xc000000000000000)
  TEST_FSGNJ(12, fsgnjn.d, 0xbff0000000000000, 0x3ff0000000000000, 0x4000000000000000)
  TEST_FSGNJ(13, fsgnjn.d, 0x3ff0000000000000, 0x3ff0000000000000, 0xc000000000000000)
  TEST_FSGNJ(14, fsgnjx.d, 0x3ff0000000000000, 0xbff0000000000000, 0xc000000000000000)
  TEST_FSGNJ(15, fsgnjx.d, 0xbff0000000000000, 0x3ff0000000000000, 0xc000000000000000)
  TEST_FSGNJ(16, fsgnjn.d, 0xfff0000000000001, 0x7ff0000000000001, 0x0000000000000000)
  # A double operation on a boxed single sees the box bits as a NaN.
  TEST_CASE(20, a0, 1 << 9, li a1, 0x3f800000; fmv.w.x f0, a1; fclass.d a0, f0)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  .align 3
ddat:
  .double -1.0
  .dword 0
RVTEST_DATA_END
