# fmadd.S - fmadd/fmsub/fnmsub/fnmadd.d: one rounding, signs, invalid inf*0 (p environment, machine mode).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_OP3_D(2, fmadd.d, 0, 3.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_D(3, fmadd.d, FF_NX, 1236.1999999999998, -1.0, -1235.1, 1.1)
  TEST_FP_OP3_D(4, fmadd.d, 0, -12.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_D(5, fmsub.d, 0, 1.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_D(6, fmsub.d, FF_NX, 1234.0, -1.0, -1235.1, 1.1)
  TEST_FP_OP3_D(7, fmsub.d, 0, -8.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_D(8, fnmsub.d, 0, -1.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_D(9, fnmsub.d, FF_NX, -1234.0, -1.0, -1235.1, 1.1)
  TEST_FP_OP3_D(10, fnmsub.d, 0, 8.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_D(11, fnmadd.d, 0, -3.5, 1.0, 2.5, 1.0)
  TEST_FP_OP3_D(12, fnmadd.d, FF_NX, -1236.1999999999998, -1.0, -1235.1, 1.1)
  TEST_FP_OP3_D(13, fnmadd.d, 0, 12.0, 2.0, -5.0, -2.0)
  TEST_FP_OP3_D(14, fmsub.d, 0, -5.551115123125783e-17, 1.0000000074505806, 0.9999999925494194, 1.0)
  TEST_FPD_RAW(15, FF_NV, .dword 0x7ff8000000000000, +Inf, 0.0, 1.0, fmadd.d f3, f0, f1, f2; fmv.x.d a0, f3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
