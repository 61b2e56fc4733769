// dpe.sv - dot-product engine: a ROWS x COLS MAC array computing C (+)= A*B tile by tile (bf16/fp16->fp32, int8->int32).
//
// Protocol (docs/rtl/dpe.md): a command (m, n, k, dtype, accumulate) is taken
// on cmd_valid && cmd_ready. The output is cut into tiles of ROWS x COLS,
// row tiles outer, column tiles inner. Per tile:
//   LOAD  (accumulate only) rows_t beats on cin: row r of the C tile, COLS lanes
//   COMP  k beats on op: A[row0+r][kk] for r < ROWS, B[kk][col0+c] for c < COLS
//         (int8: ceil(k/2) beats, each lane carrying k steps kk in bits 7:0
//         and kk+1 in bits 15:8; every cell adds both products)
//   DRAIN rows_t beats on cout: row r of the result tile, COLS lanes
// where rows_t = min(ROWS, m - row0). Then one DONE cycle (done = 1).
// Lanes past m or n carry don't-care values in both directions.
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

  typedef enum logic [2:0] {
    S_IDLE,
    S_LOAD,
    S_COMP,
    S_DRAIN,
    S_DONE
  } state_t;

  state_t state;
  logic [31:0] m_q, n_q, k_q, row0, col0, beat, rows_t;
  logic [31:0] k_beats;  // COMP beats per tile: k, or ceil(k/2) for int8
  logic int8_q, fp16_q, acc_q;
  localparam int CELLS = ROWS * COLS;
  // Accumulator of cell (r, c): acc[r*COLS + c]. An unpacked array and
  // per-lane operand wires keep every index a word index in the simulation
  // (no variable part-selects of wide vectors on the per-cycle path).
  logic [31:0] acc [CELLS];
  logic [15:0] a_lane [ROWS];
  logic [15:0] b_lane [COLS];
  for (genvar r = 0; r < ROWS; r++) begin : g_a_lane
    assign a_lane[r] = op_a[r*16+:16];
  end
  for (genvar c = 0; c < COLS; c++) begin : g_b_lane
    assign b_lane[c] = op_b[c*16+:16];
  end

  assign cmd_ready = state == S_IDLE;
  assign cin_ready = state == S_LOAD;
  assign op_ready = state == S_COMP;
  assign cout_valid = state == S_DRAIN;
  assign done = state == S_DONE;
  assign k_beats = int8_q ? (k_q >> 1) + 32'(k_q[0]) : k_q;

  always_comb begin
    cout_data = '0;
    if (beat < 32'(ROWS))
      for (int c = 0; c < COLS; c++) cout_data[c*32+:32] = acc[beat*COLS+c];
  end

  function automatic logic [31:0] min_rows(input logic [31:0] m, input logic [31:0] r0);
    return (m - r0 < 32'(ROWS)) ? m - r0 : 32'(ROWS);
  endfunction

  // First phase of a tile: LOAD when accumulating, else COMP (or DRAIN if k == 0).
  function automatic state_t first_phase(input logic accumulate, input logic [31:0] k);
    if (accumulate) return S_LOAD;
    return (k == 32'd0) ? S_DRAIN : S_COMP;
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= S_IDLE;
      m_q <= '0;
      n_q <= '0;
      k_q <= '0;
      row0 <= '0;
      col0 <= '0;
      beat <= '0;
      rows_t <= '0;
      int8_q <= 1'b0;
      fp16_q <= 1'b0;
      acc_q <= 1'b0;
    end else begin
      case (state)
        S_IDLE: begin
          if (cmd_valid) begin
            m_q <= cmd_m;
            n_q <= cmd_n;
            k_q <= cmd_k;
            int8_q <= cmd_dtype == 2'd3;
            fp16_q <= cmd_dtype == 2'd1;
            acc_q <= cmd_accumulate;
            row0 <= '0;
            col0 <= '0;
            beat <= '0;
            rows_t <= min_rows(cmd_m, 32'd0);
            if (cmd_m == 32'd0 || cmd_n == 32'd0) state <= S_DONE;
            else state <= first_phase(cmd_accumulate, cmd_k);
          end
        end
        S_LOAD: begin
          if (cin_valid) begin
            if (beat + 32'd1 == rows_t) begin
              beat <= '0;
              state <= (k_q == 32'd0) ? S_DRAIN : S_COMP;
            end else begin
              beat <= beat + 32'd1;
            end
          end
        end
        S_COMP: begin
          if (op_valid) begin
            if (beat + 32'd1 == k_beats) begin
              beat <= '0;
              state <= S_DRAIN;
            end else begin
              beat <= beat + 32'd1;
            end
          end
        end
        S_DRAIN: begin
          if (cout_ready) begin
            if (beat + 32'd1 == rows_t) begin
              beat <= '0;
              if (col0 + 32'(COLS) < n_q) begin
                col0 <= col0 + 32'(COLS);
                state <= first_phase(acc_q, k_q);
              end else if (row0 + 32'(ROWS) < m_q) begin
                col0 <= '0;
                row0 <= row0 + 32'(ROWS);
                rows_t <= min_rows(m_q, row0 + 32'(ROWS));
                state <= first_phase(acc_q, k_q);
              end else begin
                state <= S_DONE;
              end
            end else begin
              beat <= beat + 32'd1;
            end
          end
        end
        default: state <= S_IDLE;  // S_DONE
      endcase
    end
  end

  // The MAC array: every cell updates its accumulator on an operand beat.
  // Accumulators start at +0 when the tile is not loaded from C. The cell
  // loops stay loops in simulation (--unroll-count), one multiply-add body;
  // they compute into `nxt` (blocking, as Verilator needs for arrays written
  // in loops) and the whole array is registered at once.
  always_ff @(posedge clk) begin
    logic [31:0] nxt [CELLS];
    nxt = acc;  // verilator lint_off BLKSEQ
    if (state == S_LOAD && cin_valid) begin
      for (int c = 0; c < COLS; c++) nxt[beat*COLS+c] = cin_data[c*32+:32];
    end else if (state == S_COMP && op_valid && int8_q) begin
      for (int i = 0; i < CELLS; i++) begin
        nxt[i] = acc[i]
            + 32'($signed(a_lane[i/COLS][7:0]) * $signed(b_lane[i%COLS][7:0]))
            + 32'($signed(a_lane[i/COLS][15:8]) * $signed(b_lane[i%COLS][15:8]));
      end
    end else if (state == S_COMP && op_valid) begin
      for (int i = 0; i < CELLS; i++) begin
        nxt[i] = fma16(a_lane[i/COLS], b_lane[i%COLS], acc[i], fp16_q, inject_fault && i == 0);
      end
    end else if ((state == S_IDLE && cmd_valid && !cmd_accumulate)
                 || (state == S_DRAIN && !acc_q && cout_ready && beat + 32'd1 == rows_t)) begin
      // A command, and every next tile, starts from +0 unless loaded from C.
      for (int i = 0; i < CELLS; i++) nxt[i] = '0;
    end  // verilator lint_on BLKSEQ
    acc <= nxt;
  end

endmodule
