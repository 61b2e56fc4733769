# crt0.S - start-up for bare-metal test programs run by the ISS: sets up the
# stack, enables FP and vector state, calls main and reports its return
# value through HTIF tohost (0 -> 1 = pass, n -> (n<<1)|1 = fail code n).
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  la sp, __stack_top
  li t0, (1 << 13) | (1 << 9)
  csrs mstatus, t0
  call main
  slli a0, a0, 1
  ori a0, a0, 1
  la t0, tohost
  sd a0, 0(t0)
1:
  j 1b

  .section .tohost, "aw", @progbits
  .balign 64
  .globl tohost
tohost:
  .dword 0
  .balign 64
  .globl fromhost
fromhost:
  .dword 0
