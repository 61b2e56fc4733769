# fcvt.S - fcvt between single and integers: every static rounding mode, dyn, saturation and NaN (NV), exact/inexact (NX) (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* Integer to single with an inexact result: result bits and NX. */
#define TEST_INT_FP_INEXACT_S(n, inst, rm, expect, v1)                  \
  TEST_CASE(n, a0, expect, li a4, v1; inst f3, a4, rm; fmv.x.w a0, f3;  \
            fsflags a3, x0; li t6, FF_NX; bne a3, t6, fail)
/* Single (raw bits) to integer. */
#define TEST_FP_INT_RAW_S(n, inst, flags, expect, b1)                   \
  TEST_CASE(n, a0, expect, li a1, b1; fmv.w.x f0, a1; inst a0, f0, rtz;  \
            fsflags a3, x0; li t6, flags; bne a3, t6, fail)

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_INT_OP_S(2, fcvt.w.s, FF_NX, -1, -1.1, rtz)
  TEST_FP_INT_OP_S(3, fcvt.w.s, 0, -1, -1.0, rtz)
  TEST_FP_INT_OP_S(4, fcvt.w.s, FF_NX, 0, -0.9, rtz)
  TEST_FP_INT_OP_S(5, fcvt.w.s, FF_NX, 0, 0.9, rtz)
  TEST_FP_INT_OP_S(6, fcvt.w.s, 0, 1, 1.0, rtz)
  TEST_FP_INT_OP_S(7, fcvt.w.s, FF_NX, 1, 1.1, rtz)
  TEST_FP_INT_OP_S(8, fcvt.w.s, FF_NV, 0xffffffff80000000, -3e9, rtz)
  TEST_FP_INT_OP_S(9, fcvt.w.s, FF_NV, 0x000000007fffffff, 3e9, rtz)
  TEST_FP_INT_OP_S(10, fcvt.wu.s, FF_NV, 0, -3.0, rtz)
  TEST_FP_INT_OP_S(11, fcvt.wu.s, FF_NX, 0, -0.9, rtz)
  TEST_FP_INT_OP_S(12, fcvt.wu.s, 0, 0xffffffffb2d05e00, 3e9, rtz)
  TEST_FP_INT_OP_S(13, fcvt.wu.s, FF_NV, 0xffffffffffffffff, 5e9, rtz)
  TEST_FP_INT_OP_S(14, fcvt.l.s, 0, -3000000000, -3e9, rtz)
  TEST_FP_INT_OP_S(15, fcvt.l.s, FF_NV, 0x8000000000000000, -1e20, rtz)
  TEST_FP_INT_OP_S(16, fcvt.l.s, FF_NV, 0x7fffffffffffffff, 1e20, rtz)
  TEST_FP_INT_OP_S(17, fcvt.lu.s, FF_NV, 0, -1.0, rtz)
  TEST_FP_INT_OP_S(18, fcvt.lu.s, 0, 0x8000000000000000, 9.223372036854775808e18, rtz)
  # NaN converts to the largest positive integer.
  TEST_FP_INT_RAW_S(19, fcvt.w.s, FF_NV, 0x000000007fffffff, 0x7fc00000)
  TEST_FP_INT_RAW_S(20, fcvt.wu.s, FF_NV, 0xffffffffffffffff, 0xffc00000)
  TEST_FP_INT_RAW_S(21, fcvt.l.s, FF_NV, 0x7fffffffffffffff, 0x7f800001)
  TEST_FP_INT_RAW_S(22, fcvt.lu.s, FF_NV, 0xffffffffffffffff, 0x7fc00000)

  # The five static rounding modes on +-2.5 and 1.5.
  TEST_FP_INT_OP_S(30, fcvt.w.s, FF_NX, 2, 2.5, rne)
  TEST_FP_INT_OP_S(31, fcvt.w.s, FF_NX, 2, 2.5, rtz)
  TEST_FP_INT_OP_S(32, fcvt.w.s, FF_NX, 2, 2.5, rdn)
  TEST_FP_INT_OP_S(33, fcvt.w.s, FF_NX, 3, 2.5, rup)
  TEST_FP_INT_OP_S(34, fcvt.w.s, FF_NX, 3, 2.5, rmm)
  TEST_FP_INT_OP_S(35, fcvt.w.s, FF_NX, -2, -2.5, rne)
  TEST_FP_INT_OP_S(36, fcvt.w.s, FF_NX, -2, -2.5, rtz)
  TEST_FP_INT_OP_S(37, fcvt.w.s, FF_NX, -3, -2.5, rdn)
  TEST_FP_INT_OP_S(38, fcvt.w.s, FF_NX, -2, -2.5, rup)
  TEST_FP_INT_OP_S(39, fcvt.w.s, FF_NX, -3, -2.5, rmm)
  TEST_FP_INT_OP_S(40, fcvt.l.s, FF_NX, 2, 1.5, rne)
  TEST_FP_INT_OP_S(41, fcvt.l.s, FF_NX, 1, 1.5, rdn)
  # Dynamic: frm = rup, then rdn.
  TEST_CASE(42, a0, 3, fsrmi 3; li a1, 0x40200000; fmv.w.x f0, a1; fcvt.w.s a0, f0, dyn; fsflags x0; fsrmi 0)
  TEST_CASE(43, a0, -3, fsrmi 2; li a1, 0xc0200000; fmv.w.x f0, a1; fcvt.w.s a0, f0, dyn; fsflags x0; fsrmi 0)

  # Integers to single.
  TEST_INT_FP_OP_S(50, fcvt.s.w, 2.0, 2)
  TEST_INT_FP_OP_S(51, fcvt.s.w, -2.0, -2)
  TEST_INT_FP_OP_S(52, fcvt.s.w, 2.0, 0x100000002)
  TEST_INT_FP_OP_S(53, fcvt.s.wu, 2147483648.0, 0x80000000)
  TEST_INT_FP_OP_S(54, fcvt.s.l, -2.0, -2)
  TEST_INT_FP_OP_S(55, fcvt.s.lu, 9.223372036854775808e18, 0x8000000000000000)
  # 2^24 + 1 is not a single: RNE gives 2^24, RUP 2^24 + 2.
  TEST_INT_FP_INEXACT_S(56, fcvt.s.w, rne, 0x4b800000, 0x1000001)
  TEST_INT_FP_INEXACT_S(57, fcvt.s.w, rup, 0x4b800001, 0x1000001)
  TEST_INT_FP_INEXACT_S(58, fcvt.s.wu, rne, 0x000000004f800000, 0xffffffff)
  TEST_INT_FP_INEXACT_S(59, fcvt.s.lu, rtz, 0x000000005f7fffff, 0xffffffffffffffff)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
