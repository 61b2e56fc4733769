# cmdlist.S - run a list of Xmtia commands from the argument block.
# args: +0 count (u64), then count entries of 80 bytes:
#   +0 kind (0 dma, 1 dmawait, 2 dpe, 3 dpewait), +8 tag, +16 descriptor (64 bytes)
# The descriptors are read by the DMA/DPE instructions from the argument block.
.include "xmtia.inc"
.globl _start
_start:
  ld s0, 0(a0)          # count
  addi s1, a0, 8        # entry
1:
  beqz s0, 9f
  ld t0, 0(s1)
  ld t1, 8(s1)
  addi t2, s1, 16
  li t3, 1
  beqz t0, 2f
  beq t0, t3, 3f
  li t3, 2
  beq t0, t3, 4f
  xmtia_dpewait
  j 8f
2:
  xmtia_dma t2, t1
  j 8f
3:
  xmtia_dmawait t1
  j 8f
4:
  xmtia_dpe t2
8:
  addi s1, s1, 80
  addi s0, s0, -1
  j 1b
9:
  xmtia_done
