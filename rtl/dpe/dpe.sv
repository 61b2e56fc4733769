// dpe.sv - dot-product engine: a ROWS x COLS MAC array with double-buffered accumulators computing C (+)= A*B tile by tile (bf16/fp16->fp32, int8->int32).
//
// Protocol (docs/rtl/dpe.md): a command (m, n, k, dtype, accumulate) is taken
// on cmd_valid && cmd_ready. The output is cut into tiles of ROWS x COLS,
// row tiles outer, column tiles inner; tile t lives in accumulator bank t%2.
// The block works in steps; in step s, at the same time:
//   COMP  tile s-1 in bank (s-1)%2: k beats on op, A[row0+r][kk] for
//         r < ROWS, B[kk][col0+c] for c < COLS (int8: ceil(k/2) beats, each
//         lane carrying k steps kk in bits 7:0 and kk+1 in bits 15:8)
//   DRAIN tile s-2 from bank s%2: rows_t beats on cout, row r of the result
//   LOAD  tile s (accumulate only) into bank s%2: rows_t beats on cin, row r
//         of the C tile (a row is loaded once it has been drained)
// with rows_t = min(ROWS, m - row0). A step ends when all three are done
// (at least one cycle). Steps run from 0 (accumulate) or 1 to tiles + 1,
// then one DONE cycle (done = 1). Lanes past m or n carry don't-care values.
// Chaining: cmd_ready rises again while running once the last tile has left
// the tile generator (it is in LOAD); a command accepted then appends its
// tiles to the same stream (its tile 0 loads in the step that computes the
// previous last tile), each tile carrying its own k beats, dtype and
// accumulate flag, and no DONE cycle separates the two commands.
module dpe #(
    parameter int ROWS = 4,
    parameter int COLS = 4
) (
    input  logic                 clk,
    input  logic                 rst_n,
    // command
    input  logic                 cmd_valid,
    output logic                 cmd_ready,
    input  logic [31:0]          cmd_m,
    input  logic [31:0]          cmd_n,
    input  logic [31:0]          cmd_k,
    input  logic [1:0]           cmd_dtype,       // isa::DpeDType: 0 bf16, 1 fp16, 3 int8 (2 fp32: unsupported)
    input  logic                 cmd_accumulate,
    // operand beats: lane r of op_a is A[.][kk] (bf16/fp16), or int8
    // A[.][kk] in bits 7:0 and A[.][kk+1] in bits 15:8
    input  logic                 op_valid,
    output logic                 op_ready,
    input  logic [ROWS*16-1:0]   op_a,
    input  logic [COLS*16-1:0]   op_b,
    // initial C rows (accumulate)
    input  logic                 cin_valid,
    output logic                 cin_ready,
    input  logic [COLS*32-1:0]   cin_data,
    // result rows
    output logic                 cout_valid,
    input  logic                 cout_ready,
    output logic [COLS*32-1:0]   cout_data,
    output logic                 done,
    // fault injection: cell (0,0) rounds bf16/fp16 ties away from zero
    input  logic                 inject_fault
);
  import opforge_fp_pkg::*;

  typedef enum logic [1:0] {
    S_IDLE,
    S_RUN,
    S_DONE
  } state_t;

  // A tile of the output: its first row and column, and whether it exists.
  typedef struct packed {
    logic        on;
    logic [31:0] row0;
    logic [31:0] col0;
  } tile_t;

  localparam int CELLS = ROWS * COLS;

  state_t state;
  // The command whose tiles the generator hands out (gen): its shape and
  // attributes. Every tile in the pipeline carries its own copy (f_*, the
  // c-stage registers, d_zero), so a command accepted while an earlier one
  // is still in the pipeline appends its tiles to the same stream.
  logic [31:0] m_q, n_q;
  logic [31:0] g_kb;  // COMP beats per tile of gen's command: k, or ceil(k/2) for int8
  logic g_int8, g_fp16, g_acc, g_zero;
  // The step pipeline: the tile computed (s-1: c_on, c_rows and the COMP
  // attributes k_beats, int8_q, fp16_q, acc_q, c_zero), the rows drained
  // (tile s-2, 0: none; d_zero: it drains +0), the tile loaded (s: f_*) and
  // gen, the tile after it (s+1).
  logic c_on, f_on;
  logic [31:0] c_rows, f_rows, d_rows, f_need;
  logic [31:0] k_beats, f_kb;
  logic int8_q, fp16_q, acc_q, c_zero, d_zero;
  logic f_int8, f_fp16, f_acc, f_zero;
  logic [31:0] c_beat, dj, fj;  // beats done in this step per stream
  tile_t gen;
  logic cb;  // bank of the computed tile; the other bank drains and loads
  logic cmd_fire, op_fire, cin_fire, step_end;
  logic c_done, c_final, d_done, d_final, f_done, f_final;

  // Per-lane operand wires: every index is a word index in the simulation.
  logic [15:0] a_lane [ROWS];
  logic [15:0] b_lane [COLS];
  for (genvar r = 0; r < ROWS; r++) begin : g_a_lane
    assign a_lane[r] = op_a[r*16+:16];
  end
  for (genvar c = 0; c < COLS; c++) begin : g_b_lane
    assign b_lane[c] = op_b[c*16+:16];
  end

  function automatic logic [31:0] min_rows(input logic [31:0] m, input logic [31:0] r0);
    return (m - r0 < 32'(ROWS)) ? m - r0 : 32'(ROWS);
  endfunction

  // The tile after t in row-major tile order (on = 0 past the last).
  function automatic tile_t next_tile(input tile_t t, input logic [31:0] m, input logic [31:0] n);
    tile_t nx;
    nx = t;
    if (t.col0 + 32'(COLS) < n) begin
      nx.col0 = t.col0 + 32'(COLS);
    end else if (t.row0 + 32'(ROWS) < m) begin
      nx.row0 = t.row0 + 32'(ROWS);
      nx.col0 = '0;
    end else begin
      nx.on = 1'b0;
    end
    return nx;
  endfunction

  // COMP beats per tile of the offered command: k, or ceil(k/2) for int8.
  function automatic logic [31:0] cmd_beats(input logic [31:0] k, input logic [1:0] dtype);
    return dtype == 2'd3 ? (k >> 1) + 32'(k[0]) : k;
  endfunction

  assign f_need = (f_acc && f_on) ? f_rows : 32'd0;
  // Ready when idle, or (chaining) once the running stream's tile generator
  // is exhausted: the accepted command's tiles follow the last one.
  assign cmd_ready = state == S_IDLE || (state == S_RUN && !gen.on);
  assign cmd_fire = cmd_valid && cmd_ready;
  assign done = state == S_DONE;
  assign op_ready = state == S_RUN && c_on && c_beat < k_beats;
  assign cout_valid = state == S_RUN && dj < d_rows;
  // Row fj of the other bank may be loaded once its old row has been drained
  // (or is drained in this cycle).
  assign cin_ready = state == S_RUN && fj < f_need
      && (fj < dj || fj >= d_rows || (fj == dj && cout_ready));
  assign op_fire = op_valid && op_ready;
  assign cin_fire = cin_valid && cin_ready;
  // Where each part of the step stands: done, or at its last beat. A step
  // ends when every part is done or finishes with this cycle's beat.
  assign c_done = !c_on || c_beat == k_beats;
  assign c_final = c_on && c_beat + 32'd1 == k_beats;
  assign d_done = dj == d_rows;
  assign d_final = dj + 32'd1 == d_rows;
  assign f_done = fj == f_need;
  assign f_final = fj + 32'd1 == f_need;
  assign step_end = state == S_RUN && (c_done || (c_final && op_valid))
      && (d_done || (d_final && cout_ready)) && (f_done || (f_final && cin_fire));

  // The FSM is one clocked block per group of registers, none of which reads
  // its own registers except the step counters, cb, state and gen: the model
  // then keeps no shadow copies of the pipeline registers. On the edge that
  // takes a command while running, that command supplies gen, its shape and
  // attributes (gen_* below; m or n of 0 appends nothing). Synchronous reset:
  // the clock edge is the block's only trigger.

  // The command whose tiles the generator hands out.
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      m_q <= '0;
      n_q <= '0;
      g_kb <= '0;
      g_int8 <= 1'b0;
      g_fp16 <= 1'b0;
      g_acc <= 1'b0;
      g_zero <= 1'b0;
    end else if (cmd_fire) begin
      m_q <= cmd_m;
      n_q <= cmd_n;
      g_kb <= cmd_beats(cmd_k, cmd_dtype);
      g_int8 <= cmd_dtype == 2'd3;
      g_fp16 <= cmd_dtype == 2'd1;
      g_acc <= cmd_accumulate;
      g_zero <= cmd_k == 32'd0 && !cmd_accumulate;
    end
  end

  // LOAD stage (tile s) and the tile generator (tile s+1).
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      f_kb <= '0;
      f_int8 <= 1'b0;
      f_fp16 <= 1'b0;
      f_acc <= 1'b0;
      f_zero <= 1'b0;
      f_on <= 1'b0;
      f_rows <= '0;
    end else if (state == S_IDLE && cmd_valid) begin
      f_kb <= cmd_beats(cmd_k, cmd_dtype);
      f_int8 <= cmd_dtype == 2'd3;
      f_fp16 <= cmd_dtype == 2'd1;
      f_acc <= cmd_accumulate;
      f_zero <= cmd_k == 32'd0 && !cmd_accumulate;
      if (cmd_m != 32'd0 && cmd_n != 32'd0) begin
        // accumulate: step 0 loads tile 0; else step 1 computes tile 0 and
        // loads tile 1 (next_tile of tile 0: on, and its first row)
        f_on <= cmd_accumulate || 32'(COLS) < cmd_n || 32'(ROWS) < cmd_m;
        f_rows <= min_rows(cmd_m, (!cmd_accumulate && !(32'(COLS) < cmd_n) && 32'(ROWS) < cmd_m)
                                      ? 32'(ROWS) : 32'd0);
      end
    end else if (state == S_RUN && step_end) begin
      if (cmd_fire) begin
        f_on <= cmd_m != 32'd0 && cmd_n != 32'd0;
        f_rows <= min_rows(cmd_m, 32'd0);
        f_kb <= cmd_beats(cmd_k, cmd_dtype);
        f_int8 <= cmd_dtype == 2'd3;
        f_fp16 <= cmd_dtype == 2'd1;
        f_acc <= cmd_accumulate;
        f_zero <= cmd_k == 32'd0 && !cmd_accumulate;
      end else begin
        f_on <= gen.on;
        f_rows <= min_rows(m_q, gen.row0);
        f_kb <= g_kb;
        f_int8 <= g_int8;
        f_fp16 <= g_fp16;
        f_acc <= g_acc;
        f_zero <= g_zero;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      gen <= '0;
    end else if (state == S_IDLE && cmd_valid) begin
      if (cmd_m != 32'd0 && cmd_n != 32'd0) begin
        tile_t t1;
        t1 = next_tile(tile_t'{1'b1, 32'd0, 32'd0}, cmd_m, cmd_n);
        gen <= cmd_accumulate ? t1 : next_tile(t1, cmd_m, cmd_n);
      end
    end else if (state == S_RUN && (cmd_fire || step_end)) begin
      tile_t gen_in;
      logic [31:0] gen_m, gen_n;
      gen_in = cmd_fire ? tile_t'{cmd_m != 32'd0 && cmd_n != 32'd0, 32'd0, 32'd0} : gen;
      gen_m = cmd_fire ? cmd_m : m_q;
      gen_n = cmd_fire ? cmd_n : n_q;
      if (!step_end) gen <= gen_in;
      else if (gen_in.on) gen <= next_tile(gen_in, gen_m, gen_n);
    end
  end

  // COMP stage (tile s-1) and DRAIN stage (tile s-2).
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      k_beats <= '0;
      int8_q <= 1'b0;
      fp16_q <= 1'b0;
      acc_q <= 1'b0;
      c_zero <= 1'b0;
      c_on <= 1'b0;
      c_rows <= '0;
      d_rows <= '0;
      d_zero <= 1'b0;
    end else if (state == S_IDLE && cmd_valid) begin
      d_rows <= '0;
      if (cmd_m != 32'd0 && cmd_n != 32'd0) begin
        if (cmd_accumulate) begin
          c_on <= 1'b0;
        end else begin
          c_on <= 1'b1;
          c_rows <= min_rows(cmd_m, 32'd0);
          k_beats <= cmd_beats(cmd_k, cmd_dtype);
          int8_q <= cmd_dtype == 2'd3;
          fp16_q <= cmd_dtype == 2'd1;
          acc_q <= 1'b0;
          c_zero <= cmd_k == 32'd0;
        end
      end
    end else if (state == S_RUN && step_end) begin
      d_rows <= c_on ? c_rows : 32'd0;
      d_zero <= c_zero;
      c_on <= f_on;
      c_rows <= f_rows;
      k_beats <= f_kb;
      int8_q <= f_int8;
      fp16_q <= f_fp16;
      acc_q <= f_acc;
      c_zero <= f_zero;
    end
  end

  // State, the beats of the step per stream and the computed tile's bank.
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state <= S_IDLE;
      c_beat <= '0;
      dj <= '0;
      fj <= '0;
      cb <= 1'b0;
    end else begin
      case (state)
        S_IDLE: begin
          if (cmd_valid) begin
            c_beat <= '0;
            dj <= '0;
            fj <= '0;
            if (cmd_m == 32'd0 || cmd_n == 32'd0) begin
              state <= S_DONE;
            end else begin
              state <= S_RUN;
              cb <= cmd_accumulate;  // step 0 (load tile 0) or step 1 (compute it)
            end
          end
        end
        S_RUN: begin
          if (step_end) begin
            c_beat <= '0;
            dj <= '0;
            fj <= '0;
            cb <= ~cb;
            if (!f_on && !c_on && !(cmd_fire ? cmd_m != 32'd0 && cmd_n != 32'd0 : gen.on))
              state <= S_DONE;
          end else begin
            c_beat <= c_beat + 32'(op_fire);
            dj <= dj + 32'(cout_valid && cout_ready);
            fj <= fj + 32'(cin_fire);
          end
        end
        default: state <= S_IDLE;  // S_DONE
      endcase
    end
  end

  // The two accumulator banks. Bank g is the MAC array's when cb == g (every
  // cell updates on an operand beat, from +0 on a tile's first beat unless
  // the tile was loaded from C), else it is drained and loaded row by row.
  // Operand lanes are decoded once per beat at the array's edge and shared
  // along a row or column (int8: sign-extended halves; bf16/fp16: edge_m16/edge_e16,
  // subnormals pre-normalized). A bf16/fp16 tile keeps its accumulators
  // unpacked (opforge_fp_pkg: acc = m, acc_s, acc_e; unpk[r] set for the
  // row) so a multiply-add neither unpacks nor packs: rows loaded from C are
  // unpacked on the tile's first beat, cout packs on drain. NaN/infinity
  // operands or accumulators take fma16 on the raw patterns. For simulation
  // speed the cell loops stay loops (--unroll-count), one multiply-add body,
  // and a bank is written in place (blocking: only its own block and the
  // cout mux read it, after the edge).
  for (genvar g = 0; g < 2; g++) begin : g_bank
    logic [31:0] acc [CELLS];
    logic acc_s [CELLS];
    logic [31:0] acc_e [CELLS];
    logic unpk [ROWS];
    always_ff @(posedge clk) begin
      // int8 lanes sign-extended to 32 bits: the low 32 bits of their
      // product are the signed product (an unsigned multiply in the model).
      logic [31:0] a_lo [ROWS], a_hi [ROWS], b_lo [COLS], b_hi [COLS];
      logic [10:0] a_m [ROWS], b_m [COLS];
      logic [31:0] a_e [ROWS], b_e [COLS];
      logic [31:0] word, e;
      logic [23:0] m;
      logic fresh, s;
      fresh = c_beat == 32'd0 && !acc_q;  // verilator lint_off BLKSEQ
      if (cb == 1'(g) && op_fire && int8_q) begin
        for (int unsigned r = 0; r < ROWS; r++) begin
          a_lo[r] = 32'($signed(a_lane[r][7:0]));
          a_hi[r] = 32'($signed(a_lane[r][15:8]));
          unpk[r] = 1'b0;
        end
        for (int unsigned c = 0; c < COLS; c++) begin
          b_lo[c] = 32'($signed(b_lane[c][7:0]));
          b_hi[c] = 32'($signed(b_lane[c][15:8]));
        end
        if (fresh) for (int unsigned i = 0; i < CELLS; i++) acc[i] = 32'd0;
        // Loop shape for the model's speed: a large array unrolls the inner
        // loop (COLS <= --unroll-count); a small one stays one flat loop (a
        // fully unrolled one gets the lanes' sign extension substituted into
        // every cell).
        if (CELLS > 16) begin
          for (int unsigned r = 0; r < ROWS; r++)
            for (int unsigned c = 0; c < COLS; c++)
              acc[r*COLS+c] = acc[r*COLS+c] + a_lo[r] * b_lo[c] + a_hi[r] * b_hi[c];
        end else begin
          for (int unsigned i = 0; i < CELLS; i++)
            acc[i] = acc[i] + a_lo[i/COLS] * b_lo[i%COLS] + a_hi[i/COLS] * b_hi[i%COLS];
        end
      end else if (cb == 1'(g) && op_fire) begin
        for (int unsigned r = 0; r < ROWS; r++) begin
          a_m[r] = edge_m16(a_lane[r][14:0], fp16_q);
          a_e[r] = edge_e16(a_lane[r][14:0], fp16_q, 1'b1);
        end
        for (int unsigned c = 0; c < COLS; c++) begin
          b_m[c] = edge_m16(b_lane[c][14:0], fp16_q);
          b_e[c] = edge_e16(b_lane[c][14:0], fp16_q, 1'b0);
        end
        for (int unsigned r = 0; r < ROWS; r++) begin
          if (fresh || !unpk[r]) begin
            for (int unsigned c = 0; c < COLS; c++) begin
              acc_unpack(fresh ? 32'd0 : acc[r*COLS+c], s, e, m);
              acc[r*COLS+c] = {8'd0, m};
              acc_s[r*COLS+c] = s;
              acc_e[r*COLS+c] = e;
            end
          end
          unpk[r] = 1'b1;
        end
        // Cell 0 apart: it alone carries the injected fault, the loop's
        // body rounds to nearest even only.
        word = acc[0];
        s = acc_s[0];
        e = acc_e[0];
        mac_cell(a_lane[0], a_m[0], a_e[0], b_lane[0], b_m[0], b_e[0], fp16_q, word, s, e,
                 inject_fault);
        acc[0] = word;
        acc_s[0] = s;
        acc_e[0] = e;
        for (int unsigned i = 1; i < CELLS; i++) begin
          word = acc[i];
          s = acc_s[i];
          e = acc_e[i];
          mac_cell(a_lane[i/COLS], a_m[i/COLS], a_e[i/COLS], b_lane[i%COLS], b_m[i%COLS],
                   b_e[i%COLS], fp16_q, word, s, e, 1'b0);
          acc[i] = word;
          acc_s[i] = s;
          acc_e[i] = e;
        end
      end else if (cb != 1'(g) && cin_fire) begin
        for (int unsigned c = 0; c < COLS; c++) acc[fj*COLS+c] = cin_data[c*32+:32];
        unpk[fj] = 1'b0;
      end  // verilator lint_on BLKSEQ
    end
  end

  // Result row dj of the drained bank; a tile of a command with k == 0 that
  // does not accumulate gives +0 (no beat reached the bank).
  always_comb begin
    cout_data = '0;
    if (dj < 32'(ROWS) && !d_zero)
      for (int c = 0; c < COLS; c++)
        cout_data[c*32+:32] = cb
            ? (g_bank[0].unpk[dj] ? acc_pack(g_bank[0].acc_s[dj*COLS+c], g_bank[0].acc_e[dj*COLS+c],
                                             g_bank[0].acc[dj*COLS+c][23:0])
                                  : g_bank[0].acc[dj*COLS+c])
            : (g_bank[1].unpk[dj] ? acc_pack(g_bank[1].acc_s[dj*COLS+c], g_bank[1].acc_e[dj*COLS+c],
                                             g_bank[1].acc[dj*COLS+c][23:0])
                                  : g_bank[1].acc[dj*COLS+c]);
  end

endmodule
