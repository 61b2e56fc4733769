# branch.S - beq, bne, blt, bge, bltu, bgeu taken and not taken, forward and backward (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_BR2_OP_TAKEN(2, beq, 0, 0)
  TEST_BR2_OP_TAKEN(3, beq, -1, -1)
  TEST_BR2_OP_NOTTAKEN(4, beq, 0, 1)
  TEST_BR2_OP_NOTTAKEN(5, beq, 0x100000000, 0)
  TEST_BR2_OP_TAKEN(6, bne, 0, 1)
  TEST_BR2_OP_TAKEN(7, bne, 0x100000000, 0)
  TEST_BR2_OP_NOTTAKEN(8, bne, -1, -1)
  TEST_BR2_OP_TAKEN(9, blt, -1, 1)
  TEST_BR2_OP_TAKEN(10, blt, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR2_OP_NOTTAKEN(11, blt, 1, -1)
  TEST_BR2_OP_NOTTAKEN(12, blt, 5, 5)
  TEST_BR2_OP_TAKEN(13, bge, 5, 5)
  TEST_BR2_OP_TAKEN(14, bge, 1, -1)
  TEST_BR2_OP_NOTTAKEN(15, bge, -1, 1)
  TEST_BR2_OP_TAKEN(16, bltu, 1, -1)
  TEST_BR2_OP_TAKEN(17, bltu, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(18, bltu, -1, 1)
  TEST_BR2_OP_NOTTAKEN(19, bltu, 3, 3)
  TEST_BR2_OP_TAKEN(20, bgeu, -1, 1)
  TEST_BR2_OP_TAKEN(21, bgeu, 3, 3)
  TEST_BR2_OP_NOTTAKEN(22, bgeu, 1, -1)

  # A branch over the instruction after it must not execute it.
  TEST_CASE(23, a4, 3, li a4, 0; li a1, 1; beq a1, a1, 1f; addi a4, a4, 1; 1: addi a4, a4, 3)
  TEST_CASE(24, a4, 4, li a4, 0; li a1, 1; bne a1, a1, 1f; addi a4, a4, 1; 1: addi a4, a4, 3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
