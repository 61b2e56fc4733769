# lrsc.S - lr/sc: a store-conditional after a matching load-reserved succeeds (rd = 0) once; a second one fails (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  # sc without a reservation fails and does not write.
  TEST_CASE(2, a4, 1, la a1, lr_word; li a2, 7; sd a2, 0(a1); li a3, 9; sc.d a4, a3, (a1); snez a4, a4)
  TEST_CASE(3, a5, 7, ld a5, 0(a1))
  # lr.d / sc.d succeed and write.
  TEST_CASE(4, a4, 7, la a1, lr_word; lr.d a4, (a1))
  TEST_CASE(5, a4, 0, li a3, 11; sc.d a4, a3, (a1))
  TEST_CASE(6, a5, 11, ld a5, 0(a1))
  # The reservation is used up by the first sc.
  TEST_CASE(7, a4, 1, li a3, 13; sc.d a4, a3, (a1); snez a4, a4)
  TEST_CASE(8, a5, 11, ld a5, 0(a1))
  # lr.w sign-extends; an increment loop with lr.w/sc.w.
  TEST_CASE(9, a4, 0xffffffff80000000, li a2, 0x80000000; sw a2, 0(a1); lr.w a4, (a1))
  TEST_CASE(10, a4, 0, sc.w a4, a2, (a1))
test_11:
  li TESTNUM, 11
  la a1, lr_word
  sd x0, 0(a1)
  li a6, 100
1:
  lr.w a2, (a1)
  addi a2, a2, 1
  sc.w a3, a2, (a1)
  bnez a3, 1b
  addi a6, a6, -1
  bnez a6, 1b
  lw a4, 0(a1)
  li a5, 100
  bne a4, a5, fail

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  .align 3
lr_word:
  .dword 0
RVTEST_DATA_END
