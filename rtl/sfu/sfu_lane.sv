// sfu_lane.sv - one special-function-unit lane: exp and reciprocal of fp32 at a configured precision.
//
// One result per cycle, latency one cycle (valid/ready on both sides).
// in_func uses isa::SfuFunc codes (0 exp, 7 reciprocal; anything else gives
// the canonical NaN). in_prec keeps that many fraction bits (1..22, round to
// nearest even on the encoding); 0 or >= 23 is full fp32.
//   reciprocal: 1/x correctly rounded to fp32 (IEEE division), then in_prec.
//   exp:        2^(x*log2 e) in fixed point (x to 2^-56, t to 2^-62, a 64-entry
//               2^(j/64) table and a degree-7 polynomial at 2^-60), rounded once to
//               fp32, then in_prec. This block is the definition of exp; the
//               C++ model rtl/include/opforge/rtl/sfu_ref.h is bit-exact with it.
module sfu_lane (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        in_valid,
    output logic        in_ready,
    input  logic [2:0]  in_func,
    input  logic [4:0]  in_prec,
    input  logic [31:0] in_x,
    output logic        out_valid,
    input  logic        out_ready,
    output logic [31:0] out_y,
    // fault injection: exp results of finite non-zero value get their lowest
    // kept fraction bit flipped (a broken lane on purpose)
    input  logic        inject_fault
);
  import opforge_fp_pkg::*;

  localparam logic [2:0] FUNC_EXP = 3'd0;
  localparam logic [2:0] FUNC_RECIP = 3'd7;
  localparam logic [63:0] LOG2E_Q62 = 64'h5C551D94AE0BF85E;
  localparam logic [63:0] LN2_Q60 = 64'h0B17217F7D1CF79B;
  localparam logic [63:0] INV6_Q60 = 64'h02AAAAAAAAAAAAAB;
  localparam logic [63:0] INV24_Q60 = 64'h00AAAAAAAAAAAAAB;
  localparam logic [63:0] INV120_Q60 = 64'h0022222222222222;
  localparam logic [63:0] INV720_Q60 = 64'h0005B05B05B05B06;
  localparam logic [63:0] INV5040_Q60 = 64'h0000D00D00D00D01;
  localparam logic [63:0] ONE_Q60 = 64'h1000000000000000;
  // 2^(j/64) at 2^-60, j = 0..63 (nearest).
  localparam logic [63:0] EXP2_TABLE[64] = '{
      64'h1000000000000000, 64'h102C9A3E778060EE, 64'h1059B0D31585743B, 64'h10874518759BC809,
      64'h10B5586CF9890F63, 64'h10E3EC32D3D1A202, 64'h111301D0125B50A5, 64'h11429AAEA92DDFB3,
      64'h1172B83C7D517ADD, 64'h11A35BEB6FCB753D, 64'h11D4873168B9AA78, 64'h12063B88628CD63C,
      64'h12387A6E75623867, 64'h126B4565E27CDD25, 64'h129E9DF51FDEE12C, 64'h12D285A6E4030B40,
      64'h1306FE0A31B7152E, 64'h133C08B26416FF4D, 64'h1371A7373AA9CAA7, 64'h13A7DB34E59FF6EA,
      64'h13DEA64C12342236, 64'h14160A21F72E29F8, 64'h144E086061892D03, 64'h1486A2B5C13CD014,
      64'h14BFDAD5362A271D, 64'h14F9B2769D2CA6AD, 64'h15342B569D4F81DF, 64'h156F4736B527DA67,
      64'h15AB07DD48542959, 64'h15E76F15AD21486F, 64'h16247EB03A5584B2, 64'h1662388255222491,
      64'h16A09E667F3BCC91, 64'h16DFB23C651A2EF2, 64'h171F75E8EC5F73DD, 64'h175FEB564267C8BF,
      64'h17A11473EB0186D8, 64'h17E2F336CF4E6210, 64'h182589994CCE128B, 64'h1868D99B4492EC81,
      64'h18ACE5422AA0DB5C, 64'h18F1AE991577362C, 64'h193737B0CDC5E4F4, 64'h197D829FDE4E4F8C,
      64'h19C49182A3F0901C, 64'h1A0C667B5DE564B3, 64'h1A5503B23E255C8B, 64'h1A9E6B5579FDBF44,
      64'h1AE89F995AD3AD5F, 64'h1B33A2B84F15FAF7, 64'h1B7F76F2FB5E46EB, 64'h1BCC1E904BC1D224,
      64'h1C199BDD85529C22, 64'h1C67F12E57D14B4A, 64'h1CB720DCEF906915, 64'h1D072D4A07897B8D,
      64'h1D5818DCFBA48726, 64'h1DA9E603DB328571, 64'h1DFC97337B9B5EB9, 64'h1E502EE78B3FF627,
      64'h1EA4AFA2A490D986, 64'h1EFA1BEE615A2777, 64'h1F50765B6E454067, 64'h1FA7C1819E90D82F
  };

  // The full 128-bit product a * b as {hi, lo}, from four 32x32 partial
  // products (64-bit arithmetic only: a 128-bit multiply is a slow wide
  // operation in the verilated model).
  function automatic void mul64(input logic [63:0] a, input logic [63:0] b, output logic [63:0] hi,
                                output logic [63:0] lo);
    logic [63:0] ll, lh, hl, hh, mid;
    ll = {32'd0, a[31:0]} * {32'd0, b[31:0]};
    lh = {32'd0, a[31:0]} * {32'd0, b[63:32]};
    hl = {32'd0, a[63:32]} * {32'd0, b[31:0]};
    hh = {32'd0, a[63:32]} * {32'd0, b[63:32]};
    mid = {32'd0, ll[63:32]} + {32'd0, lh[31:0]} + {32'd0, hl[31:0]};
    lo = {mid[31:0], ll[31:0]};
    hi = hh + {32'd0, lh[63:32]} + {32'd0, hl[63:32]} + {32'd0, mid[63:32]};
  endfunction

  // (a * b) >> 60, truncated to 64 bits.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [63:0] mul_q60(input logic [63:0] a, input logic [63:0] b);
    logic [63:0] hi, lo;
    mul64(a, b, hi, lo);
    return {hi[59:0], lo[63:60]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function automatic logic [31:0] exp_core(input logic [31:0] x);
    logic [7:0] ex;
    logic [63:0] mag, u, u2, u3, u4, u5, u6, u7, p, mm, hi, lo;
    logic [55:0] r;
    logic [5:0] j;
    int n, sh;
    ex = x[30:23];
    if (ex == 8'hFF) begin
      if (x[22:0] != 23'd0) return QNAN;
      return x[31] ? 32'd0 : 32'h7F80_0000;
    end
    if (ex >= 8'd134) return x[31] ? 32'd0 : 32'h7F80_0000;  // |x| >= 128
    // x in fixed point with 56 fraction bits (truncated toward zero).
    sh = int'(ex) - 94;
    mag = {40'd0, ex != 8'd0, x[22:0]};
    mag = (sh >= 0) ? mag << sh : ((-sh >= 64) ? 64'd0 : mag >> (-sh));
    // t = x * log2(e) with 62 fraction bits (floor); n = floor(t). The
    // product P of x (56 fraction bits, |x| < 2^63) and log2(e) (62) has 118
    // fraction bits: t = P >>> 56, i.e. n = P[127:118] (signed), j =
    // P[117:112], r = P[111:56]; a negative x negates the exact 128-bit
    // product of the magnitudes.
    mul64(mag, LOG2E_Q62, hi, lo);
    if (x[31]) begin
      hi = ~hi + {63'd0, lo == 64'd0};
      lo = ~lo + 64'd1;
    end
    n = int'($signed(hi[63:54]));
    j = hi[53:48];
    r = {hi[47:0], lo[63:56]};
    // 2^(t-n) = 2^(j/64) * e^u, u = (t - n - j/64) * ln 2 < 2^-6: the
    // product r * ln2 (56 + 60 fraction bits) >> 62.
    mul64({8'd0, r}, LN2_Q60, hi, lo);
    u = {hi[61:0], lo[63:62]};
    u2 = mul_q60(u, u);
    u3 = mul_q60(u2, u);
    u4 = mul_q60(u3, u);
    u5 = mul_q60(u4, u);
    u6 = mul_q60(u5, u);
    u7 = mul_q60(u6, u);
    p = ONE_Q60 + u + (u2 >> 1) + mul_q60(u3, INV6_Q60) + mul_q60(u4, INV24_Q60) +
        mul_q60(u5, INV120_Q60) + mul_q60(u6, INV720_Q60) + mul_q60(u7, INV5040_Q60);
    mm = mul_q60(EXP2_TABLE[j], p);
    return round_pack(1'b0, mm, n - 60, 1'b0);
  endfunction

  function automatic logic [31:0] recip_core(input logic [31:0] x);
    logic [23:0] m;
    int e;
    logic [63:0] q, rem;
    if (x[30:23] == 8'hFF) return (x[22:0] != 23'd0) ? QNAN : {x[31], 31'd0};
    if (x[30:0] == 31'd0) return {x[31], 8'hFF, 23'd0};
    m = {x[30:23] != 8'd0, x[22:0]};
    e = (x[30:23] == 8'd0 ? 1 : int'(x[30:23])) - 150;
    norm24(m, e);
    // 1/x = (2^50 / m) * 2^(-50 - e); the remainder becomes a sticky bit.
    q = (64'd1 << 50) / {40'd0, m};
    rem = (64'd1 << 50) % {40'd0, m};
    return round_pack(x[31], (q << 1) | {63'd0, rem != 64'd0}, -50 - e - 1, 1'b0);
  endfunction

  function automatic logic [31:0] lane_result(input logic [2:0] func, input logic [31:0] x);
    if (func == FUNC_EXP) return exp_core(x);
    if (func == FUNC_RECIP) return recip_core(x);
    return QNAN;
  endfunction

  // The lane's result, with the injected fault when asked.
  function automatic logic [31:0] lane_out(input logic [2:0] func, input logic [31:0] x,
                                           input logic [4:0] prec, input logic fault);
    logic [31:0] y;
    y = round_prec(lane_result(func, x), prec);
    if (fault && func == FUNC_EXP && y[30:23] != 8'hFF && y[30:0] != 31'd0)
      y = y ^ ((prec == 5'd0 || prec >= 5'd23) ? 32'd1 : 32'd1 << (5'd23 - prec));
    return y;
  endfunction

  assign in_ready = !out_valid || out_ready;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      out_valid <= 1'b0;
      out_y <= '0;
    end else if (in_ready) begin
      out_valid <= in_valid;
      if (in_valid) out_y <= lane_out(in_func, in_x, in_prec, inject_fault);
    end
  end

endmodule
