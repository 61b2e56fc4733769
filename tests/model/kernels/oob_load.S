# oob_load.S - loads from an unmapped address (args +0) and never gets further.
.include "xmtia.inc"
.globl _start
_start:
  ld t0, 0(a0)
  nop
bad_load:
  ld t1, 0(t0)
  xmtia_done
