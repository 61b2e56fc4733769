# csr.S - machine-mode CSRs: read/write/set/clear forms, misa, mhartid, mie/mip, counters and hpmcounters; writes to read-only or unimplemented CSRs trap as illegal (p environment).
#include "riscv_test.h"
#include "test_macros.h"

/* The instruction in `code` must raise an illegal-instruction trap: s1 counts them. */
#define TEST_ILLEGAL(n, ...)                                            \
test_##n:                                                               \
  li TESTNUM, n;                                                        \
  li s1, 0;                                                             \
  __VA_ARGS__;                                                          \
  li t6, 1;                                                             \
  bne s1, t6, fail;

RVTEST_RV64M
RVTEST_CODE_BEGIN
  TEST_CASE(2, a0, 0x1234, li a1, 0x1234; csrw mscratch, a1; csrr a0, mscratch)
  TEST_CASE(3, a0, 0x1234, li a1, 0x5678; csrrw a0, mscratch, a1)
  TEST_CASE(4, a0, 0x5678, csrrs a0, mscratch, x0)
  TEST_CASE(5, a0, 0x567f, li a1, 0xf; csrrs x0, mscratch, a1; csrr a0, mscratch)
  TEST_CASE(6, a0, 0x4270, li a1, 0x150f; csrrc x0, mscratch, a1; csrr a0, mscratch)
  TEST_CASE(7, a0, 0x427f, csrrsi x0, mscratch, 0xf; csrr a0, mscratch)
  TEST_CASE(8, a0, 0x4260, csrrci x0, mscratch, 0x1f; csrr a0, mscratch)
  TEST_CASE(9, a0, 0x1f, csrrwi x0, mscratch, 0x1f; csrr a0, mscratch)

  # misa: MXL = 2 (RV64) and the I, M, A, F, D, V extension bits.
  TEST_CASE(10, a0, 2, csrr a0, misa; srli a0, a0, 62)
  TEST_CASE(11, a0, (1 << 8) | (1 << 12) | (1 << 0) | (1 << 5) | (1 << 3) | (1 << 21),
            csrr a0, misa; li a1, (1 << 8) | (1 << 12) | (1 << 0) | (1 << 5) | (1 << 3) | (1 << 21);
            and a0, a0, a1)
  TEST_CASE(12, a0, 0, csrr a0, mhartid)
  # mie keeps only the machine software/timer/external enables; mip reads 0.
  TEST_CASE(13, a0, 0x888, li a1, -1; csrw mie, a1; csrr a0, mie; csrw mie, x0)
  TEST_CASE(14, a0, 0, li a1, -1; csrw mip, a1; csrr a0, mip)
  # mtvec and mepc hold aligned addresses.
  TEST_CASE(15, a0, 0, csrr a1, mepc; andi a0, a1, 3)

  # Counters advance: instret by the instructions between two reads.
  TEST_CASE(20, a0, 3, csrr a1, minstret; nop; nop; csrr a2, minstret; sub a0, a2, a1)
  TEST_CASE(21, a0, 3, csrr a1, instret; addi a3, a3, 1; addi a3, a3, 1; csrr a2, instret; sub a0, a2, a1)
  TEST_CASE(22, a0, 1, csrr a1, cycle; nop; nop; csrr a2, cycle; sltu a0, a1, a2)
  TEST_CASE(23, a0, 1, rdtime a1; nop; rdtime a2; sltu a0, a1, a2)
  # minstret is writable: the next instruction reads the written value.
  TEST_CASE(24, a0, 1000, li a1, 1000; csrw minstret, a1; csrr a0, minstret)
  # hpmcounters read (0 without a performance model); mhpmevents accept writes.
  TEST_CASE(25, a0, 0, csrr a0, hpmcounter3)
  TEST_CASE(26, a0, 0, csrr a0, mhpmcounter31)
  TEST_CASE(27, a0, 0, li a1, 5; csrw mhpmevent3, a1; csrr a0, mhpmevent3)

  # Writing a read-only CSR, or touching one that does not exist, is illegal.
  TEST_ILLEGAL(30, li a1, 1; csrw mhartid, a1)
  TEST_ILLEGAL(31, csrw cycle, x0)
  TEST_ILLEGAL(32, csrrsi x0, instret, 1)
  TEST_ILLEGAL(33, csrr a0, 0x7c0)
  TEST_ILLEGAL(34, li a1, 1; csrw 0x5c0, a1)
  # Reading a read-only CSR with csrrs x0 does not write: legal.
  TEST_CASE(35, s1, 0, li s1, 0; csrrs a0, mhartid, x0)
  # The trap records cause 2, the faulting pc in mepc and the encoding in mtval.
test_36:
  li TESTNUM, 36
  li s1, 0
1:
  csrw mvendorid, x0
  la a1, 1b
  bne s2, a1, fail
  li a2, 2
  bne s3, a2, fail
  lw a3, 0(a1)
  slli a3, a3, 32
  srli a3, a3, 32
  bne s4, a3, fail

  TEST_PASSFAIL

  # Count illegal instructions in s1, note mepc/mcause/mtval in s2-s4, skip.
  .globl mtvec_handler
mtvec_handler:
  li t6, CAUSE_ILLEGAL_INSTRUCTION
  bne t5, t6, other_exception
  addi s1, s1, 1
  csrr s2, mepc
  csrr s3, mcause
  csrr s4, mtval
  addi t5, s2, 4
  csrw mepc, t5
  mret
RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
RVTEST_DATA_END
