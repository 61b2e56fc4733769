# traps.S - machine-mode traps: ecall, ebreak, illegal instruction, misaligned jump target, access faults; mepc/mcause/mtval, mstatus.MIE/MPIE and mret (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* `code` must trap once with cause `c`; the handler notes mepc/mtval in
   s2/s4 and resumes at the address in s5 (set by the test, 0: mepc + 4). */
#define TEST_TRAP(n, c, ...)                                            \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  li s1, 0;                                                             \
  li s3, -1;                                                            \
  __VA_ARGS__;                                                          \
  li t6, 1;                                                             \
  bne s1, t6, fail;                                                     \
  li t6, c;                                                             \
  bne s3, t6, fail;

RVTEST_RV64M
RVTEST_CODE_BEGIN
  li s5, 0
  # ecall from M-mode: cause 11, mepc = the ecall.
  TEST_TRAP(2, CAUSE_MACHINE_ECALL, li a7, 1; 1: ecall; la a1, 1b; bne s2, a1, fail)
  # ebreak: cause 3, mepc = the ebreak.
  TEST_TRAP(3, CAUSE_BREAKPOINT, 1: ebreak; la a1, 1b; bne s2, a1, fail)
  # An all-zero word is illegal; mtval holds the encoding (0).
  TEST_TRAP(4, CAUSE_ILLEGAL_INSTRUCTION, 1: .word 0; la a1, 1b; bne s2, a1, fail; bnez s4, fail)
  TEST_TRAP(5, CAUSE_ILLEGAL_INSTRUCTION, .word 0xffffffff; li a1, 0xffffffff; bne s4, a1, fail)
  # A jump to a target that is not 4-byte aligned (no C extension) traps
  # on the jump: cause 0, mepc = the jump, mtval = the target.
  TEST_TRAP(6, CAUSE_MISALIGNED_FETCH, la a1, 2f; addi a1, a1, 2; 1: jalr x0, 0(a1); 2: nop; nop;
            la a2, 1b; bne s2, a2, fail; bne s4, a1, fail)
  TEST_TRAP(7, CAUSE_MISALIGNED_FETCH, li a1, 1; 3: beq a1, a1, 4f + 2; nop; 4: nop;
            la a2, 3b; bne s2, a2, fail; addi a2, a2, 10; bne s4, a2, fail)
  # Loads and stores outside memory: access faults with the address in mtval.
  TEST_TRAP(8, CAUSE_LOAD_ACCESS, li a1, 0x10; ld a2, 0(a1); bne s4, a1, fail)
  TEST_TRAP(9, CAUSE_STORE_ACCESS, li a1, 0x20; sw a2, 0(a1); bne s4, a1, fail)
  # A trap saves MIE in MPIE and clears MIE; mret restores it.
  TEST_CASE(10, a0, 0, li a7, 1; csrsi mstatus, MSTATUS_MIE; ecall; csrr a0, mstatus; andi a0, a0, MSTATUS_MIE;
            beqz s6, fail; csrci mstatus, MSTATUS_MIE; xori a0, a0, MSTATUS_MIE)
  # mret jumps to mepc.
test_11:
  li TESTNUM, 11
  la a1, 1f
  csrw mepc, a1
  mret
  j fail
1:

  TEST_PASSFAIL

  # Count traps in s1; note mepc, mcause, mtval in s2-s4 and the
  # trap-time mstatus.MIE (0) / MPIE (1) pair in s6; resume after the
  # trapping instruction (a jump: at its fall-through).
  .globl mtvec_handler
mtvec_handler:
  addi s1, s1, 1
  csrr s2, mepc
  csrr s3, mcause
  csrr s4, mtval
  csrr t6, mstatus
  andi t5, t6, MSTATUS_MIE
  andi t6, t6, MSTATUS_MPIE
  seqz t5, t5
  snez t6, t6
  and s6, t5, t6
  addi t5, s2, 4
  csrw mepc, t5
  mret
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
