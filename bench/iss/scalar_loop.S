# scalar_loop.S - integer ALU/branch loop (9 instructions per iteration),
# a Linux user-mode program (exit via ecall 93) so qemu-riscv64 runs it too.
  .globl _start
_start:
  li t0, 40000000
  li a1, 1
  li a2, 2
  li a4, 0
1:
  addi a1, a1, 3
  xor a2, a2, a1
  slli a3, a2, 1
  add a4, a4, a3
  sub a5, a4, a1
  andi a6, a5, 0xff
  or a2, a2, a6
  addi t0, t0, -1
  bnez t0, 1b
  andi a0, a4, 0
  li a7, 93
  ecall
