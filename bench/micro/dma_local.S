# dma_local.S - DMA inside the PE's own local memory: args+24 back-to-back
# commands of args+16 bytes from args+0 to args+8 (local addresses), then one
# wait. The engines pick up commands as they free (DMA and local-memory
# bandwidth benchmarks).
.include "xmtia.inc"
.globl _start
_start:
  ld a1, 0(a0)
  ld a2, 8(a0)
  ld a3, 16(a0)
  ld a4, 24(a0)
  addi sp, sp, -64
  sd a1, 0(sp)
  sd a2, 8(sp)
  sd a3, 16(sp)
  li t0, 1
  sd t0, 24(sp)
  sd x0, 32(sp)
  sd x0, 40(sp)
1:
  beqz a4, 9f
  xmtia_dma sp, x0
  addi a4, a4, -1
  j 1b
9:
  xmtia_dmawait x0
  xmtia_done
