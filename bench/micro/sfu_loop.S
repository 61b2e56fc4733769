# sfu_loop.S - SFU throughput: args+0 iterations of 32 vfexp.v at e32/m8
# (VLMAX elements each).
.include "xmtia.inc"
.globl _start
_start:
  ld s1, 0(a0)
  vsetvli t0, x0, e32, m8, ta, ma
  vmv.v.i v16, 0
1:
  .rept 32
  xmtia_sfu 0, x8, x16       # vfexp.v v8, v16
  .endr
  addi s1, s1, -1
  bnez s1, 1b
  xmtia_done
