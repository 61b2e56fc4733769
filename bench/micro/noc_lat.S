# noc_lat.S - NoC latency: program instance 0 times args+8 dependent 8-byte
# loads from each of args+0 target addresses (args+24...), other PEs' local
# memories at growing hop counts; out[i] (args+16) = cycles for target i.
# The targets hold 0, so each load's address depends on the previous load.
.include "xmtia.inc"
.globl _start
_start:
  csrr t0, CSR_PID_X
  bnez t0, 9f
  ld s0, 0(a0)
  ld s1, 8(a0)
  ld s2, 16(a0)
  addi s3, a0, 24
1:
  beqz s0, 9f
  ld a3, 0(s3)
  mv t2, s1
  rdcycle t4
2:
  ld t1, 0(a3)
  add a3, a3, t1
  addi t2, t2, -1
  bnez t2, 2b
  rdcycle t5
  sub t5, t5, t4
  sd t5, 0(s2)
  addi s2, s2, 8
  addi s3, s3, 8
  addi s0, s0, -1
  j 1b
9:
  xmtia_done
