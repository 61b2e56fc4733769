# pid_store.S - every program instance stores a record of who it is:
# out[linear pid] = {pid_x, pid_y, pid_z, pe_id, nprog_x, grid_rows, grid_cols, hpm3}
# args: +0 out (u64, DRAM).
.include "xmtia.inc"
.globl _start
_start:
  ld t0, 0(a0)
  csrr t1, CSR_PID_X
  csrr t2, CSR_PID_Y
  csrr t3, CSR_PID_Z
  csrr t4, CSR_NPROG_X
  csrr a1, 0xFC4            # nprog_y
  # linear = pid_x + nprog_x * (pid_y + nprog_y * pid_z)
  mul t5, a1, t3
  add t5, t5, t2
  mul t5, t5, t4
  add t5, t5, t1
  slli t5, t5, 6            # 64-byte records
  add t0, t0, t5
  sd t1, 0(t0)
  sd t2, 8(t0)
  sd t3, 16(t0)
  csrr t6, CSR_PE_ID
  sd t6, 24(t0)
  sd t4, 32(t0)
  csrr t6, CSR_GRID_ROWS
  sd t6, 40(t0)
  csrr t6, CSR_GRID_COLS
  sd t6, 48(t0)
  # stack in local memory works
  addi sp, sp, -16
  sd t6, 0(sp)
  ld t6, 0(sp)
  sd t6, 56(t0)
  xmtia_done
