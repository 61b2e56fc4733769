# hang.S - test kernel for the sweep runner: never ends (the per-point timeout must kill it).
.globl _start
_start:
1:
  j 1b
