/* test_macros.h - test-case macros for the p-environment RISC-V unit tests (integer, memory, branch, FP). */
/*
 * Every case loads TESTNUM with its number first, so a failing case ends
 * the run with fail code = its number. Results are compared in t6 (x31),
 * so test code must not use t6. Operands go in a1, a2 (a3 for a third),
 * results in a4. FP cases keep their operands in a per-case data block and
 * compare the result bits and the accrued fflags (read and cleared).
 */
#ifndef OPFORGE_TEST_MACROS_H
#define OPFORGE_TEST_MACROS_H

#define SEXT_IMM(x) ((x) | (-(((x) >> 11) & 1) << 11))

#define TEST_CASE(n, reg, expect, ...)                                  \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  __VA_ARGS__;                                                          \
  li t6, expect;                                                        \
  bne reg, t6, fail;

/* ---- register-immediate ---- */
#define TEST_IMM_OP(n, inst, expect, v1, imm)                           \
  TEST_CASE(n, a4, expect, li a1, v1; inst a4, a1, SEXT_IMM(imm))
#define TEST_IMM_SRC1_EQ_DEST(n, inst, expect, v1, imm)                 \
  TEST_CASE(n, a1, expect, li a1, v1; inst a1, a1, SEXT_IMM(imm))
#define TEST_IMM_ZEROSRC1(n, inst, expect, imm)                         \
  TEST_CASE(n, a1, expect, inst a1, x0, SEXT_IMM(imm))
#define TEST_IMM_ZERODEST(n, inst, v1, imm)                             \
  TEST_CASE(n, x0, 0, li a1, v1; inst x0, a1, SEXT_IMM(imm))

/* ---- register-register ---- */
#define TEST_RR_OP(n, inst, expect, v1, v2)                             \
  TEST_CASE(n, a4, expect, li a1, v1; li a2, v2; inst a4, a1, a2)
#define TEST_RR_SRC1_EQ_DEST(n, inst, expect, v1, v2)                   \
  TEST_CASE(n, a1, expect, li a1, v1; li a2, v2; inst a1, a1, a2)
#define TEST_RR_SRC2_EQ_DEST(n, inst, expect, v1, v2)                   \
  TEST_CASE(n, a2, expect, li a1, v1; li a2, v2; inst a2, a1, a2)
#define TEST_RR_SRC12_EQ_DEST(n, inst, expect, v1)                      \
  TEST_CASE(n, a1, expect, li a1, v1; inst a1, a1, a1)
#define TEST_RR_ZEROSRC1(n, inst, expect, v2)                           \
  TEST_CASE(n, a2, expect, li a1, v2; inst a2, x0, a1)
#define TEST_RR_ZEROSRC2(n, inst, expect, v1)                           \
  TEST_CASE(n, a2, expect, li a1, v1; inst a2, a1, x0)
#define TEST_RR_ZERODEST(n, inst, v1, v2)                               \
  TEST_CASE(n, x0, 0, li a1, v1; li a2, v2; inst x0, a1, a2)

/* ---- loads and stores ---- */
#define TEST_LD_OP(n, inst, expect, offset, base)                       \
  TEST_CASE(n, a4, expect, la a1, base; inst a4, offset(a1))
#define TEST_ST_OP(n, ld_inst, st_inst, expect, offset, base)           \
  TEST_CASE(n, a4, expect, la a1, base; li a2, expect;                  \
            st_inst a2, offset(a1); ld_inst a4, offset(a1))

/* ---- branches: the taken case must reach the target both ways ---- */
#define TEST_BR2_OP_TAKEN(n, inst, v1, v2)                              \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  li a1, v1;                                                            \
  li a2, v2;                                                            \
  inst a1, a2, 2f;                                                      \
  j fail;                                                               \
1:                                                                      \
  j 3f;                                                                 \
2:                                                                      \
  inst a1, a2, 1b;                                                      \
  j fail;                                                               \
3:

#define TEST_BR2_OP_NOTTAKEN(n, inst, v1, v2)                           \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  li a1, v1;                                                            \
  li a2, v2;                                                            \
  inst a1, a2, 1f;                                                      \
  j 2f;                                                                 \
1:                                                                      \
  j fail;                                                               \
2:                                                                      \
  inst a1, a2, 1b;

/* ---- floating point: operands and expected bits in a data block ---- */
#define TEST_FP_OP1_S(n, inst, flags, expect, v1)                       \
  TEST_FPS_BITS(n, flags, expect, v1, 0.0, 0.0, inst f3, f0; fmv.x.s a0, f3)
#define TEST_FP_OP2_S(n, inst, flags, expect, v1, v2)                   \
  TEST_FPS_BITS(n, flags, expect, v1, v2, 0.0, inst f3, f0, f1; fmv.x.s a0, f3)
#define TEST_FP_OP2_S_RM(n, inst, rm, flags, expect, v1, v2)            \
  TEST_FPS_BITS(n, flags, expect, v1, v2, 0.0, inst f3, f0, f1, rm; fmv.x.s a0, f3)
#define TEST_FP_OP3_S(n, inst, flags, expect, v1, v2, v3)               \
  TEST_FPS_BITS(n, flags, expect, v1, v2, v3, inst f3, f0, f1, f2; fmv.x.s a0, f3)
#define TEST_FP_CMP_OP_S(n, inst, flags, expect, v1, v2)                \
  TEST_FPS_INT(n, flags, expect, v1, v2, 0.0, inst a0, f0, f1)
#define TEST_FP_INT_OP_S(n, inst, flags, expect, v1, rm)                \
  TEST_FPS_INT(n, flags, expect, v1, 0.0, 0.0, inst a0, f0, rm)
