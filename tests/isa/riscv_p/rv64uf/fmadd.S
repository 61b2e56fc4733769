# fmadd.S - fmadd/fmsub/fnmsub/fnmadd.s: one rounding, signs, invalid inf*0 (p environment, machine mode).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_OP3_S(2, fmadd.s, 0, 3.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_S(3, fmadd.s, FF_NX, 1236.199951171875, -1.0, -1235.0999755859375, 1.100000023841858)
  TEST_FP_OP3_S(4, fmadd.s, 0, -12.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_S(5, fmsub.s, 0, 1.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_S(6, fmsub.s, FF_NX, 1234.0, -1.0, -1235.0999755859375, 1.100000023841858)
  TEST_FP_OP3_S(7, fmsub.s, 0, -8.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_S(8, fnmsub.s, 0, -1.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_S(9, fnmsub.s, FF_NX, -1234.0, -1.0, -1235.0999755859375, 1.100000023841858)
  TEST_FP_OP3_S(10, fnmsub.s, 0, 8.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_S(11, fnmadd.s, 0, -3.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_S(12, fnmadd.s, FF_NX, -1236.199951171875, -1.0, -1235.0999755859375, 1.100000023841858)
  TEST_FP_OP3_S(13, fnmadd.s, 0, 12.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_S(14, fmsub.s, 0, -1.4901161193847656e-08, 1.0001220703125, 0.9998779296875, 1.0)
  TEST_FPS_RAW(15, FF_NV, .word 0x7fc00000, +Inf, 0.0, 1.0, fmadd.s f3, f0, f1, f2; fmv.x.w a0, f3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
