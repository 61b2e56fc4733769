# store.S - sb, sh, sw, sd read back through loads; stores touch only their bytes (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_ST_OP(2, lb, sb, 0xffffffffffffffaa, 0, tdat)
  TEST_ST_OP(3, lbu, sb, 0x00000000000000a0, 1, tdat)
  TEST_ST_OP(4, lh, sh, 0xffffffffffffaa00, 2, tdat)
  TEST_ST_OP(5, lhu, sh, 0x000000000000a00a, 4, tdat)
  TEST_ST_OP(6, lw, sw, 0xffffffffaa00aa00, 8, tdat)
  TEST_ST_OP(7, lwu, sw, 0x00000000a00aa00a, 12, tdat)
  TEST_ST_OP(8, ld, sd, 0x00aa00aa00aa00aa, 16, tdat)
  TEST_ST_OP(9, ld, sd, 0xaa00aa00aa00aa00, -8, tdat + 32)
  # A byte store leaves its neighbours alone.
  TEST_CASE(10, a4, 0x1122334455ee7788,
            la a1, tdat2; li a2, 0x1122334455667788; sd a2, 0(a1);
            li a3, 0xee; sb a3, 2(a1); ld a4, 0(a1))
  TEST_CASE(11, a4, 0x11223344beef7788,
            la a1, tdat2; li a3, 0xbeef; sh a3, 2(a1); ld a4, 0(a1))
  TEST_CASE(12, a4, 0xcafef00dbeef7788,
            la a1, tdat2; li a3, 0xcafef00d; sw a3, 4(a1); ld a4, 0(a1))

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
tdat:
  .fill 5, 8, 0xdeadbeefdeadbeef
tdat2:
  .dword 0
RVTEST_DATA_END
