# lui_auipc.S - lui (sign-extended upper immediates) and auipc (pc-relative) (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_CASE(2, a4, 0x0000000000000000, lui a4, 0x00000)
  TEST_CASE(3, a4, 0xfffffffffffff800, lui a4, 0xfffff; sra a4, a4, 1)
  TEST_CASE(4, a4, 0x00000000000007ff, lui a4, 0x7ffff; sra a4, a4, 20)
  TEST_CASE(5, a4, 0xfffffffffffff800, lui a4, 0x80000; sra a4, a4, 20)
  TEST_CASE(6, a4, 0xffffffff80000000, lui a4, 0x80000)
  TEST_CASE(7, x0, 0, lui x0, 0x80000)

  # auipc adds the upper immediate to its own pc.
test_8:
  li TESTNUM, 8
1:
  auipc a4, 0
  la a1, 1b
  bne a4, a1, fail
test_9:
  li TESTNUM, 9
1:
  auipc a4, 0x1
  la a1, 1b
  li a2, 0x1000
  add a1, a1, a2
  bne a4, a1, fail
test_10:
  li TESTNUM, 10
1:
  auipc a4, 0xfffff
  la a1, 1b
  li a2, -0x1000
  add a1, a1, a2
  bne a4, a1, fail

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
