# cmdlist_rtz.S - cmdlist.S with frm = round toward zero: right before each
# DPE command a float add with the dynamic rounding mode, so the ISS leaves
# the host's rounding mode at round-toward-zero when the DPE computes (its
# contract is round-to-nearest-even whatever frm says).
# args: as cmdlist.S: +0 count (u64), then count entries of 80 bytes:
#   +0 kind (0 dma, 1 dmawait, 2 dpe, 3 dpewait), +8 tag, +16 descriptor (64 bytes)
.include "xmtia.inc"
.globl _start
_start:
  fsrmi 1               # frm = RTZ
  li t0, 1
  fcvt.s.w ft0, t0
  li t0, 3
  fcvt.s.w ft1, t0
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
  fdiv.s ft2, ft0, ft1, dyn  # 1/3: inexact, rounded by frm (RTZ)
  xmtia_dpe t2
8:
  addi s1, s1, 80
  addi s0, s0, -1
  j 1b
9:
  xmtia_done
