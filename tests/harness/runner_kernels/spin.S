# spin.S - test kernel for the sweep runner: loops args+0 times, then ends.
.globl _start
_start:
  ld t0, 0(a0)
1:
  addi t0, t0, -1
  bgtz t0, 1b
  .insn i 0x0B, 0, x0, x0, 0   # xmtia end-of-program
