# ifetch_stride.S - a loop over five one-line blocks placed 8 KiB apart: with
# a 32 KiB 4-way cache of 64-byte lines (128 sets) they all map to set 0, so
# LRU evicts each block before it runs again; with 8 ways all stay resident.
# args: +0 iterations (u64, >= 1).
.include "xmtia.inc"
.globl _start
_start:
  ld t0, 0(a0)
  j b0
.balign 8192
b0:
  addi t2, t2, 1
  j b1
.balign 8192
b1:
  addi t2, t2, 1
  j b2
.balign 8192
b2:
  addi t2, t2, 1
  j b3
.balign 8192
b3:
  addi t2, t2, 1
  j b4
.balign 8192
b4:
  addi t0, t0, -1
  bnez t0, b0
  xmtia_done
