# amo.S - amoswap/amoadd/amoand/amoor/amoxor/amomin/amomax/amominu/amomaxu, .w and .d: old value in rd, new value in memory (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* rd gets the old value (sign-extended for .w); memory gets new_value. */
#define TEST_AMO(n, inst, ld_inst, old, operand, rd_value, new_value)  \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  la a1, amo_word;                                                      \
  li a2, old;                                                           \
  sd a2, 0(a1);                                                         \
  li a3, operand;                                                       \
  inst a4, a3, (a1);                                                    \
  li t6, rd_value;                                                      \
  bne a4, t6, fail;                                                     \
  ld_inst a5, 0(a1);                                                    \
  li t6, new_value;                                                     \
  bne a5, t6, fail;

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_AMO(2, amoswap.d, ld, 0xffffffff80000000, 0x0000000012345678, 0xffffffff80000000, 0x0000000012345678)
  TEST_AMO(3, amoadd.d, ld, 0xffffffff80000000, 0xfffffffffffff800, 0xffffffff80000000, 0xffffffff7ffff800)
  TEST_AMO(4, amoand.d, ld, 0xffffffff80000000, 0xfffffffffffff800, 0xffffffff80000000, 0xffffffff80000000)
  TEST_AMO(5, amoor.d, ld, 0xffffffff80000000, 0x0000000000000001, 0xffffffff80000000, 0xffffffff80000001)
  TEST_AMO(6, amoxor.d, ld, 0xffffffff80000000, 0xffffffff00000001, 0xffffffff80000000, 0x0000000080000001)
  TEST_AMO(7, amomin.d, ld, 0xffffffff80000000, 0x0000000000000001, 0xffffffff80000000, 0xffffffff80000000)
  TEST_AMO(8, amomax.d, ld, 0xffffffff80000000, 0x0000000000000001, 0xffffffff80000000, 0x0000000000000001)
  TEST_AMO(9, amominu.d, ld, 0xffffffff80000000, 0x0000000000000001, 0xffffffff80000000, 0x0000000000000001)
  TEST_AMO(11, amomaxu.d, ld, 0xffffffff80000000, 0x0000000000000001, 0xffffffff80000000, 0xffffffff80000000)
  # Word forms read and write the low 32 bits and sign-extend rd.
  TEST_AMO(12, amoswap.w, lw, 0x0000000080000000, 0x0000000012345678, 0xffffffff80000000, 0x0000000012345678)
  TEST_AMO(13, amoadd.w, lw, 0x000000007fffffff, 0x0000000000000001, 0x000000007fffffff, 0xffffffff80000000)
  TEST_AMO(14, amoand.w, lw, 0x00000000ff00ff00, 0x000000000ff00ff0, 0xffffffffff00ff00, 0x000000000f000f00)
  TEST_AMO(15, amoor.w, lw, 0x00000000ff00ff00, 0x000000000ff00ff0, 0xffffffffff00ff00, 0xfffffffffff0fff0)
  TEST_AMO(16, amoxor.w, lw, 0x00000000ff00ff00, 0x000000000ff00ff0, 0xffffffffff00ff00, 0xfffffffff0f0f0f0)
  TEST_AMO(17, amomin.w, lw, 0x0000000080000000, 0x0000000000000001, 0xffffffff80000000, 0xffffffff80000000)
  TEST_AMO(18, amomax.w, lw, 0x0000000080000000, 0x0000000000000001, 0xffffffff80000000, 0x0000000000000001)
  TEST_AMO(19, amominu.w, lw, 0x0000000080000000, 0x0000000000000001, 0xffffffff80000000, 0x0000000000000001)
  TEST_AMO(21, amomaxu.w, lw, 0x0000000080000000, 0x0000000000000001, 0xffffffff80000000, 0xffffffff80000000)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  .align 3
amo_word:
  .dword 0
RVTEST_DATA_END
