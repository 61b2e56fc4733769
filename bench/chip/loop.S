# loop.S - a scalar loop for simulation speed: args+0 iterations of 8
# integer instructions on registers, then xmtia.done.
.globl _start
_start:
  ld s1, 0(a0)
  li t0, 1
  li t1, 2
1:
  add t2, t0, t1
  xor t0, t2, t1
  addi t1, t1, 3
  slli t3, t0, 1
  or t2, t3, t0
  sub t0, t2, t1
  addi s1, s1, -1
  bnez s1, 1b
  .insn i 0x0B, 0, x0, x0, 0
