# rvv_loop.S - strip-mined SEW=32 loop y = y + a*x over 4096 floats, repeated;
# LMUL comes from -DLMUL=m1|m2|m4|m8. Linux user-mode program (exit ecall 93).
#ifndef LMUL
#define LMUL m1
#endif
  .globl _start
_start:
  li s0, 4000
  la t2, a_value
  flw fa0, 0(t2)
2:
  la a1, xs
  la a2, ys
  li a3, 4096
1:
  vsetvli t0, a3, e32, LMUL, ta, ma
  vle32.v v8, (a1)
  vle32.v v16, (a2)
  vfmacc.vf v16, fa0, v8
  vadd.vv v24, v16, v8
  vse32.v v16, (a2)
  sub a3, a3, t0
  slli t1, t0, 2
  add a1, a1, t1
  add a2, a2, t1
  bnez a3, 1b
  addi s0, s0, -1
  bnez s0, 2b
  li a0, 0
  li a7, 93
  ecall

  .data
  .balign 4
a_value: .float 0.5
  .balign 64
xs: .fill 4096, 4, 0x3f800000
ys: .fill 4096, 4, 0x40000000