#define TEST_INT_FP_OP_S(n, inst, expect, v1)                           \
  TEST_FPS_BITS(n, 0, expect, 0.0, 0.0, 0.0, li a4, v1; inst f3, a4; fmv.x.s a0, f3)

/* One FP case: operands v1..v3 (directive vdir, `size` bytes each, loaded
   with fload into f0..f2), the expected value (directive edir, at offset
   eoff, loaded with eload into a3); `code` leaves its result in a0. */
#define TEST_FP_GEN(n, flags, fload, size, vdir, eload, eoff, edir, v1, v2, v3, ...) \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  la a0, test_##n##_data;                                               \
  fload f0, 0(a0);                                                      \
  fload f1, size(a0);                                                   \
  fload f2, 2 * size(a0);                                               \
  eload a3, eoff(a0);                                                   \
  __VA_ARGS__;                                                          \
  fsflags a1, x0;                                                       \
  li a2, flags;                                                         \
  bne a0, a3, fail;                                                     \
  bne a1, a2, fail;                                                     \
  .pushsection .data;                                                   \
  .align 3;                                                             \
test_##n##_data:                                                        \
  vdir v1, v2, v3;                                                      \
  .align 3;                                                             \
  edir;                                                                 \
  .popsection

/* Single operands (.float). The expected result: a float literal compared
   as sign-extended bits (TEST_FPS_BITS), any data directive for the
   expected word (TEST_FPS_RAW: `.word 0x7fc00000`), or an integer
   (TEST_FPS_INT: compares, conversions to integer, classify). */
#define TEST_FPS_BITS(n, flags, expect, v1, v2, v3, ...)                \
  TEST_FPS_RAW(n, flags, .float expect, v1, v2, v3, __VA_ARGS__)
#define TEST_FPS_RAW(n, flags, edir, v1, v2, v3, ...)                   \
  TEST_FP_GEN(n, flags, flw, 4, .float, lw, 16, edir, v1, v2, v3, __VA_ARGS__)
#define TEST_FPS_INT(n, flags, expect, v1, v2, v3, ...)                 \
  TEST_FP_GEN(n, flags, flw, 4, .float, ld, 16, .dword expect, v1, v2, v3, __VA_ARGS__)

/* Double operands (.double), likewise. */
#define TEST_FPD_BITS(n, flags, expect, v1, v2, v3, ...)                \
  TEST_FPD_RAW(n, flags, .double expect, v1, v2, v3, __VA_ARGS__)
#define TEST_FPD_RAW(n, flags, edir, v1, v2, v3, ...)                   \
  TEST_FP_GEN(n, flags, fld, 8, .double, ld, 24, edir, v1, v2, v3, __VA_ARGS__)
#define TEST_FPD_INT(n, flags, expect, v1, v2, v3, ...)                 \
  TEST_FP_GEN(n, flags, fld, 8, .double, ld, 24, .dword expect, v1, v2, v3, __VA_ARGS__)

#define TEST_FP_OP1_D(n, inst, flags, expect, v1)                       \
  TEST_FPD_BITS(n, flags, expect, v1, 0.0, 0.0, inst f3, f0; fmv.x.d a0, f3)
#define TEST_FP_OP2_D(n, inst, flags, expect, v1, v2)                   \
  TEST_FPD_BITS(n, flags, expect, v1, v2, 0.0, inst f3, f0, f1; fmv.x.d a0, f3)
#define TEST_FP_OP2_D_RM(n, inst, rm, flags, expect, v1, v2)            \
  TEST_FPD_BITS(n, flags, expect, v1, v2, 0.0, inst f3, f0, f1, rm; fmv.x.d a0, f3)
#define TEST_FP_OP3_D(n, inst, flags, expect, v1, v2, v3)               \
  TEST_FPD_BITS(n, flags, expect, v1, v2, v3, inst f3, f0, f1, f2; fmv.x.d a0, f3)
#define TEST_FP_CMP_OP_D(n, inst, flags, expect, v1, v2)                \
  TEST_FPD_INT(n, flags, expect, v1, v2, 0.0, inst a0, f0, f1)
#define TEST_FP_INT_OP_D(n, inst, flags, expect, v1, rm)                \
  TEST_FPD_INT(n, flags, expect, v1, 0.0, 0.0, inst a0, f0, rm)
#define TEST_INT_FP_OP_D(n, inst, expect, v1)                           \
  TEST_FPD_BITS(n, 0, expect, 0.0, 0.0, 0.0, li a4, v1; inst f3, a4; fmv.x.d a0, f3)

/* Results that are the canonical NaN. */
#define TEST_FP_OP2_S_CNAN(n, inst, flags, v1, v2)                      \
  TEST_FPS_RAW(n, flags, .word 0x7fc00000, v1, v2, 0.0, inst f3, f0, f1; fmv.x.s a0, f3)
#define TEST_FP_OP2_D_CNAN(n, inst, flags, v1, v2)                      \
  TEST_FPD_RAW(n, flags, .dword 0x7ff8000000000000, v1, v2, 0.0, inst f3, f0, f1; fmv.x.d a0, f3)

/* fflags bits. */
#define FF_NX 1
#define FF_UF 2
#define FF_OF 4
#define FF_DZ 8
#define FF_NV 16

/* ---- end of test: branch here on success, `fail` on a mismatch ---- */
#define TEST_PASSFAIL                                                   \
  bne x0, TESTNUM, pass;                                                \
fail:                                                                   \
  RVTEST_FAIL;                                                          \
pass:                                                                   \
  RVTEST_PASS

#endif
