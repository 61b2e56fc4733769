# fadd.S - fadd/fsub/fmul/fdiv/fsqrt.d: results and accrued fflags (NX, OF, UF, DZ, NV) (p environment, machine mode).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_OP2_D(2, fadd.d, 0, 3.5, 2.5, 1.0)
  TEST_FP_OP2_D(3, fadd.d, FF_NX, -1234.0, -1235.1, 1.1)
  TEST_FP_OP2_D(4, fadd.d, FF_NX, 3.14159266, 3.14159265, 1e-08)
  TEST_FP_OP2_D(5, fsub.d, 0, 1.5, 2.5, 1.0)
  TEST_FP_OP2_D(6, fsub.d, FF_NX, -1234.0, -1235.1, -1.1)
  TEST_FP_OP2_D(7, fsub.d, FF_NX, 3.1415926400000003, 3.14159265, 1e-08)
  TEST_FP_OP2_D(8, fmul.d, 0, 2.5, 2.5, 1.0)
  TEST_FP_OP2_D(9, fmul.d, FF_NX, 1358.61, -1235.1, -1.1)
  TEST_FP_OP2_D(10, fmul.d, FF_NX, 3.14159265e-08, 3.14159265, 1e-08)
  TEST_FP_OP2_D(11, fmul.d, FF_OF|FF_NX, +Inf, 1e+300, 1e+300)
  TEST_FP_OP2_D(12, fmul.d, FF_UF|FF_NX, 0.0, 1e-300, 1e-30)
  TEST_FP_OP2_D(13, fdiv.d, FF_NX, 1.1557273520668288, 3.14159265, 2.71828182)
  TEST_FP_OP2_D(14, fdiv.d, FF_NX, -0.9991093838555584, -1234.0, 1235.1)
  TEST_FP_OP2_D(15, fdiv.d, 0, 6.0, 3.0, 0.5)
  TEST_FP_OP2_D(16, fdiv.d, FF_NX, 0.3333333333333333, 1.0, 3.0)
  TEST_FP_OP2_D(17, fdiv.d, FF_DZ, +Inf, 1.0, 0.0)
  TEST_FP_OP2_D(18, fdiv.d, FF_DZ, -Inf, -1.0, 0.0)
  TEST_FP_OP2_D_CNAN(19, fsub.d, FF_NV, +Inf, +Inf)
  TEST_FP_OP2_D_CNAN(20, fmul.d, FF_NV, +Inf, 0.0)
  TEST_FP_OP2_D_CNAN(21, fdiv.d, FF_NV, 0.0, 0.0)
  TEST_FP_OP2_D_CNAN(22, fadd.d, 0, +NaN, 1.0)
  TEST_FP_OP1_D(23, fsqrt.d, FF_NX, 1.7724538498928541, 3.14159265)
  TEST_FP_OP1_D(24, fsqrt.d, 0, 100.0, 10000.0)
  TEST_FP_OP1_D(25, fsqrt.d, FF_NX, 13.076696830622021, 171.0)
  TEST_FP_OP1_D(26, fsqrt.d, 0, 1.0, 1.0)
  TEST_FP_OP1_D(27, fsqrt.d, FF_NX, 1.4142135623730951, 2.0)
  TEST_FPD_RAW(28, FF_NV, .dword 0x7ff8000000000000, -1.0, 0.0, 0.0, fsqrt.d f3, f0; fmv.x.d a0, f3)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
