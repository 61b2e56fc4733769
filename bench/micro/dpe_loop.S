# dpe_loop.S - issue the DPE descriptor at args+8 (copied to local memory)
# args+0 times back to back, then wait: the DPE's sustained rate. When
# args+72 is not 0, the instance stores the time CSR before its first command
# and after its wait at args+72 + 16 * pid (the benchmark times the commands
# without the program's start).
.include "xmtia.inc"
.globl _start
_start:
  ld s1, 0(a0)
  ld s2, 72(a0)
  csrr t0, CSR_PID_X
  slli t0, t0, 4
  add s3, s2, t0
  addi sp, sp, -64
  mv s0, sp
  li t0, 0
1:                          # copy the 56-byte descriptor to local memory
  add t1, a0, t0
  ld t2, 8(t1)
  add t1, s0, t0
  sd t2, 0(t1)
  addi t0, t0, 8
  li t3, 56
  blt t0, t3, 1b
  rdtime s4
2:
  xmtia_dpe s0
  addi s1, s1, -1
  bnez s1, 2b
  xmtia_dpewait
  rdtime s5
  beqz s2, 9f
  sd s4, 0(s3)
  sd s5, 8(s3)
9:
  xmtia_done
