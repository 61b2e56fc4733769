# rounding.S - fadd.s in every static rounding mode and through frm (dyn); fcsr/frm/fflags as CSRs; reserved rounding modes trap (p environment).
#include "riscv_test.h"
#include "test_macros.h"

#define ONE 0x3f800000
#define ONE_ULP 0x3f800001   /* 1 + 2^-23 */
#define HALF_ULP 0x33800000  /* 2^-24: 1 + 2^-24 is a tie */

/* fadd.s of raw bits with rounding mode rm (may be dyn): result and NX. */
#define TEST_FADD_RM(n, rm, expect, b1, b2)                             \
  TEST_CASE(n, a0, expect, li a1, b1; li a2, b2; fmv.w.x f0, a1;        \
            fmv.w.x f1, a2; fadd.s f3, f0, f1, rm; fmv.x.w a0, f3;      \
            fsflags a3, x0; li t6, FF_NX; bne a3, t6, fail)

RVTEST_RV64UF
RVTEST_CODE_BEGIN
  # 1 + 2^-24: ties-to-even and the directed modes.
  TEST_FADD_RM(2, rne, ONE, ONE, HALF_ULP)
  TEST_FADD_RM(3, rtz, ONE, ONE, HALF_ULP)
  TEST_FADD_RM(4, rdn, ONE, ONE, HALF_ULP)
  TEST_FADD_RM(5, rup, ONE_ULP, ONE, HALF_ULP)
  TEST_FADD_RM(6, rmm, ONE_ULP, ONE, HALF_ULP)
  # -(1 + 2^-24).
  TEST_FADD_RM(7, rne, 0xffffffffbf800000, 0xbf800000, 0xb3800000)
  TEST_FADD_RM(8, rtz, 0xffffffffbf800000, 0xbf800000, 0xb3800000)
  TEST_FADD_RM(9, rdn, 0xffffffffbf800001, 0xbf800000, 0xb3800000)
  TEST_FADD_RM(10, rup, 0xffffffffbf800000, 0xbf800000, 0xb3800000)
  TEST_FADD_RM(11, rmm, 0xffffffffbf800001, 0xbf800000, 0xb3800000)
  # (1 + 2^-23) + 2^-24 is a tie with an odd neighbour: RNE rounds up.
  TEST_FADD_RM(12, rne, 0x3f800002, ONE_ULP, HALF_ULP)
  # Overflow: RNE and RUP give infinity, RTZ and RDN the largest finite.
  TEST_CASE(13, a0, 0x7f7fffff, li a1, 0x7f7fffff; fmv.w.x f0, a1; fadd.s f3, f0, f0, rtz;
            fmv.x.w a0, f3; fsflags a3, x0; li t6, FF_OF | FF_NX; bne a3, t6, fail)
  TEST_CASE(14, a0, 0x7f800000, li a1, 0x7f7fffff; fmv.w.x f0, a1; fadd.s f3, f0, f0, rne;
            fmv.x.w a0, f3; fsflags a3, x0; li t6, FF_OF | FF_NX; bne a3, t6, fail)

  # Dynamic rounding: the mode comes from frm.
  TEST_CASE(20, a0, ONE_ULP, fsrmi 3; li a1, ONE; li a2, HALF_ULP; fmv.w.x f0, a1; fmv.w.x f1, a2;
            fadd.s f3, f0, f1, dyn; fmv.x.w a0, f3; fsflags x0)
  TEST_CASE(21, a0, ONE, fsrmi 1; fadd.s f3, f0, f1, dyn; fmv.x.w a0, f3; fsflags x0)
  TEST_CASE(22, a0, ONE_ULP, fsrmi 4; fadd.s f3, f0, f1, dyn; fmv.x.w a0, f3; fsflags x0; fsrmi 0)

  # fcsr = frm << 5 | fflags; flags accrue until cleared.
  TEST_CASE(30, a0, 0x68, fsrmi 3; li a1, ONE; fmv.w.x f0, a1; fmv.w.x f1, x0;
            fdiv.s f3, f0, f1; fsflags x0; fdiv.s f3, f0, f1; fdiv.s f3, f0, f1; frcsr a0)
  TEST_CASE(31, a0, 0x8, frflags a0)
  TEST_CASE(32, a0, 3, frrm a0)
  TEST_CASE(33, a0, 0xff, li a1, 0x3ff; fscsr a1; frcsr a0)
  TEST_CASE(34, a0, 0x1f, frflags a0)
  TEST_CASE(35, a0, 7, frrm a0; fscsr x0)

  # A reserved rounding mode is an illegal instruction: static rm = 5 in
  # the encoding, and dyn with frm = 5.
test_40:
  li TESTNUM, 40
  li s1, 0
  .word 0x001051d3    /* fadd.s f3, f0, f1 with rm = 5 */
  li t6, 1
  bne s1, t6, fail
test_41:
  li TESTNUM, 41
  li s1, 0
  fsrmi 5
  fadd.s f3, f0, f1, dyn
  fsrmi 0
  li t6, 1
  bne s1, t6, fail

  TEST_PASSFAIL

  # Trap handler: count illegal instructions in s1 and skip them.
  .globl mtvec_handler
mtvec_handler:
  li t6, CAUSE_ILLEGAL_INSTRUCTION
  bne t5, t6, other_exception
  addi s1, s1, 1
  csrr t5, mepc
  addi t5, t5, 4
  csrw mepc, t5
  mret
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
