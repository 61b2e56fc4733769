# fcmp.S - feq/flt/fle.d (quiet vs signaling NaN rules), fmin/fmax.d (signed zeros, NaN operands), fclass.d (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* Compare with raw operand bits: flags must equal `flags`. */
#define TEST_CMP_RAW(n, inst, expect, flags, b1, b2)                    \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.d.x f0, a1;        \
            fmv.d.x f1, a2; inst a0, f0, f1; fsflags a3, x0;            \
            li t6, flags; bne a3, t6, fail)
/* fmin/fmax with raw operand bits; result bits sign-extended. */
#define TEST_MINMAX_RAW(n, inst, expect, flags, b1, b2)                 \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.d.x f0, a1;        \
            fmv.d.x f1, a2; inst f3, f0, f1; fmv.x.d a0, f3;            \
            fsflags a3, x0; li t6, flags; bne a3, t6, fail)
#define QNAN 0x7ff8000000000000
#define SNAN 0x7ff0000000000001

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_CMP_OP_D(2, feq.d, 0, 1, -1.36, -1.36)
  TEST_FP_CMP_OP_D(3, fle.d, 0, 1, -1.36, -1.36)
  TEST_FP_CMP_OP_D(4, flt.d, 0, 0, -1.36, -1.36)
  TEST_FP_CMP_OP_D(5, feq.d, 0, 0, -1.37, -1.36)
  TEST_FP_CMP_OP_D(6, fle.d, 0, 1, -1.37, -1.36)
  TEST_FP_CMP_OP_D(7, flt.d, 0, 1, -1.37, -1.36)
  TEST_FP_CMP_OP_D(8, feq.d, 0, 1, -0.0, 0.0)
  TEST_FP_CMP_OP_D(9, flt.d, 0, 0, -0.0, 0.0)
  # feq is quiet: only a signaling NaN raises NV; flt/fle raise NV on any NaN.
  TEST_CMP_RAW(10, feq.d, 0, 0, QNAN, 0)
  TEST_CMP_RAW(11, feq.d, 0, FF_NV, SNAN, 0)
  TEST_CMP_RAW(12, flt.d, 0, FF_NV, QNAN, 0)
  TEST_CMP_RAW(13, fle.d, 0, FF_NV, 0, QNAN)
  TEST_CMP_RAW(14, fle.d, 0, FF_NV, SNAN, SNAN)

  TEST_FP_OP2_D(20, fmin.d, 0, 1.0, 2.5, 1.0)
  TEST_FP_OP2_D(21, fmin.d, 0, -1235.1, -1235.1, 1.1)
  TEST_FP_OP2_D(22, fmax.d, 0, 2.5, 2.5, 1.0)
  TEST_FP_OP2_D(23, fmax.d, 0, 1.1, -1235.1, 1.1)
  TEST_MINMAX_RAW(24, fmin.d, 0x8000000000000000, 0, 0x8000000000000000, 0x0000000000000000)
  TEST_MINMAX_RAW(25, fmin.d, 0x8000000000000000, 0, 0x0000000000000000, 0x8000000000000000)
  TEST_MINMAX_RAW(26, fmax.d, 0x0000000000000000, 0, 0x8000000000000000, 0x0000000000000000)
  # One NaN operand: the other operand; a signaling NaN raises NV.
  TEST_MINMAX_RAW(27, fmin.d, 0x3ff0000000000000, 0, QNAN, 0x3ff0000000000000)
  TEST_MINMAX_RAW(28, fmax.d, 0x3ff0000000000000, FF_NV, 0x3ff0000000000000, SNAN)
  # Both NaN: the canonical NaN.
  TEST_MINMAX_RAW(29, fmin.d, 0x7ff8000000000000, FF_NV, SNAN, QNAN)
  TEST_MINMAX_RAW(30, fmax.d, 0x7ff8000000000000, 0, 0xfff8000000000001, QNAN)

  # fclass.d: one bit per class.
  TEST_FPD_INT(40, 0, 1 << 0, -Inf, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(41, 0, 1 << 1, -1.0, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(42, 0, 1 << 2, -1e-310, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(43, 0, 1 << 3, -0.0, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(44, 0, 1 << 4, 0.0, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(45, 0, 1 << 5, 1e-310, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(46, 0, 1 << 6, 1.0, 0.0, 0.0, fclass.d a0, f0)
  TEST_FPD_INT(47, 0, 1 << 7, +Inf, 0.0, 0.0, fclass.d a0, f0)
  TEST_CASE(48, a0, 1 << 8, li a1, SNAN; fmv.d.x f0, a1; fclass.d a0, f0)
  TEST_CASE(49, a0, 1 << 9, li a1, QNAN; fmv.d.x f0, a1; fclass.d a0, f0)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
