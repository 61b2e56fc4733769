# jump.S - jal and jalr: link values, targets, rd = x0, rd = rs1, the low bit of jalr's target (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  # jal links pc + 4 and jumps.
test_2:
  li TESTNUM, 2
  li ra, 0
  jal a4, 1f
2:
  j fail
1:
  la a1, 2b
  bne a4, a1, fail

  # jal with rd = x0 leaves x0 zero.
  TEST_CASE(3, x0, 0, jal x0, 1f; j fail; 1:)

  # jalr to register + offset, link in rd.
test_4:
  li TESTNUM, 4
  la a1, 1f
  addi a1, a1, -8
  jalr a4, 8(a1)
2:
  j fail
1:
  la a2, 2b
  bne a4, a2, fail

  # jalr clears bit 0 of the target.
test_5:
  li TESTNUM, 5
  la a1, 1f
  addi a1, a1, 1
  jalr a4, 0(a1)
  j fail
1:

  # jalr with rd = rs1 uses the old rs1 value.
test_6:
  li TESTNUM, 6
  la a1, 1f
  jalr a1, 0(a1)
2:
  j fail
1:
  la a2, 2b
  bne a1, a2, fail

  # Instructions after a taken jump do not execute.
  TEST_CASE(7, a4, 3, li a4, 0; jal x0, 1f; addi a4, a4, 1; addi a4, a4, 1; 1: addi a4, a4, 3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
