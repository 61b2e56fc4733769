# load.S - lb, lbu, lh, lhu, lw, lwu, ld: sign/zero extension and offsets either side of the base (p environment).
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN
  TEST_LD_OP(2, lb, 0xffffffffffffffff, 0, tdat)
  TEST_LD_OP(3, lb, 0x0000000000000000, 1, tdat)
  TEST_LD_OP(4, lb, 0xfffffffffffffff0, 2, tdat)
  TEST_LD_OP(5, lb, 0x000000000000000f, 3, tdat)
  TEST_LD_OP(6, lbu, 0x00000000000000ff, 0, tdat)
  TEST_LD_OP(7, lbu, 0x00000000000000f0, 2, tdat)
  TEST_LD_OP(8, lh, 0x00000000000000ff, 0, tdat_h)
  TEST_LD_OP(9, lh, 0xffffffffffffff00, 2, tdat_h)
  TEST_LD_OP(10, lh, 0x0000000000000ff0, 4, tdat_h)
  TEST_LD_OP(11, lh, 0xfffffffffffff00f, 6, tdat_h)
  TEST_LD_OP(12, lhu, 0x000000000000ff00, 2, tdat_h)
  TEST_LD_OP(13, lhu, 0x000000000000f00f, 6, tdat_h)
  TEST_LD_OP(14, lw, 0x0000000000ff00ff, 0, tdat_w)
  TEST_LD_OP(15, lw, 0xffffffffff00ff00, 4, tdat_w)
  TEST_LD_OP(16, lwu, 0x00000000ff00ff00, 4, tdat_w)
  TEST_LD_OP(17, lwu, 0x00000000f00ff00f, 12, tdat_w)
  TEST_LD_OP(18, ld, 0x00ff00ff00ff00ff, 0, tdat_d)
  TEST_LD_OP(19, ld, 0xff00ff00ff00ff00, 8, tdat_d)
  TEST_LD_OP(20, ld, 0xf00ff00ff00ff00f, 24, tdat_d)
  # Negative offsets from a base past the data.
  TEST_LD_OP(21, ld, 0x00ff00ff00ff00ff, -24, tdat_d + 24)
  TEST_LD_OP(22, lw, 0xfffffffff00ff00f, -4, tdat_w + 16)
  TEST_LD_OP(23, lbu, 0x000000000000000f, -1, tdat + 4)
  # A load into x0 is discarded.
  TEST_CASE(24, x0, 0, la a1, tdat_d; ld x0, 0(a1))

  TEST_PASSFAIL
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
tdat:
  .byte 0xff, 0x00, 0xf0, 0x0f
  .align 3
tdat_h:
  .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
  .align 3
tdat_w:
  .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
  .align 3
tdat_d:
  .dword 0x00ff00ff00ff00ff, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xf00ff00ff00ff00f
RVTEST_DATA_END
