# vfma_loop.S - fp32 vector FMA peak: args+0 iterations of 128 vfmacc.vv at
# e32/m1 (VLMAX elements each).
.globl _start
_start:
  ld s1, 0(a0)
  vsetvli t0, x0, e32, m1, ta, ma
  vmv.v.i v1, 0
  vmv.v.i v2, 0
  vmv.v.i v3, 0
1:
  .rept 128
  vfmacc.vv v1, v2, v3
  .endr
  addi s1, s1, -1
  bnez s1, 1b
  .insn i 0x0B, 0, x0, x0, 0
