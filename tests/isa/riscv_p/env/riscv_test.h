/* riscv_test.h - the "p" test environment for RISC-V unit tests: machine mode, physical memory, one hart, HTIF tohost verdict. */
/*
 * A test is one assembly file:
 *
 *   #include "riscv_test.h"
 *   #include "test_macros.h"
 *   RVTEST_RV64U
 *   RVTEST_CODE_BEGIN
 *     TEST_RR_OP(2, add, 3, 1, 2)
 *     TEST_PASSFAIL
 *   RVTEST_CODE_END
 *   RVTEST_DATA_BEGIN
 *     ...
 *   RVTEST_DATA_END
 *
 * The environment starts at _start (0x80000000), clears the integer
 * registers, installs trap_vector in mtvec, turns on the FP and vector
 * units, and enters the test with mret (the ISS implements machine mode
 * only, so the test runs in M-mode). RVTEST_PASS / RVTEST_FAIL end the
 * test with an ecall; the trap vector then writes TESTNUM to `tohost`
 * (1 = pass, (n << 1) | 1 = test n failed). Any other trap is a failure
 * with code 1337, unless the test defines `mtvec_handler`, which then
 * receives every trap but the ending ecall (with t5 = mcause).
 */
#ifndef OPFORGE_RISCV_TEST_H
#define OPFORGE_RISCV_TEST_H

#define TESTNUM gp

#define MSTATUS_MIE (1 << 3)
#define MSTATUS_MPIE (1 << 7)
#define MSTATUS_FS (3 << 13)
#define MSTATUS_VS (3 << 9)
#define MSTATUS_MPP (3 << 11)

#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT 3
#define CAUSE_MISALIGNED_LOAD 4
#define CAUSE_LOAD_ACCESS 5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_MACHINE_ECALL 11

/* Extension set of the test (kept for the riscv-tests spelling). */
#define RVTEST_RV64U
#define RVTEST_RV64UF
#define RVTEST_RV64M

#define RVTEST_CODE_BEGIN                                              \
  .section .text.init, "ax", @progbits;                                \
  .align 6;                                                            \
  .globl _start;                                                       \
_start:                                                                \
  j reset_vector;                                                      \
  .align 2;                                                            \
trap_vector:                                                           \
  csrr t5, mcause;                                                     \
  li t6, CAUSE_MACHINE_ECALL;                                          \
  bne t5, t6, 1f;                                                      \
  li t6, 93;                                                           \
  beq a7, t6, write_tohost;                                            \
1:                                                                     \
  ld t6, rvtest_handler_ptr;                                           \
  beqz t6, other_exception;                                            \
  jr t6;                                                               \
other_exception:                                                       \
  li TESTNUM, 1337;                                                    \
  slli TESTNUM, TESTNUM, 1;                                            \
  ori TESTNUM, TESTNUM, 1;                                             \
write_tohost:                                                          \
  sd TESTNUM, tohost, t5;                                              \
  j write_tohost;                                                      \
reset_vector:                                                          \
  RVTEST_CLEAR_XREGS;                                                  \
  la t0, trap_vector;                                                  \
  csrw mtvec, t0;                                                      \
  csrwi mie, 0;                                                        \
  li t0, MSTATUS_FS | MSTATUS_VS;                                      \
  csrs mstatus, t0;                                                    \
  csrwi fcsr, 0;                                                       \
  li t0, MSTATUS_MPP;                                                  \
  csrs mstatus, t0;                                                    \
  la t0, rvtest_entry;                                                 \
  csrw mepc, t0;                                                       \
  mret;                                                                \
rvtest_entry:

#define RVTEST_CLEAR_XREGS                                             \
  li x1, 0; li x2, 0; li x3, 0; li x4, 0; li x5, 0; li x6, 0;          \
  li x7, 0; li x8, 0; li x9, 0; li x10, 0; li x11, 0; li x12, 0;       \
  li x13, 0; li x14, 0; li x15, 0; li x16, 0; li x17, 0; li x18, 0;    \
  li x19, 0; li x20, 0; li x21, 0; li x22, 0; li x23, 0; li x24, 0;    \
  li x25, 0; li x26, 0; li x27, 0; li x28, 0; li x29, 0; li x30, 0;    \
  li x31, 0

#define RVTEST_CODE_END                                                \
  unimp

/* End the test: pass, or fail with the current TESTNUM as the fail code. */
#define RVTEST_PASS                                                    \
  fence;                                                               \
  li TESTNUM, 1;                                                       \
  li a7, 93;                                                           \
  li a0, 0;                                                            \
  ecall

#define RVTEST_FAIL                                                    \
  fence;                                                               \
1:                                                                     \
  beqz TESTNUM, 1b;                                                    \
  slli TESTNUM, TESTNUM, 1;                                            \
  ori TESTNUM, TESTNUM, 1;                                             \
  li a7, 93;                                                           \
  mv a0, TESTNUM;                                                      \
  ecall

#define RVTEST_DATA_BEGIN                                              \
  .pushsection .tohost, "aw", @progbits;                               \
  .align 6;                                                            \
  .globl tohost;                                                       \
tohost:                                                                \
  .dword 0;                                                            \
  .align 6;                                                            \
  .globl fromhost;                                                     \
fromhost:                                                              \
  .dword 0;                                                            \
  .popsection;                                                         \
  .pushsection .data.rvtest, "aw", @progbits;                          \
  .align 3;                                                            \
  .weak mtvec_handler;                                                 \
rvtest_handler_ptr:                                                    \
  .dword mtvec_handler;                                                \
  .popsection;                                                         \
  .align 4;                                                            \
  .globl begin_signature;                                              \
begin_signature:

#define RVTEST_DATA_END                                                \
  .align 4;                                                            \
  .globl end_signature;                                                \
end_signature:

#endif
