# sfu_exp.S - out[i] = exp(in[i]) on the SFU for n fp32 elements, and
# out_prec = the mtia.sfu_prec CSR.
# args: +0 in (u64), +8 out (u64), +16 n (u64), +24 out_prec (u64)
.include "xmtia.inc"
.globl _start
_start:
  ld a1, 0(a0)
  ld a2, 8(a0)
  ld a3, 16(a0)
  ld a4, 24(a0)
  csrr t0, CSR_SFU_PREC
  sd t0, 0(a4)
1:
  vsetvli t1, a3, e32, m1, ta, ma
  vle32.v v8, (a1)
  xmtia_sfu 0, x16, x8
  vse32.v v16, (a2)
  slli t2, t1, 2
  add a1, a1, t2
  add a2, a2, t2
  sub a3, a3, t1
  bnez a3, 1b
  xmtia_done
