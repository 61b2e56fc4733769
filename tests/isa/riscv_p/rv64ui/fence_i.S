# fence_i.S - code written by stores runs after fence.i (self-modifying code) (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  # Run the patch site once as it is (addi a4, a4, 1), then overwrite it
  # with `addi a4, a4, 100`, fence.i and run it again.
test_2:
  li TESTNUM, 2
  li a4, 0
  jal ra, patch_site
  li a5, 1
  bne a4, a5, fail
  la a1, patch_site
  lw a2, 0(a1)
  li a3, (100 - 1) << 20
  add a2, a2, a3
  sw a2, 0(a1)
  fence.i
  jal ra, patch_site
  li a5, 101
  bne a4, a5, fail

  TEST_PASSFAIL

patch_site:
  addi a4, a4, 1
  ret
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
