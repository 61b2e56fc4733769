# dma_local.S - DMA inside the PE's own local memory: args+24 back-to-back
# commands of args+16 bytes from args+0 to args+8 (local addresses), then one
# wait. The engines pick up commands as they free (DMA and local-memory
# bandwidth benchmarks). When args+32 is not 0, the instance stores the time
# CSR before its first command and after its wait at args+32 + 16 * pid, so
# the benchmark times the transfers without the program's start (argument
# loads and first instruction fetches from DRAM).
.include "xmtia.inc"
.globl _start
_start:
  csrr t1, CSR_PID_X
  ld a1, 0(a0)
  ld a2, 8(a0)
  ld a3, 16(a0)
  ld a4, 24(a0)
  ld a5, 32(a0)
  slli t1, t1, 4
  add a5, a5, t1
  addi sp, sp, -64
  sd a1, 0(sp)
  sd a2, 8(sp)
  sd a3, 16(sp)
  li t0, 1
  sd t0, 24(sp)
  sd x0, 32(sp)
  sd x0, 40(sp)
  rdtime s2
1:
  beqz a4, 9f
  xmtia_dma sp, x0
  addi a4, a4, -1
  j 1b
9:
  xmtia_dmawait x0
  rdtime s3
  beq a5, t1, 8f              # no timestamp buffer (args+32 was 0)
  sd s2, 0(a5)
  sd s3, 8(a5)
8:
  xmtia_done
