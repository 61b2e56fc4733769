# fcvt.S - fcvt between double, single and integers: every static rounding mode, dyn, saturation and NaN (NV), exact/inexact (NX) (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* Integer to double with an inexact result: result bits and NX. */
#define TEST_INT_FP_INEXACT_D(n, inst, rm, expect, v1)                  \
  TEST_CASE(n, a0, expect, li a4, v1; inst f3, a4, rm; fmv.x.d a0, f3;  \
            fsflags a3, x0; li t6, FF_NX; bne a3, t6, fail)
/* Double (raw bits) to integer. */
#define TEST_FP_INT_RAW_D(n, inst, flags, expect, b1)                   \
  TEST_CASE(n, a0, expect, li a1, b1; fmv.d.x f0, a1; inst a0, f0, rtz;  \
            fsflags a3, x0; li t6, flags; bne a3, t6, fail)

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  TEST_FP_INT_OP_D(2, fcvt.w.d, FF_NX, -1, -1.1, rtz)
  TEST_FP_INT_OP_D(3, fcvt.w.d, 0, -1, -1.0, rtz)
  TEST_FP_INT_OP_D(4, fcvt.w.d, FF_NX, 0, -0.9, rtz)
  TEST_FP_INT_OP_D(5, fcvt.w.d, FF_NX, 0, 0.9, rtz)
  TEST_FP_INT_OP_D(6, fcvt.w.d, 0, 1, 1.0, rtz)
  TEST_FP_INT_OP_D(7, fcvt.w.d, FF_NX, 1, 1.1, rtz)
  TEST_FP_INT_OP_D(8, fcvt.w.d, FF_NV, 0xffffffff80000000, -3e9, rtz)
  TEST_FP_INT_OP_D(9, fcvt.w.d, FF_NV, 0x000000007fffffff, 3e9, rtz)
  TEST_FP_INT_OP_D(10, fcvt.wu.d, FF_NV, 0, -3.0, rtz)
  TEST_FP_INT_OP_D(11, fcvt.wu.d, FF_NX, 0, -0.9, rtz)
  TEST_FP_INT_OP_D(12, fcvt.wu.d, 0, 0xffffffffb2d05e00, 3e9, rtz)
  TEST_FP_INT_OP_D(13, fcvt.wu.d, FF_NV, 0xffffffffffffffff, 5e9, rtz)
  TEST_FP_INT_OP_D(14, fcvt.l.d, 0, -3000000000, -3e9, rtz)
  TEST_FP_INT_OP_D(15, fcvt.l.d, FF_NV, 0x8000000000000000, -1e20, rtz)
  TEST_FP_INT_OP_D(16, fcvt.l.d, FF_NV, 0x7fffffffffffffff, 1e20, rtz)
  TEST_FP_INT_OP_D(17, fcvt.lu.d, FF_NV, 0, -1.0, rtz)
  TEST_FP_INT_OP_D(18, fcvt.lu.d, 0, 0x8000000000000000, 9.223372036854775808e18, rtz)
  # NaN converts to the largest positive integer.
  TEST_FP_INT_RAW_D(19, fcvt.w.d, FF_NV, 0x000000007fffffff, 0x7ff8000000000000)
  TEST_FP_INT_RAW_D(20, fcvt.wu.d, FF_NV, 0xffffffffffffffff, 0xfff8000000000000)
  TEST_FP_INT_RAW_D(21, fcvt.l.d, FF_NV, 0x7fffffffffffffff, 0x7ff0000000000001)
  TEST_FP_INT_RAW_D(22, fcvt.lu.d, FF_NV, 0xffffffffffffffff, 0x7ff8000000000000)

  # The five static rounding modes on +-2.5 and 1.5.
  TEST_FP_INT_OP_D(30, fcvt.w.d, FF_NX, 2, 2.5, rne)
  TEST_FP_INT_OP_D(31, fcvt.w.d, FF_NX, 2, 2.5, rtz)
  TEST_FP_INT_OP_D(32, fcvt.w.d, FF_NX, 2, 2.5, rdn)
  TEST_FP_INT_OP_D(33, fcvt.w.d, FF_NX, 3, 2.5, rup)
  TEST_FP_INT_OP_D(34, fcvt.w.d, FF_NX, 3, 2.5, rmm)
  TEST_FP_INT_OP_D(35, fcvt.w.d, FF_NX, -2, -2.5, rne)
  TEST_FP_INT_OP_D(36, fcvt.w.d, FF_NX, -2, -2.5, rtz)
  TEST_FP_INT_OP_D(37, fcvt.w.d, FF_NX, -3, -2.5, rdn)
  TEST_FP_INT_OP_D(38, fcvt.w.d, FF_NX, -2, -2.5, rup)
  TEST_FP_INT_OP_D(39, fcvt.w.d, FF_NX, -3, -2.5, rmm)
  TEST_FP_INT_OP_D(40, fcvt.l.d, FF_NX, 2, 1.5, rne)
  TEST_FP_INT_OP_D(41, fcvt.l.d, FF_NX, 1, 1.5, rdn)
  # Dynamic: frm = rup, then rdn.
  TEST_CASE(42, a0, 3, fsrmi 3; li a1, 0x4004000000000000; fmv.d.x f0, a1; fcvt.w.d a0, f0, dyn; fsflags x0; fsrmi 0)
  TEST_CASE(43, a0, -3, fsrmi 2; li a1, 0xc004000000000000; fmv.d.x f0, a1; fcvt.w.d a0, f0, dyn; fsflags x0; fsrmi 0)

  # Integers to double.
  TEST_INT_FP_OP_D(50, fcvt.d.w, 2.0, 2)
  TEST_INT_FP_OP_D(51, fcvt.d.w, -2.0, -2)
  TEST_INT_FP_OP_D(52, fcvt.d.w, 2.0, 0x100000002)
  TEST_INT_FP_OP_D(53, fcvt.d.wu, 2147483648.0, 0x80000000)
  TEST_INT_FP_OP_D(54, fcvt.d.l, -2.0, -2)
  TEST_INT_FP_OP_D(55, fcvt.d.lu, 9.223372036854775808e18, 0x8000000000000000)
  # 2^53 + 1 is not a double: RNE gives 2^53, RUP 2^53 + 2.
  TEST_INT_FP_INEXACT_D(56, fcvt.d.l, rne, 0x4340000000000000, 0x20000000000001)
  TEST_INT_FP_INEXACT_D(57, fcvt.d.l, rup, 0x4340000000000001, 0x20000000000001)
  TEST_INT_FP_INEXACT_D(58, fcvt.d.lu, rne, 0x43f0000000000000, 0xffffffffffffffff)
  TEST_INT_FP_INEXACT_D(59, fcvt.d.lu, rtz, 0x43efffffffffffff, 0xffffffffffffffff)
  # Every 32-bit integer is a double: exact.
  TEST_INT_FP_OP_D(60, fcvt.d.wu, 4294967295.0, 0xffffffff)

  # Between single and double: narrowing rounds (NX), widening is exact,
  # NaNs become the canonical NaN (a signaling one raises NV).
  TEST_FPD_RAW(61, FF_NX, .dword 0x3ff19999a0000000, 1.1, 0.0, 0.0, fcvt.s.d f3, f0; fcvt.d.s f3, f3; fmv.x.d a0, f3)
  TEST_CASE(62, a0, 0xffffffff3fc00000, li a1, 0x3ff8000000000000; fmv.d.x f0, a1; fcvt.s.d f3, f0; fmv.x.d a0, f3)
  TEST_CASE(63, a0, 0x3ff8000000000000, li a1, 0xffffffff3fc00000; fmv.d.x f0, a1; fcvt.d.s f3, f0; fmv.x.d a0, f3)
  TEST_CASE(64, a0, 0x7ff8000000000000, li a1, 0xffffffff7f800001; fmv.d.x f0, a1; fcvt.d.s f3, f0; fmv.x.d a0, f3;
            fsflags a3, x0; li t6, FF_NV; bne a3, t6, fail)
  TEST_CASE(65, a0, 0xffffffff7fc00000, li a1, 0xfff8000000000000; fmv.d.x f0, a1; fcvt.s.d f3, f0; fmv.x.d a0, f3)
  TEST_CASE(66, a0, 0xffffffff7f800000, li a1, 0x47efffffffffffff; fmv.d.x f0, a1; fcvt.s.d f3, f0; fmv.x.d a0, f3;
            fsflags a3, x0; li t6, FF_OF | FF_NX; bne a3, t6, fail)

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
