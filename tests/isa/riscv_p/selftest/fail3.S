# fail3.S - a p-environment test whose third case fails: the run must end with fail code 3.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_RR_OP(2, add, 3, 1, 2)
  TEST_RR_OP(3, add, 5, 1, 2)
  TEST_RR_OP(4, add, 4, 2, 2)
  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
