# ifetch_sled.S - straight-line code for the instruction-fetch tests: jumps
# into a sled of 64 cache lines (64 bytes = 16 addi each) so that exactly
# the last N lines run, then ends in the line after the sled.
# args: +0 lines (u64, 0..64).
.include "xmtia.inc"
.globl _start
_start:
  ld t0, 0(a0)
  slli t0, t0, 6
  la t1, sled_end
  sub t1, t1, t0
  jr t1
.balign 64
sled:
.rept 64 * 16
  addi t2, t2, 1
.endr
sled_end:
  xmtia_done
