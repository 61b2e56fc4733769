# vec_busy.S - vector work between two reads of hpmcounter14 (vec.busy_cycles)
# and hpmcounter8 (stall.dma_wait_cycles) around a DMA wait.
# args: +0 out (u64[3], DRAM), +8 iterations, +16 DMA source (DRAM), +24 bytes
# out[0] = hpmcounter14 delta over the loop of vfadd.vv at e32/m8,
# out[1] = hpmcounter8 delta over one DMA of +24 bytes and its wait,
# out[2] = hpmcounter14 at the end.
.include "xmtia.inc"
.globl _start
_start:
  ld a1, 0(a0)
  ld a2, 8(a0)
  ld a3, 16(a0)
  ld a4, 24(a0)
  vsetvli t0, x0, e32, m8, ta, ma
  vmv.v.i v8, 0
  vmv.v.i v16, 0
  csrr t1, 0xC0E
1:
  vfadd.vv v8, v8, v16
  addi a2, a2, -1
  bnez a2, 1b
  csrr t2, 0xC0E
  sub t2, t2, t1
  sd t2, 0(a1)
  # One DMA DRAM -> local memory (alias base 0x10000000), then wait on it.
  addi sp, sp, -64
  sd a3, 0(sp)
  li t3, 0x10000000
  sd t3, 8(sp)
  sd a4, 16(sp)
  li t3, 1
  sd t3, 24(sp)
  sd x0, 32(sp)
  sd x0, 40(sp)
  csrr t4, 0xC08
  xmtia_dma sp, x0
  xmtia_dmawait x0
  csrr t5, 0xC08
  sub t5, t5, t4
  sd t5, 8(a1)
  csrr t6, 0xC0E
  sd t6, 16(a1)
  xmtia_done
