# stray_trap.S - an unexpected trap (an illegal instruction, no mtvec_handler) ends the run with fail code 1337.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_RR_OP(2, add, 3, 1, 2)
  li TESTNUM, 3
  .word 0xffffffff
  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
