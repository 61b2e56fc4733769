# fcmp.S - feq/flt/fle.s (quiet vs signaling NaN rules), fmin/fmax.s (signed zeros, NaN operands), fclass.s (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* Compare with raw operand bits: flags must equal `flags`. */
#define TEST_CMP_RAW(n, inst, expect, flags, b1, b2)                    \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.w.x f0, a1;        \
            fmv.w.x f1, a2; inst a0, f0, f1; fsflags a3, x0;            \
            li t6, flags; bne a3, t6, fail)
/* fmin/fmax with raw operand bits; result bits sign-extended. */
#define TEST_MINMAX_RAW(n, inst, expect, flags, b1, b2)                 \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.w.x f0, a1;        \
            fmv.w.x f1, a2; inst f3, f0, f1; fmv.x.w a0, f3;            \
            fsflags a3, x0; li t6, flags; bne a3, t6, fail)
#define QNAN 0x7fc00000
#define SNAN 0x7f800001

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_CMP_OP_S(2, feq.s, 0, 1, -1.36, -1.36)
  TEST_FP_CMP_OP_S(3, fle.s, 0, 1, -1.36, -1.36)
  TEST_FP_CMP_OP_S(4, flt.s, 0, 0, -1.36, -1.36)
  TEST_FP_CMP_OP_S(5, feq.s, 0, 0, -1.37, -1.36)
  TEST_FP_CMP_OP_S(6, fle.s, 0, 1, -1.37, -1.36)
  TEST_FP_CMP_OP_S(7, flt.s, 0, 1, -1.37, -1.36)
  TEST_FP_CMP_OP_S(8, feq.s, 0, 1, -0.0, 0.0)
  TEST_FP_CMP_OP_S(9, flt.s, 0, 0, -0.0, 0.0)
  # feq is quiet: only a signaling NaN raises NV; flt/fle raise NV on any NaN.
  TEST_CMP_RAW(10, feq.s, 0, 0, QNAN, 0)
  TEST_CMP_RAW(11, feq.s, 0, FF_NV, SNAN, 0)
  TEST_CMP_RAW(12, flt.s, 0, FF_NV, QNAN, 0)
  TEST_CMP_RAW(13, fle.s, 0, FF_NV, 0, QNAN)
  TEST_CMP_RAW(14, fle.s, 0, FF_NV, SNAN, SNAN)

  TEST_FP_OP2_S(20, fmin.s, 0, 1.0, 2.5, 1.0)
  TEST_FP_OP2_S(21, fmin.s, 0, -1235.1, -1235.1, 1.1)
  TEST_FP_OP2_S(22, fmax.s, 0, 2.5, 2.5, 1.0)
  TEST_FP_OP2_S(23, fmax.s, 0, 1.1, -1235.1, 1.1)
  TEST_MINMAX_RAW(24, fmin.s, 0xffffffff80000000, 0, 0x80000000, 0x00000000)
  TEST_MINMAX_RAW(25, fmin.s, 0xffffffff80000000, 0, 0x00000000, 0x80000000)
  TEST_MINMAX_RAW(26, fmax.s, 0x0000000000000000, 0, 0x80000000, 0x00000000)
  # One NaN operand: the other operand; a signaling NaN raises NV.
  TEST_MINMAX_RAW(27, fmin.s, 0x000000003f800000, 0, QNAN, 0x3f800000)
  TEST_MINMAX_RAW(28, fmax.s, 0x000000003f800000, FF_NV, 0x3f800000, SNAN)
  # Both NaN: the canonical NaN.
  TEST_MINMAX_RAW(29, fmin.s, 0x000000007fc00000, FF_NV, SNAN, QNAN)
  TEST_MINMAX_RAW(30, fmax.s, 0x000000007fc00000, 0, 0xffc00001, QNAN)

  # fclass.s: one bit per class.
  TEST_FPS_INT(40, 0, 1 << 0, -Inf, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(41, 0, 1 << 1, -1.0, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(42, 0, 1 << 2, -1e-40, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(43, 0, 1 << 3, -0.0, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(44, 0, 1 << 4, 0.0, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(45, 0, 1 << 5, 1e-40, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(46, 0, 1 << 6, 1.0, 0.0, 0.0, fclass.s a0, f0)
  TEST_FPS_INT(47, 0, 1 << 7, +Inf, 0.0, 0.0, fclass.s a0, f0)
  TEST_CASE(48, a0, 1 << 8, li a1, SNAN; fmv.w.x f0, a1; fclass.s a0, f0)
  TEST_CASE(49, a0, 1 << 9, li a1, QNAN; fmv.w.x f0, a1; fclass.s a0, f0)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
