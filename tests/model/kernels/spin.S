# spin.S - a kernel that never ends (the watchdog must stop it).
.globl _start
_start:
  addi t0, t0, 1
  j _start
